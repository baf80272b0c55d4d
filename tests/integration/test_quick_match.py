"""Play now (docs/quick-match.md): the table that fits, the rating order, blocks both ways,
rated and unrated apart, a double press, two people for one last seat, cancelling, the bot
that fills a table after N hours, and bad input. The races run on whichever database the suite
runs on (PostgreSQL's row locks, or the SQLite file's IMMEDIATE transactions)."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services.relations import block_add
from games import tasks
from games.models import Match, Rating, RatingStatus, Seat
from games.selectors.quick import QuickChoice
from games.services import match_create, match_join
from games.services.quick import ALREADY, OPENED, SEATED, quick_match_play
from games.services.ratings import NOTE_CHOSEN, ratings_update_due
from tests import factories

pytestmark = pytest.mark.django_db


def _choice(
    game: str = "faraway", seats: int | None = 2, deadline: int | None = None, rated: bool = True
) -> QuickChoice:
    return QuickChoice(game=game, seats=seats, deadline_days=deadline, rated=rated)


def _play(user, **choice):
    fill = choice.pop("fill", None)
    return quick_match_play(user=user, choice=_choice(**choice), bot_fill_hours=fill)


def _form(**fields) -> dict[str, str]:
    return {"game": "faraway", "seats": "2", "rated": "rated", "deadline_days": "", **fields}


def _rating(user, mu: float, game: str = "faraway") -> None:
    Rating.objects.create(game=game, user=user, mu=mu, sigma=3.0, matches=10)


def _people(*names):
    return [factories.user_make(name) for name in names]


# --- Seating and opening ----------------------------------------------------------------------


def test_with_no_table_waiting_a_public_table_opens_and_the_next_person_is_seated(ann, bea):
    opened = _play(ann)
    assert opened.how == OPENED
    match = Match.objects.get(pk=opened.match.pk)
    assert (match.public, match.quick, match.rated, match.status) == (True, True, True, "waiting")
    assert list(match.seats.values_list("user__username", flat=True)) == ["ann"]
    seated = _play(bea)
    assert (seated.how, seated.match.pk) == (SEATED, match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert Match.objects.count() == 1


def test_the_page_seats_the_person_and_says_so_on_the_table(ann, bea):
    response = factories.client_for(ann).post("/play/", _form(), follow=True)
    page = response.content.decode()
    assert "this one is open for others to find" in page
    assert "Waiting for 1 more player." in page
    assert 'id="quick-cancel"' in page
    pk = Match.objects.get().pk
    assert f'href="/matches/{pk}/cancel/"' in page
    response = factories.client_for(bea).post("/play/", _form())
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{pk}/"
    assert Match.objects.get().status == Match.Status.ACTIVE


def test_only_a_table_on_the_same_terms_fits(ann, bea):
    other_terms = [
        {"game": "gulliver", "num_players": 2},  # another game
        {"num_players": 3},  # another size
        {"num_players": 2, "deadline_days": 3},  # another deadline
        {"num_players": 2, "rated": False},  # unrated
        {"num_players": 2, "holidays": False},  # holidays refused
        {"num_players": 2, "public": False},  # private: its invite link only
        {"game": "gulliver", "num_players": 2, "options": {"target": 40}},  # other options
    ]
    for terms in other_terms:
        match_create(**{"game": "faraway", "created_by": ann, "public": True, **terms})
    placed = _play(bea)
    assert placed.how == OPENED
    gulliver = _play(factories.user_make("cal"), game="gulliver")
    assert gulliver.how == SEATED and "target" not in gulliver.match.options


def test_any_size_fits_every_size_and_opens_the_smallest(ann, bea, cal):
    three = match_create(game="faraway", num_players=3, created_by=ann, public=True)
    assert _play(bea, seats=None).match.pk == three.pk
    opened = _play(cal, game="gulliver", seats=None)
    assert opened.how == OPENED and opened.match.num_players == 2


def test_a_table_made_with_the_new_match_form_fits_too(ann, bea):
    public = match_create(game="faraway", num_players=2, created_by=ann, public=True)
    assert _play(bea).match.pk == public.pk


def test_rated_and_unrated_tables_never_mix(ann, bea):
    rated = _play(ann)
    unrated = _play(bea, rated=False)
    assert unrated.how == OPENED and unrated.match.pk != rated.match.pk
    assert Match.objects.get(pk=unrated.match.pk).rated is False
    lobby = factories.client_for(factories.user_make("cal")).get("/matches/").content.decode()
    assert lobby.count('class="unrated-note"') == 1  # the lobby tells the two apart


def test_an_unrated_table_finishes_unrated(ann, bea):
    _play(ann, rated=False)
    match = _play(bea, rated=False).match
    factories.play_random(Match.objects.get(pk=match.pk), random.Random(5))
    ratings_update_due()
    match.refresh_from_db()
    assert (match.rating_status, match.rating_note) == (RatingStatus.UNRATED, NOTE_CHOSEN)
    assert not Rating.objects.filter(user__in=[ann, bea]).exists()


# --- Rating order ----------------------------------------------------------------------------


def test_the_table_of_the_nearest_rating_comes_first_whatever_its_age(ann, bea, cal):
    _rating(ann, 40.0)
    _rating(bea, 15.0)
    _rating(cal, 38.0)
    match_create(game="faraway", num_players=3, created_by=bea, public=True)  # older, far
    near = match_create(game="faraway", num_players=3, created_by=cal, public=True)
    assert _play(ann, seats=3).match.pk == near.pk


def test_among_equally_near_tables_the_oldest_waiting_comes_first(ann, bea, cal):
    _rating(bea, 25.4)
    _rating(cal, 24.8)
    older = match_create(game="faraway", num_players=3, created_by=bea, public=True)
    match_create(game="faraway", num_players=3, created_by=cal, public=True)
    # ann is new: she counts at the model's starting mean (25), in the same band as both.
    assert _play(ann, seats=3).match.pk == older.pk


def test_a_newcomer_counts_at_the_starting_rating(ann, bea, cal):
    _rating(bea, 45.0)
    expert = match_create(game="faraway", num_players=3, created_by=bea, public=True)
    newcomers = match_create(game="faraway", num_players=3, created_by=cal, public=True)
    assert expert.created_at <= newcomers.created_at
    # ann and cal have played no rated match: both count at the starting mean.
    assert _play(ann, seats=3).match.pk == newcomers.pk


# --- Blocks ----------------------------------------------------------------------------------


@pytest.mark.parametrize("who_blocks", ["the one waiting", "the one arriving"])
def test_a_block_either_way_keeps_two_people_at_separate_tables(ann, bea, who_blocks):
    first = _play(ann)
    blocker, blocked = (ann, bea) if who_blocks == "the one waiting" else (bea, ann)
    block_add(blocker_id=blocker.pk, blocked_id=blocked.pk)
    second = _play(bea)
    assert second.how == OPENED and second.match.pk != first.match.pk
    assert not Seat.objects.filter(match=first.match, user=bea).exists()


def test_a_block_with_someone_already_seated_or_the_creator_watching_counts(ann, bea, cal):
    table = match_create(game="faraway", num_players=3, created_by=ann, public=True)
    match_join(match=table, user=bea)
    block_add(blocker_id=cal.pk, blocked_id=bea.pk)
    assert _play(cal, seats=3).match.pk != table.pk
    watched = match_create(
        game="faraway", num_players=2, created_by=bea, public=True, creator_plays=False
    )
    dan = factories.user_make("dan")
    block_add(blocker_id=bea.pk, blocked_id=dan.pk)
    assert _play(dan).match.pk != watched.pk


# --- Pressing twice, racing for the last seat ----------------------------------------------------


def test_pressing_twice_finds_the_first_table(ann):
    first = _play(ann)
    second = _play(ann)
    assert (second.how, second.match.pk) == (ALREADY, first.match.pk)
    # Other choices too: one waiting Play now table at a time, until it is cancelled.
    third = _play(ann, game="gulliver", seats=None, rated=False)
    assert (third.how, third.match.pk) == (ALREADY, first.match.pk)
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_press_at_once_opens_one_table_and_seats_once():
    (ann,) = _people("ann")
    client = factories.client_for(ann)
    statuses = factories.at_once([lambda: client.post("/play/", _form()).status_code] * 2)
    assert statuses == [302, 302]
    assert Match.objects.count() == 1
    assert Seat.objects.filter(user=ann).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_people_racing_for_the_last_seat_one_sits_the_other_opens_a_table():
    ann, bea, cal, dan = _people("ann", "bea", "cal", "dan")
    table = _play(ann, seats=3).match
    _play(bea, seats=3)
    clients = [factories.client_for(u) for u in (cal, dan)]
    statuses = factories.at_once(
        [lambda c=c: c.post("/play/", _form(seats="3")).status_code for c in clients]
    )
    assert statuses == [302, 302]
    table.refresh_from_db()
    assert table.status == Match.Status.ACTIVE
    assert table.seats.count() == 3
    other = Match.objects.exclude(pk=table.pk).get()
    assert other.status == Match.Status.WAITING and other.quick
    seated = {s.user_id for s in table.seats.all()} | {s.user_id for s in other.seats.all()}
    assert seated == {ann.pk, bea.pk, cal.pk, dan.pk}
    assert Seat.objects.filter(user__in=[cal, dan]).count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("seats", "attempt"), [("2", 0), ("2", 1), ("2", 2), ("any", 0)])
def test_two_people_pressing_at_once_with_no_table_waiting_meet_at_one(seats, attempt):
    ann, bea = _people("ann", "bea")
    forms = [_form(seats=seats), _form()]  # "any" opens the game's smallest: two seats
    clients = [factories.client_for(u) for u in (ann, bea)]
    statuses = factories.at_once(
        [
            lambda c=c, f=f: c.post("/play/", f).status_code
            for c, f in zip(clients, forms, strict=True)
        ]
    )
    assert statuses == [302, 302]
    match = Match.objects.get()  # one table: the second press found the first's
    assert match.status == Match.Status.ACTIVE
    assert {s.user_id for s in match.seats.all()} == {ann.pk, bea.pk}


# --- Cancelling ------------------------------------------------------------------------------


def test_cancelling_alone_withdraws_the_table(ann, bea):
    match = _play(ann).match
    client = factories.client_for(ann)
    assert client.post(f"/matches/{match.pk}/cancel/", {"confirm": "yes"}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    assert _play(bea).how == OPENED  # a withdrawn table seats nobody
    assert _play(ann).how == SEATED  # and ann may look again: she sits at bea's


def test_cancelling_with_others_seated_leaves_the_table_to_them(ann, bea, cal):
    match = _play(ann, seats=3).match
    _play(bea, seats=3)
    client = factories.client_for(ann)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/leave/"' in page  # her Cancel leaves, now
    assert client.post(f"/matches/{match.pk}/cancel/", {"confirm": "yes"}).status_code == 409
    assert client.post(f"/matches/{match.pk}/leave/", {"confirm": "yes"}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING
    assert match.created_by_id == bea.pk
    assert list(match.seats.values_list("user__username", flat=True)) == ["bea"]
    # Her seat is open again: the next person pressing Play now takes it.
    assert _play(cal, seats=3).match.pk == match.pk


def test_the_creator_of_an_ordinary_table_still_cancels_rather_than_leaves(ann, bea):
    match = match_create(game="faraway", num_players=3, created_by=ann, public=True)
    match_join(match=match, user=bea)
    response = factories.client_for(ann).post(f"/matches/{match.pk}/leave/", {"confirm": "yes"})
    assert response.status_code == 409
    assert Match.objects.get(pk=match.pk).created_by_id == ann.pk


# --- The bot after N hours -------------------------------------------------------------------


def test_the_bot_fills_the_open_seats_once_the_hours_pass_and_only_then(ann, bea):
    match = _play(ann, seats=3, fill=4).match
    _play(bea, seats=3)
    match.refresh_from_db()
    assert timedelta(hours=3, minutes=59) < match.bot_fill_at - timezone.now() <= timedelta(hours=4)
    assert tasks.quick_bot_fill() == 0
    Match.objects.filter(pk=match.pk).update(bot_fill_at=timezone.now() - timedelta(seconds=1))
    assert tasks.quick_bot_fill() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    levels = list(match.seats.order_by("index").values_list("bot_level", flat=True))
    assert levels == [None, None, "greedy"]
    assert tasks.quick_bot_fill() == 0  # a second run changes nothing


def test_a_table_the_last_person_left_is_withdrawn_not_filled_with_bots(ann, bea):
    match = _play(ann, seats=3, fill=1).match
    Seat.objects.filter(match=match).delete()  # as an account's deletion leaves it
    Match.objects.filter(pk=match.pk).update(bot_fill_at=timezone.now() - timedelta(seconds=1))
    assert tasks.quick_bot_fill() == 0
    assert Match.objects.get(pk=match.pk).status == Match.Status.CANCELLED


def test_the_bot_fill_time_is_shown_on_the_waiting_table(ann):
    response = factories.client_for(ann).post("/play/", _form(bot_fill_hours="12"), follow=True)
    assert "the greedy bot takes the seats still free" in response.content.decode()


# --- Bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"seats": "6"}, "The Faraway Tree seats 2 to 4 players."),
        ({"seats": "twelve"}, "Select a valid choice."),
        ({"game": "chess"}, "Select a valid choice."),
        ({"rated": "perhaps"}, "Select a valid choice."),
        ({"deadline_days": "2"}, "Select a valid choice."),
        ({"bot_fill_hours": "5"}, "Select a valid choice."),
        ({"bot_fill_hours": "\x00"}, ""),
    ],
)
def test_bad_input_is_a_400_that_says_why_and_changes_nothing(ann, fields, words):
    response = factories.client_for(ann).post("/play/", _form(**fields))
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Match.objects.exists()


def test_the_page_needs_a_sign_in_and_is_linked_from_home_and_lobby(ann, client):
    assert client.get("/play/")["Location"].startswith("/accounts/login/")
    signed_in = factories.client_for(ann)
    for page in ("/", "/matches/"):
        assert 'href="/play/"' in signed_in.get(page).content.decode()
    form = signed_in.get("/play/?game=gulliver").content.decode()
    assert re.search(r'value="gulliver"[^>]* checked', form)

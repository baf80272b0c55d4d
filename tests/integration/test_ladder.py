"""The ladder (docs/competitions.md, "Ladder"): joining at the bottom and its gates, leaving
and the places closing up, challenges within reach and their limits, the match a challenge
makes (a games invitation, the challenged person first), the result moving the places (once),
withdrawing, closing and deleting an account, the page and its statement count, bad input.
The races (two results at once, two challengers for one place, accept against withdraw, a
double join) run on whichever database the suite runs on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import ChallengeSetting, NotificationSettings
from accounts.services.closure import account_close
from accounts.services.deletion import account_delete
from accounts.services.relations import block_add
from competitions import ladder_rules
from competitions.models import Ladder, LadderChallenge, LadderEvent, LadderRung
from competitions.services.ladder import (
    ladder_challenge,
    ladder_join,
    ladder_leave,
    ladder_withdraw,
)
from games.models import Invitation, Match, Seat
from games.services import Rejected, match_resign
from games.services.invitations import invitation_accept, invitation_decline
from games.signals import match_finished
from games.views.notice_sources import notice_badge_count
from tests import factories

pytestmark = pytest.mark.django_db
State = LadderChallenge.State


def _ladder(*names: str, game: str = "faraway") -> list:
    people = [factories.user_make(name) for name in names]
    for person in people:
        ladder_join(game=game, user=person)
    return people


def _places(game: str = "faraway") -> list[str]:
    return list(
        LadderRung.objects.filter(ladder__game=game)
        .order_by("position")
        .values_list("user__username", flat=True)
    )


def _positions(game: str = "faraway") -> list[int]:
    return list(
        LadderRung.objects.filter(ladder__game=game)
        .order_by("position")
        .values_list("position", flat=True)
    )


def _challenge(challenger, target, game: str = "faraway") -> LadderChallenge:
    return ladder_challenge(game=game, challenger=challenger, target_name=target.username)


def _accept(challenge: LadderChallenge, target) -> None:
    invitation = Invitation.objects.get(match_id=challenge.match_id, user=target)
    invitation_accept(invitation_id=invitation.pk, user=target)


def _played(challenger, target, *, winner) -> LadderChallenge:
    """A challenge accepted and ended by the loser's resignation."""
    challenge = _challenge(challenger, target)
    _accept(challenge, target)
    loser = target if winner == challenger else challenger
    match_resign(match_id=challenge.match_id, user=loser)
    challenge.refresh_from_db()
    return challenge


# --- Joining and leaving ----------------------------------------------------------------------


def test_joining_puts_each_person_at_the_bottom_and_twice_keeps_the_place():
    _ann, bea, _cal = _ladder("ann", "bea", "cal")
    assert _places() == ["ann", "bea", "cal"]
    assert ladder_join(game="faraway", user=bea).position == 2
    assert _positions() == [1, 2, 3]
    assert LadderEvent.objects.filter(kind="joined").count() == 3


def test_a_person_without_a_confirmed_address_or_closed_to_challenges_cannot_join():
    dan = factories.user_make("dan")
    dan.email = ""
    dan.save()
    with pytest.raises(Rejected) as refused:
        ladder_join(game="faraway", user=dan)
    assert refused.value.message == ladder_rules.JOIN_NO_EMAIL
    eve = factories.user_make("eve")
    ChallengeSetting.objects.create(user=eve, who=ChallengeSetting.Who.FRIENDS)
    with pytest.raises(Rejected) as refused:
        ladder_join(game="faraway", user=eve)
    assert refused.value.message == ladder_rules.JOIN_NOT_OPEN
    assert not LadderRung.objects.exists()


def test_a_ladder_is_per_game():
    _ann, bea = _ladder("ann", "bea")
    ladder_join(game="gulliver", user=bea)
    assert _places("gulliver") == ["bea"]
    assert _places("faraway") == ["ann", "bea"]


def test_leaving_closes_up_the_places_below():
    _ann, bea, _cal, _dan = _ladder("ann", "bea", "cal", "dan")
    assert ladder_leave(game="faraway", user=bea) is True
    assert _places() == ["ann", "cal", "dan"]
    assert _positions() == [1, 2, 3]
    assert ladder_leave(game="faraway", user=bea) is False
    ladder_join(game="faraway", user=bea)
    assert _places() == ["ann", "cal", "dan", "bea"]


# --- Challenges -------------------------------------------------------------------------------


def test_a_challenge_makes_a_private_two_seat_match_the_challenged_person_answers_and_opens():
    ann, _bea, cal = _ladder("ann", "bea", "cal")
    challenge = _challenge(cal, ann)
    match = challenge.match
    assert (match.num_players, match.public, match.status, match.deadline_days) == (
        2,
        False,
        Match.Status.WAITING,
        3,
    )
    assert list(match.seats.values_list("index", "user__username")) == [(0, "cal")]
    invitation = Invitation.objects.get(match=match)
    assert (invitation.user, invitation.seat_index, invitation.kind) == (ann, 1, "challenge")
    lapse = invitation.expires_at - timezone.now()
    assert timedelta(days=2, hours=23) < lapse <= timedelta(days=3)
    _accept(challenge, ann)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.awaiting == [1]  # the challenged person moves first (the engine's dealer)
    assert (challenge.challenger_place, challenge.challenged_place) == (3, 1)


def test_the_challenged_person_moves_first_in_both_games():
    ann, bea = _ladder("ann", "bea", game="gulliver")
    for _ in range(3):
        challenge = _challenge(bea, ann, game="gulliver")
        _accept(challenge, ann)
        challenge.match.refresh_from_db()
        assert challenge.match.awaiting == [1]
        match_resign(match_id=challenge.match_id, user=bea)
        LadderChallenge.objects.update(created_at=timezone.now() - timedelta(days=8))


@pytest.mark.parametrize(
    ("challenger", "target", "said"),
    [
        ("eve", "ann", "More than 3 places above you."),
        ("bea", "cal", ladder_rules.NOT_ABOVE),
        ("bea", "bea", ladder_rules.NOT_ABOVE),
        ("out", "ann", ladder_rules.NOT_ON_LADDER),
        ("bea", "out", "out is not on this ladder."),
    ],
)
def test_only_someone_above_within_reach_may_be_challenged(challenger, target, said):
    people = {p.username: p for p in _ladder("ann", "bea", "cal", "dan", "eve")}
    people["out"] = factories.user_make("out")
    with pytest.raises(Rejected) as refused:
        _challenge(people[challenger], people[target])
    assert refused.value.message == said
    assert not Match.objects.exists()


def test_a_block_either_way_stops_a_challenge_with_one_sentence():
    ann, bea = _ladder("ann", "bea")
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    with pytest.raises(Rejected) as refused:
        _challenge(bea, ann)
    assert refused.value.message == "ann does not take challenges from you."


def test_the_open_challenges_limit_counts_made_and_received(settings):
    settings.PARLOUR_LADDER_OPEN = 2
    _ann, bea, cal, dan, eve = _ladder("ann", "bea", "cal", "dan", "eve")
    _challenge(cal, bea)
    _challenge(dan, bea)
    with pytest.raises(Rejected) as refused:
        _challenge(eve, bea)
    assert refused.value.message == "bea has 2 open challenges already, the most at once."
    _challenge(eve, cal)
    _challenge(eve, dan)
    with pytest.raises(Rejected) as refused:
        _challenge(eve, bea)
    assert refused.value.message == "You have 2 open challenges already, the most at once."


def test_one_open_challenge_between_two_and_no_repeat_within_the_cooldown():
    ann, bea = _ladder("ann", "bea")
    first = _challenge(bea, ann)
    with pytest.raises(Rejected) as refused:
        _challenge(bea, ann)
    assert refused.value.message == ladder_rules.ALREADY_OPEN
    invitation_decline(invitation_id=Invitation.objects.get(match_id=first.match_id).pk, user=ann)
    with pytest.raises(Rejected) as refused:
        _challenge(bea, ann)
    assert refused.value.message == "You challenged ann less than 7 days ago."
    LadderChallenge.objects.update(created_at=timezone.now() - timedelta(days=7, minutes=1))
    _challenge(bea, ann)


def test_a_declined_or_lapsed_challenge_moves_no_one_and_frees_its_slot(settings):
    settings.PARLOUR_LADDER_OPEN = 1
    ann, bea, cal = _ladder("ann", "bea", "cal")
    declined = _challenge(bea, ann)
    invitation_decline(
        invitation_id=Invitation.objects.get(match_id=declined.match_id).pk, user=ann
    )
    lapsing = _challenge(cal, ann)  # ann's one slot is free again
    Invitation.objects.filter(match_id=lapsing.match_id).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    _challenge(cal, bea)  # cal's too, once the lapse passed
    assert _places() == ["ann", "bea", "cal"]


def test_withdrawing_cancels_the_match_and_is_the_challengers_alone():
    ann, bea = _ladder("ann", "bea")
    challenge = _challenge(bea, ann)
    with pytest.raises(Rejected) as refused:
        ladder_withdraw(challenge_id=challenge.pk, user=ann)
    assert refused.value.status == 404
    ladder_withdraw(challenge_id=challenge.pk, user=bea)
    challenge.refresh_from_db()
    assert challenge.state == State.WITHDRAWN
    assert challenge.match.status == Match.Status.CANCELLED
    assert Invitation.objects.get(match=challenge.match).status != "pending"
    with pytest.raises(Rejected) as refused:
        ladder_withdraw(challenge_id=challenge.pk, user=bea)
    assert refused.value.status == 409


def test_a_begun_match_cannot_be_withdrawn():
    ann, bea = _ladder("ann", "bea")
    challenge = _challenge(bea, ann)
    _accept(challenge, ann)
    with pytest.raises(Rejected) as refused:
        ladder_withdraw(challenge_id=challenge.pk, user=bea)
    assert "begun" in refused.value.message
    challenge.refresh_from_db()
    assert challenge.state == State.OPEN


# --- Results ----------------------------------------------------------------------------------


def test_a_challenger_who_wins_takes_the_place_and_those_between_move_down_one():
    _ann, bea, _cal, _dan, eve = _ladder("ann", "bea", "cal", "dan", "eve")
    challenge = _played(eve, bea, winner=eve)
    assert challenge.state == State.WON
    assert _places() == ["ann", "eve", "bea", "cal", "dan"]
    assert _positions() == [1, 2, 3, 4, 5]
    event = LadderEvent.objects.get(kind="climbed")
    assert (event.user, event.other, event.from_place, event.to_place) == (eve, bea, 5, 2)


def test_a_loss_moves_no_one():
    ann, _bea, cal = _ladder("ann", "bea", "cal")
    challenge = _played(cal, ann, winner=ann)
    assert challenge.state == State.HELD
    assert _places() == ["ann", "bea", "cal"]
    assert LadderEvent.objects.filter(kind="held").count() == 1


def test_a_result_settles_once():
    ann, bea = _ladder("ann", "bea")
    challenge = _played(bea, ann, winner=bea)
    assert _places() == ["bea", "ann"]
    match = Match.objects.get(pk=challenge.match_id)
    match_finished.send(sender=Match, match=match, seats=list(Seat.objects.filter(match=match)))
    assert _places() == ["bea", "ann"]
    assert LadderEvent.objects.filter(kind="climbed").count() == 1


def test_a_win_against_a_person_who_moved_takes_their_place_now():
    ann, _bea, cal, dan = _ladder("ann", "bea", "cal", "dan")
    late = _challenge(dan, cal)  # dan at 4 challenges cal at 3
    _accept(late, cal)
    _played(cal, ann, winner=cal)  # meanwhile cal climbs to 1
    assert _places() == ["cal", "ann", "bea", "dan"]
    match_resign(match_id=late.match_id, user=cal)
    assert _places() == ["dan", "cal", "ann", "bea"]
    assert _positions() == [1, 2, 3, 4]


def test_a_win_by_someone_already_above_moves_no_one():
    ann, bea, cal = _ladder("ann", "bea", "cal")
    late = _challenge(cal, bea)
    _accept(late, bea)
    _played(cal, ann, winner=cal)  # cal is above bea now
    match_resign(match_id=late.match_id, user=bea)
    late.refresh_from_db()
    assert late.state == State.WON
    assert _places() == ["cal", "ann", "bea"]


def test_a_challenge_whose_person_left_is_void_and_its_waiting_match_cancelled():
    ann, bea, cal = _ladder("ann", "bea", "cal")
    waiting = _challenge(bea, ann)
    playing = _challenge(cal, bea)
    _accept(playing, bea)
    ladder_leave(game="faraway", user=bea)
    waiting.refresh_from_db()
    playing.refresh_from_db()
    assert (waiting.state, waiting.match.status) == (State.VOID, Match.Status.CANCELLED)
    assert (playing.state, playing.match.status) == (State.VOID, Match.Status.ACTIVE)
    match_resign(match_id=playing.match_id, user=bea)
    assert _places() == ["ann", "cal"]


def test_a_climb_tells_everyone_it_moved_on_the_notices_page_and_badge():
    ann, bea, cal, dan, eve = _ladder("ann", "bea", "cal", "dan", "eve")
    _played(eve, bea, winner=eve)
    said = {
        "eve": "You beat bea and climbed to place 2 on the ladder of The Faraway Tree.",
        "bea": "eve beat you and took your place 2 on the ladder of The Faraway Tree",
        "cal": "eve climbed to place 2 on the ladder of The Faraway Tree: you moved down one.",
        "dan": "eve climbed to place 2 on the ladder of The Faraway Tree: you moved down one.",
    }
    for person in (ann, bea, cal, dan, eve):
        page = factories.client_for(person).get("/notices/").content.decode()
        if person.username in said:
            assert said[person.username] in page, person.username
            assert notice_badge_count(person.pk) >= 1
        else:
            assert "Ladder results that moved you" in page
            assert "No ladder result has moved you." in page
    client = factories.client_for(cal)
    before = notice_badge_count(cal.pk)
    client.get("/ladder/faraway/")  # seen
    assert notice_badge_count(cal.pk) == before - 1
    assert "No ladder result has moved you." in client.get("/notices/").content.decode()


def test_the_ladder_notices_follow_their_box():
    ann, bea = _ladder("ann", "bea")
    _played(bea, ann, winner=bea)
    NotificationSettings.objects.update_or_create(user=ann, defaults={"notice_ladder": False})
    page = factories.client_for(ann).get("/notices/").content.decode()
    assert "bea beat you" not in page
    assert "Turned off: ladder results that moved you." in page


# --- Accounts ---------------------------------------------------------------------------------


def test_closing_an_account_takes_the_person_off_every_ladder(
    django_capture_on_commit_callbacks,
):
    ann, _bea, cal = _ladder("ann", "bea", "cal")
    ladder_join(game="gulliver", user=ann)
    waiting = _challenge(cal, ann)
    with django_capture_on_commit_callbacks(execute=True):
        account_close(user=ann)
    assert _places() == ["bea", "cal"]
    assert _places("gulliver") == []
    waiting.refresh_from_db()
    assert waiting.match.status == Match.Status.CANCELLED


def test_the_persons_ladders_are_in_their_data_file():
    from competitions.services.ladder import export_sections_receiver

    ann, bea, _cal = _ladder("ann", "bea", "cal")
    _played(bea, ann, winner=bea)
    ladders = export_sections_receiver(None, user_id=bea.pk)["ladders"]
    assert ladders["places"][0] | {"joined_at": None} == {
        "game": "faraway",
        "place": 1,
        "joined_at": None,
    }
    assert [(c["challenger"], c["challenged"], c["state"]) for c in ladders["challenges"]] == [
        ("bea", "ann", "won")
    ]
    assert [(e["kind"], e["from_place"], e["to_place"]) for e in ladders["changes"]] == [
        ("joined", None, 2),
        ("climbed", 2, 1),
    ]


def test_deleting_an_account_takes_the_person_off_and_ends_their_challenges():
    ann, _bea, cal = _ladder("ann", "bea", "cal")
    playing = _challenge(cal, ann)
    _accept(playing, ann)
    account_delete(user=ann)
    # Leaving her matches first, ann resigned the one in play: cal won it and took place 1.
    assert _places() == ["cal", "bea"]
    assert _positions() == [1, 2]
    playing.refresh_from_db()
    assert playing.state == State.WON


# --- The page ---------------------------------------------------------------------------------


def test_the_page_shows_places_the_readers_row_buttons_in_reach_and_reasons():
    people = _ladder("ann", "bea", "cal", "dan", "eve", "fay")
    _ann, _bea, cal, _dan, _eve, fay = people
    block_add(blocker_id=cal.pk, blocked_id=fay.pk)
    page = factories.client_for(fay).get("/ladder/faraway/").content.decode()
    assert "You are at place 6 of 6." in page
    assert '<tr class="lb-row me" data-name="fay"' in page
    assert 'href="/players/ann/"' in page
    assert 'aria-label="Challenge eve for place 5"' in page
    assert 'aria-label="Challenge dan for place 4"' in page
    assert "cal does not take challenges from you." in page
    assert 'aria-label="Challenge bea' not in page
    assert page.count("Challenge</button>") == 2


def test_posting_a_challenge_from_the_page_and_by_htmx(settings):
    _ann, bea, cal = _ladder("ann", "bea", "cal")
    client = factories.client_for(cal)
    response = client.post("/ladder/faraway/challenge/", {"username": "bea"})
    assert response.status_code == 302
    assert response["Location"] == "/ladder/faraway/"
    response = client.post(
        "/ladder/faraway/challenge/", {"username": "bea"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="ladder-body">')
    assert ladder_rules.ALREADY_OPEN in body
    page = factories.client_for(bea).get("/ladder/faraway/").content.decode()
    invitation = Invitation.objects.get(user=bea)
    assert f"/invitations/{invitation.pk}/accept/" in page
    assert "cal (place 3 then) challenged bea (place 2 then): waiting for an answer." in page


def test_a_settled_matchs_link_is_shown_to_its_two_people_only():
    ann, bea, cal = _ladder("ann", "bea", "cal")
    challenge = _played(bea, ann, winner=bea)
    link = f'href="/matches/{challenge.match_id}/"'
    for person, shown in ((ann, True), (bea, True), (cal, False)):
        for url in ("/ladder/faraway/", "/ladder/faraway/history/"):
            page = factories.client_for(person).get(url).content.decode()
            assert "bea beat ann and climbed from place 2 to 1" in page
            assert (link in page) is shown, (person.username, url)


@pytest.mark.parametrize(
    ("url", "data", "status"),
    [
        ("/ladder/faraway/challenge/", {}, 400),
        ("/ladder/faraway/challenge/", {"username": "x" * 151}, 400),
        ("/ladder/faraway/challenge/", {"username": "nobody-such"}, 404),
        ("/ladder/faraway/challenge/", {"username": "ann\x00"}, 400),
        ("/ladder/chess/challenge/", {"username": "ann"}, 404),
        ("/ladder/chess/join/", {}, 404),
        ("/ladder/faraway/challenges/99999/withdraw/", {}, 404),
        ("/ladder/faraway/challenges/99999999999999999999/withdraw/", {}, 404),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(url, data, status):
    _ann, bea = _ladder("ann", "bea")
    response = factories.client_for(bea).post(url, data)
    assert response.status_code == status
    assert not LadderChallenge.objects.exists()
    assert _places() == ["ann", "bea"]


def _page_statements(reader) -> int:
    client = factories.client_for(reader)
    client.get("/ladder/faraway/")  # the session's own first reads
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/ladder/faraway/").status_code == 200
    return len(queries)


def _bulk_ladder(size: int):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    people = User.objects.bulk_create(
        User(username=f"p{size}x{i}", email=f"p{size}x{i}@example.com") for i in range(size)
    )
    ladder, _ = Ladder.objects.get_or_create(game="faraway")
    LadderRung.objects.bulk_create(
        LadderRung(ladder=ladder, user=p, position=i + 1) for i, p in enumerate(people)
    )
    return people


def test_the_page_of_a_thousand_people_costs_the_statements_of_ten():
    small = _bulk_ladder(10)
    for challenger, target in ((small[9], small[7]), (small[5], small[3])):
        _challenge(challenger, target)
    at_ten = _page_statements(small[9])
    LadderRung.objects.all().delete()
    LadderChallenge.objects.all().delete()
    big = _bulk_ladder(1000)
    for i in range(999, 900, -5):
        _challenge(big[i], big[i - 2])
    at_thousand = _page_statements(big[999])
    assert at_ten == at_thousand
    # the session, the user, the badge (a count a kind), the notices seen, the ladder's seven
    # (one more count with the leagues' kind of notice, competitions' "Told")
    assert at_thousand <= 17


# --- Races ------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_results_landing_at_once_both_count_and_keep_the_places_whole():
    ann, bea, cal, dan = _ladder("ann", "bea", "cal", "dan")
    high = _challenge(bea, ann)
    low = _challenge(dan, cal)
    _accept(high, ann)
    _accept(low, cal)
    factories.at_once(
        [
            lambda: match_resign(match_id=high.match_id, user=ann),
            lambda: match_resign(match_id=low.match_id, user=cal),
        ]
    )
    assert _places() == ["bea", "ann", "dan", "cal"]
    assert LadderEvent.objects.filter(kind="climbed").count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_results_that_overlap_at_once_leave_no_gap(settings):
    ann, bea, cal, dan = _ladder("ann", "bea", "cal", "dan")
    first = _challenge(cal, ann)
    second = _challenge(dan, bea)
    _accept(first, ann)
    _accept(second, bea)
    factories.at_once(
        [
            lambda: match_resign(match_id=first.match_id, user=ann),
            lambda: match_resign(match_id=second.match_id, user=bea),
        ]
    )
    assert _positions() == [1, 2, 3, 4]
    assert _places() == ["cal", "ann", "dan", "bea"]  # the same in either order


@pytest.mark.django_db(transaction=True)
def test_two_challengers_for_one_last_slot_one_wins(settings):
    settings.PARLOUR_LADDER_OPEN = 1
    ann, bea, cal = _ladder("ann", "bea", "cal")

    def attempt(person):
        def run():
            try:
                return _challenge(person, ann).pk
            except Rejected as exc:
                return exc.message

        return run

    results = factories.at_once([attempt(bea), attempt(cal)])
    made = [r for r in results if isinstance(r, int)]
    assert len(made) == 1
    assert LadderChallenge.objects.count() == 1
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_accept_against_withdraw_comes_out_one_way():
    ann, bea = _ladder("ann", "bea")
    challenge = _challenge(bea, ann)
    invitation = Invitation.objects.get(match_id=challenge.match_id)

    def accept():
        try:
            return invitation_accept(invitation_id=invitation.pk, user=ann)
        except Rejected as exc:
            return exc

    def withdraw():
        try:
            return ladder_withdraw(challenge_id=challenge.pk, user=bea)
        except Rejected as exc:
            return exc

    accepted, withdrawn = factories.at_once([accept, withdraw])
    challenge.refresh_from_db()
    assert isinstance(accepted, Rejected) != isinstance(withdrawn, Rejected)
    if isinstance(withdrawn, Rejected):
        assert (challenge.state, challenge.match.status) == (State.OPEN, Match.Status.ACTIVE)
    else:
        assert (challenge.state, challenge.match.status) == (State.WITHDRAWN, "cancelled")


@pytest.mark.django_db(transaction=True)
def test_a_double_join_at_once_makes_one_place():
    ann = factories.user_make("ann")
    factories.at_once([lambda: ladder_join(game="faraway", user=ann)] * 2)
    assert _positions() == [1]

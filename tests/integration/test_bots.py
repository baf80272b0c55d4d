"""Bot seats, turn deadlines and vote closing, with tasks run in process (no worker, no Redis).

Tasks enqueued on commit run only inside ``django_capture_on_commit_callbacks(execute=True)``
here, which plays them one after another as a worker would, in the order they were enqueued.
"""

from __future__ import annotations

import logging
import re
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import tasks
from games.engines import get_engine
from games.models import Match, Move, Seat
from games.services import Rejected, StaleVersion, match_create, match_join, move_submit
from tests import factories

# On this seed, greedy, greedy and random bots reach 60 in five rounds (four deals).
SEED_FOR_ROUNDS = 1

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _create(client, **fields) -> Match:
    response = client.post("/matches/new/", fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    pk = int(re.fullmatch(r"/matches/(\d+)/", response["Location"]).group(1))
    return Match.objects.get(pk=pk)


def test_the_lobby_form_puts_bots_in_seats_and_people_fill_the_rest(
    ann_client, bea, bea_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as queued:
        match = _create(
            ann_client,
            game="faraway",
            num_players=3,
            seat_0="me",
            seat_1="person",
            seat_2="greedy",
            seat_3="strong",  # beyond the table's three seats: ignored
            deadline_days=3,
        )
    assert queued == []  # nothing to do while a seat is empty
    assert match.deadline_days == 3
    seats = {s.index: s for s in match.seats.select_related("user")}
    assert (seats[0].user.username, seats[0].bot_level) == ("ann", None)
    assert (seats[2].user, seats[2].bot_level) == (None, "greedy")
    assert 1 not in seats
    assert match.status == Match.Status.WAITING
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert "Greedy bot 3" in page

    with django_capture_on_commit_callbacks(execute=True):
        assert bea_client.post(f"/matches/{match.pk}/join/").status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.seats.get(index=1).user == bea
    # If the greedy bot was first to move, it has already played; people are awaited now.
    assert set(match.awaiting) <= {0, 1}
    assert all(m.seat == 2 for m in Move.objects.filter(match=match))


def test_a_player_who_leaves_no_seat_for_themselves_is_told_so(ann_client):
    response = ann_client.post(
        "/matches/new/",
        {"game": "faraway", "num_players": 2, "seat_0": "me", "seat_1": "greedy"},
    )
    assert response.status_code == 302  # ann and a bot: it starts at once
    match = Match.objects.get()
    assert match.status == Match.Status.ACTIVE
    with pytest.raises(Rejected, match="Leave a seat for yourself"):
        match_create(
            game="faraway",
            num_players=2,
            created_by=match.created_by,
            bots={0: "greedy", 1: "random"},
        )
    response = ann_client.post(
        "/matches/new/",
        {"game": "faraway", "num_players": 2, "seat_0": "me", "seat_1": "genius"},
    )
    assert response.status_code == 400
    assert Match.objects.count() == 1


def test_a_seat_is_a_user_or_a_bot_never_both_nor_neither(ann):
    match = factories.match_make(players=[ann], seats=3)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(
            match=match, index=1, user=factories.user_make("zed"), bot_level="greedy"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(match=match, index=2)


def test_a_creator_who_only_watches_sees_a_bot_only_match_play_itself_out(
    ann_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = _create(ann_client, game="faraway", num_players=2, seat_0="random", seat_1="greedy")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert not match.seats.filter(user__isnull=False).exists()
    seats_moved = set(Move.objects.filter(match=match).values_list("seat", flat=True))
    assert seats_moved == {0, 1}
    factories.assert_replays(match)
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="spectator-note"' in page
    assert "Random bot 1" in page and "Greedy bot 2" in page
    assert 'id="outcome"' in page
    # The creator finds the match they watch among their own.
    lobby = ann_client.get("/matches/").content.decode()
    assert f'data-match-id="{match.pk}"' in lobby


def test_bots_answer_a_person_at_once_when_tasks_run_after_commit(
    ann, ann_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            game="faraway",
            num_players=4,
            created_by=ann,
            bots={1: "greedy", 2: "random", 3: "greedy"},
        )
    for _ in range(4):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        assert match.awaiting == [0], "the bots should have played up to ann's turn"
        before = Move.objects.filter(match=match).count()
        move = factories.legal_moves(match, 0)[0]
        with django_capture_on_commit_callbacks(execute=True):
            response = factories.post_move(ann_client, match, move)
        assert response.status_code == 200
        later = Move.objects.filter(match=match, ply__gt=before).order_by("ply")
        assert later[0].seat == 0
        assert {m.seat for m in later[1:]} <= {1, 2, 3}
    assert Move.objects.filter(match=match, seat__in=[1, 2, 3]).exists()


def test_a_late_or_repeated_bot_task_plays_nothing(ann, django_capture_on_commit_callbacks):
    match = factories.match_make(game="faraway", players=[ann, factories.user_make("bea")])
    bot = match.awaiting[0]
    Seat.objects.filter(match=match, index=bot).update(user=None, bot_level="greedy")
    version = match.version
    tasks.bot_turn.apply((match.pk, version), throw=True)
    match.refresh_from_db()
    assert match.version == version + 1
    tasks.bot_turn.apply((match.pk, version), throw=True)  # delivered again: refused, logged
    match.refresh_from_db()
    assert match.version == version + 1
    assert list(Move.objects.filter(match=match).values_list("seat", flat=True)) == [bot]


def test_the_sweeper_replays_a_bot_turn_whose_message_was_lost(ann, settings):
    match = factories.match_make(game="faraway", players=[ann, factories.user_make("bea")])
    bot = match.awaiting[0]
    # The seat turns into a bot after the start, so no task was ever sent: a lost message.
    Seat.objects.filter(match=match, index=bot).update(user=None, bot_level="greedy")
    settings.PARLOUR_SWEEP_AFTER = 3600
    assert tasks.sweep_stalled.apply(throw=True).get() == 0  # not stalled for long enough yet
    settings.PARLOUR_SWEEP_AFTER = 0
    assert tasks.sweep_stalled.apply(throw=True).get() == 1
    assert Move.objects.filter(match=match, seat=bot).count() == 1
    # Once the bot's turn is over, the person is awaited: nothing there for the sweeper.
    for _ in range(10):
        match.refresh_from_db()
        if match.awaiting != [bot]:
            break
        tasks.bot_turn.apply((match.pk, match.version), throw=True)
    assert match.awaiting == [1 - bot]
    assert tasks.sweep_stalled.apply(throw=True).get() == 0


def _expire_deadline(match: Match, by: timedelta = timedelta(seconds=1)) -> None:
    match.refresh_from_db()
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - by)


def test_when_a_turn_deadline_passes_the_greedy_bot_plays_for_the_person(ann, bea, ann_client):
    match = match_create(game="faraway", num_players=2, created_by=ann, deadline_days=3)
    before = timezone.now()
    match_join(match=match, user=bea)
    match.refresh_from_db()
    assert before + timedelta(days=3) <= match.deadline_at <= timezone.now() + timedelta(days=3)
    seat = match.awaiting[0]
    name = ["ann", "bea"][seat]
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="deadline"' in page and f"the greedy bot plays for {name}" in page

    assert tasks.enforce_deadlines.apply(throw=True).get() == 0  # not yet due
    _expire_deadline(match)
    # The greedy bot plays the whole turn: a Faraway turn is a draw, then cards.
    played = tasks.enforce_deadlines.apply(throw=True).get()
    assert played >= 2
    match.refresh_from_db()
    autos = list(Move.objects.filter(match=match).order_by("ply"))
    assert [(m.seat, m.auto) for m in autos] == [(seat, "deadline")] * played
    assert autos[0].payload["type"] == "draw"
    factories.assert_replays(match)
    # The other person's turn has a fresh deadline.
    assert match.awaiting == [1 - seat]
    assert match.deadline_at > timezone.now() + timedelta(days=2)
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    log = page[page.index('id="event-log"') :]
    line = f"The greedy bot played for {name} (turn deadline passed)."
    assert log.count(line) == played
    # The log is newest first: each note stands right above the line of the move it explains.
    items = [item.text for item in factories.log_items(log)]
    below = [items[i + 1] for i, item in enumerate(items) if item == line]
    assert below[-1].startswith(f"{name} drew")
    assert all(item.startswith(name) for item in below)


def test_a_turn_of_several_moves_keeps_the_clock_it_started_with(ann, bea):
    match = match_create(game="faraway", num_players=2, created_by=ann, deadline_days=1)
    match_join(match=match, user=bea)
    match.refresh_from_db()
    started = match.deadline_at
    seat = match.seats.get(index=match.awaiting[0])
    move_submit(
        match=match,
        seat=seat,
        move={"type": "draw", "source": "pack"},
        expected_version=match.version,
    )
    match.refresh_from_db()
    assert match.awaiting == [seat.index] and match.deadline_at == started


def test_a_person_who_moves_first_wins_the_race_against_the_deadline_task(ann, bea):
    match = match_create(game="faraway", num_players=2, created_by=ann, deadline_days=1)
    match_join(match=match, user=bea)
    match.refresh_from_db()
    seat = match.seats.get(index=match.awaiting[0])
    _expire_deadline(match)
    # The task read the row before the person's move landed: its move is refused.
    stale = Match.objects.get(pk=match.pk)
    move_submit(
        match=match,
        seat=seat,
        move=factories.legal_moves(match, seat.index)[0],
        expected_version=stale.version,
    )
    with pytest.raises(StaleVersion):
        move_submit(
            match=stale,
            seat=seat,
            move={"type": "draw", "source": "pack"},
            expected_version=stale.version,
            auto=Move.Auto.DEADLINE,
        )
    # The person's own move stands; the rest of the overdue turn is then played for them.
    tasks.enforce_deadlines.apply(throw=True)
    moves = list(Move.objects.filter(match=match).order_by("ply").values_list("seat", "auto"))
    assert moves[0] == (seat.index, "")
    assert set(moves[1:]) <= {(seat.index, "deadline")}


def _gulliver_challenge(ann, bea, cal) -> tuple[Match, int, int]:
    """A 3-person Gulliver match with challenges, its first card just challenged.

    Returns the match, the seat that played the card and the challenger.
    """
    match = factories.match_make(
        game="gulliver", players=[ann, bea, cal], seed=5, options={"challenges": True}
    )
    seats = {s.index: s for s in match.seats.all()}
    player = match.awaiting[0]
    card = next(m for m in factories.legal_moves(match, player) if m["type"] == "play")
    move_submit(match=match, seat=seats[player], move=card, expected_version=match.version)
    match.refresh_from_db()
    challenger = next(
        i
        for i in range(3)
        if {"type": "challenge"} in factories.legal_moves(match, i) and i != player
    )
    move_submit(
        match=match,
        seat=seats[challenger],
        move={"type": "challenge"},
        expected_version=match.version,
    )
    match.refresh_from_db()
    return match, player, challenger


def test_a_vote_open_past_24_hours_closes_with_missing_votes_accepting(ann, bea, cal, ann_client):
    before = timezone.now()
    match, _player, challenger = _gulliver_challenge(ann, bea, cal)
    assert sorted(match.awaiting) == [0, 1, 2]
    # No turn deadline: the vote still closes a day after the challenge.
    assert before + timedelta(hours=24) <= match.deadline_at
    assert match.deadline_at <= timezone.now() + timedelta(hours=24)
    seats = {s.index: s for s in match.seats.all()}
    opened = match.deadline_at
    move_submit(
        match=match,
        seat=seats[challenger],
        move={"type": "vote", "accept": False},
        expected_version=match.version,
    )
    match.refresh_from_db()
    assert match.deadline_at == opened, "a ballot does not restart the vote's clock"
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert "The vote closes" in page

    _expire_deadline(match)
    assert tasks.enforce_deadlines.apply(throw=True).get() == 2
    match.refresh_from_db()
    closed = Move.objects.filter(match=match, auto="vote_closed").order_by("ply")
    assert [m.payload for m in closed] == [{"type": "vote", "accept": True}] * 2
    assert {m.seat for m in closed} == {0, 1, 2} - {challenger}
    state = get_engine("gulliver").load(match.state)
    view = get_engine("gulliver").view(state, None)
    assert view["challenge"] is None
    last_ballot = closed.last()
    assert last_ballot.ply == match.ply  # the events of that entry live on its row
    result = [e for e in last_ballot.events if e["type"] == "challenge_result"][-1]
    assert (result["for"], result["against"], result["stands"]) == (2, 1, True)
    names = ["ann", "bea", "cal"]
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    for seat in {0, 1, 2} - {challenger}:
        assert f"{names[seat]}\u2019s missing vote was counted as accepting" in page


def test_a_vote_with_a_turn_deadline_closes_at_that_deadline(ann, bea, cal):
    match = match_create(
        game="gulliver",
        num_players=2,
        created_by=ann,
        options={"challenges": True},
        deadline_days=7,
        seed=5,
    )
    match_join(match=match, user=bea)
    challenger = _play_until_a_card_may_be_challenged(match)
    seat = match.seats.get(index=challenger)
    move_submit(match=match, seat=seat, move={"type": "challenge"}, expected_version=match.version)
    match.refresh_from_db()
    assert match.deadline_at > timezone.now() + timedelta(days=6)


def _play_until_a_card_may_be_challenged(match: Match) -> int:
    """Play cards (else draw or pass) for the awaited seats until someone may challenge;
    returns that seat."""
    seats = {s.index: s for s in match.seats.all()}
    for _ in range(100):
        match.refresh_from_db()
        for index in seats:
            if {"type": "challenge"} in factories.legal_moves(match, index):
                return index
        player = match.awaiting[0]
        legal = factories.legal_moves(match, player)
        move = next((m for m in legal if m["type"] == "play"), legal[0])
        move_submit(match=match, seat=seats[player], move=move, expected_version=match.version)
    raise AssertionError("no card could be challenged")


def test_bots_vote_by_the_grammar_when_a_person_challenges(
    ann, ann_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            game="gulliver",
            num_players=3,
            created_by=ann,
            bots={1: "greedy", 2: "greedy"},
            options={"challenges": True, "target": 40},
        )
    for _ in range(200):
        match.refresh_from_db()
        assert match.awaiting == [0]
        legal = factories.legal_moves(match, 0)
        if {"type": "challenge"} in legal:
            break
        with django_capture_on_commit_callbacks(execute=True):
            factories.post_move(ann_client, match, legal[0])
    else:
        pytest.fail("ann never had a card to challenge")
    challenged = Move.objects.filter(match=match).order_by("-ply").first()
    assert challenged.seat in {1, 2}
    with django_capture_on_commit_callbacks(execute=True):
        factories.post_move(ann_client, match, {"type": "challenge"})
    match.refresh_from_db()
    assert match.awaiting == [0], "both bots voted, and only ann's vote is awaited"
    votes = Move.objects.filter(match=match, payload__type="vote")
    assert sorted(v.seat for v in votes) == [1, 2]
    assert all(v.payload["accept"] is True for v in votes)


def test_a_bots_only_gulliver_match_plays_to_its_target_and_ranks_the_players(
    ann, ann_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            game="gulliver",
            num_players=3,
            created_by=ann,
            bots={0: "greedy", 1: "greedy", 2: "random"},
            creator_plays=False,
            options={"target": 60},
            seed=SEED_FOR_ROUNDS,
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Move.objects.filter(match=match, seat=None).count() == 4, "60 takes five rounds here"
    factories.assert_replays(match)
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert "The match is over:" in page
    ranking = re.findall(r"<li>([^<:]+): (-?\d+)</li>", page[page.index('id="ranking"') :])
    standings = [int(score) for _, score in ranking[:3]]
    assert standings == sorted(standings, reverse=True) and max(standings) >= 60


def test_a_round_result_stays_on_the_table_until_the_deal_task_runs(ann, ann_client):
    # No on-commit capture: each task below runs only when the test says so.
    match = match_create(
        game="gulliver",
        num_players=3,
        created_by=ann,
        bots={1: "greedy", 2: "greedy", 0: "greedy"},
        creator_plays=False,
    )
    for _ in range(500):
        match.refresh_from_db()
        if not match.awaiting:
            break
        tasks.bot_turn.apply((match.pk, match.version), throw=True)
    assert match.status == Match.Status.ACTIVE and match.awaiting == []
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="round-over"' in page
    assert 'id="round-result"' in page and "Round 1 is over" in page
    # The sweeper finds a round left undealt and sends the deal again.
    version = match.version
    tasks.round_next.apply((match.pk, version - 1), throw=True)  # stale: refused
    match.refresh_from_db()
    assert match.version == version
    tasks.round_next.apply((match.pk, version), throw=True)
    match.refresh_from_db()
    assert match.version == version + 1 and match.awaiting
    last = Move.objects.filter(match=match).order_by("-ply").first()
    assert (last.seat, last.payload) == (None, {"type": "next_round"})
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="round-over"' not in page and "Round 2" in page


@pytest.mark.celery(
    broker_url="redis://127.0.0.1:1/0",  # nothing listens there: the broker is down
    broker_transport_options={"max_retries": 0},  # give up at once, not after ~6 s of retries
    task_publish_retry=False,
)
def test_a_move_still_lands_when_the_broker_is_down(ann, depends_on_current_app):
    match = factories.match_make(game="faraway", players=[ann, factories.user_make("bea")])
    bot = match.awaiting[0]
    Seat.objects.filter(match=match, index=bot).update(user=None, bot_level="greedy")
    # What the on-commit callback does after a move: the send fails, is logged, and the
    # request that made the move is not failed by it; the sweeper retries later.
    version = match.version
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    logging.getLogger("parlour.broker").addHandler(handler)  # core/publish.py
    try:
        tasks.enqueue(tasks.bot_turn, match.pk, version)
    finally:
        logging.getLogger("parlour.broker").removeHandler(handler)
    assert any("could not send games.bot_turn" in r.getMessage() for r in records)
    match.refresh_from_db()
    assert match.version == version  # nothing ran in process instead

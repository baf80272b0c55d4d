"""Storage that costs the same at every ply: a bounded snapshot, a fixed number of queries per
move, results and "whose turn" as columns written with the move that changes them."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.engines import get_engine
from games.models import Match, MatchNotice, Move, Seat
from games.selectors import user_matches
from games.services import match_next_round, move_submit
from tests import factories

pytestmark = pytest.mark.django_db

# Every statement counts, BEGIN and COMMIT included (each is a round trip to the database).
MAX_QUERIES_PER_MOVE = 8
# A seat's re-rendered poll: session, user, the marks (and the seen mark's time), the match with its
# seats, the seen mark (one upsert, written only when it changes something), the log.
MAX_QUERIES_PER_RENDERED_POLL = 6


def _play(match: Match, plies: int, *, rng: random.Random) -> None:
    """Random legal moves through the service until the log holds ``plies`` entries."""
    engine = get_engine(match.game)
    seats = {s.index: s for s in match.seats.all()}
    while match.ply < plies:
        match.refresh_from_db()  # a Gulliver deal may have run on the last move's commit
        assert match.status == Match.Status.ACTIVE, "the match ended before the wanted ply"
        seat = match.awaiting[0]
        move = rng.choice(engine.legal_moves(engine.load(match.state), seat))
        move_submit(match=match, seat=seats[seat], move=move, expected_version=match.version)


def _post_counted(client, match: Match, move: dict) -> int:
    """The statements of one move POST as a person's browser sends it: session, user, BEGIN and
    COMMIT included."""
    with CaptureQueriesContext(connection) as queries:
        response = factories.post_move(client, match, move)
    assert response.status_code == 200, response.content.decode()[:500]
    return len(queries)


def _next_of_type(match: Match, kind: str, rng: random.Random) -> dict:
    """Play on until the awaited seat may make a move of ``kind``; return that move."""
    engine = get_engine(match.game)
    seats = {s.index: s for s in match.seats.all()}
    for _ in range(400):
        match.refresh_from_db()
        seat = match.awaiting[0]
        legal = engine.legal_moves(engine.load(match.state), seat)
        wanted = [m for m in legal if m["type"] == kind]
        if wanted:
            return wanted[0]
        move_submit(
            match=match, seat=seats[seat], move=rng.choice(legal), expected_version=match.version
        )
    raise AssertionError(f"no {kind} move came up")


# Outside a test transaction, as a real request runs: no savepoints in the count.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("game", "players", "options", "late_ply", "kinds"),
    [
        ("faraway", 2, {}, 300, ("draw", "discard")),
        ("gulliver", 4, {"target": 1000}, 700, ("play", "draw")),
    ],
)
def test_a_move_costs_the_same_queries_and_snapshot_at_every_ply(
    game, players, options, late_ply, kinds
):
    users = [factories.user_make(f"u{i}") for i in range(players)]
    seed = {"faraway": 46, "gulliver": 7}[game]  # both still running past late_ply
    clients = {}
    for user in users:
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
    counts: dict[tuple[str, str], int] = {}
    sizes = {}
    for when, plies in (("early", 4), ("late", late_ply)):
        match = factories.match_make(game=game, players=users, seed=seed, options=options)
        rng = random.Random(seed)
        _play(match, plies, rng=rng)
        for kind in kinds:
            move = _next_of_type(match, kind, rng)
            seat = match.seats.get(index=match.awaiting[0])
            count = _post_counted(clients[seat.user_id], match, move)
            match.refresh_from_db()
            counts[(when, kind)] = count
        sizes[when] = len(json.dumps(match.state))
        assert match.ply >= plies
    for kind in kinds:
        assert counts[("early", kind)] == counts[("late", kind)] <= MAX_QUERIES_PER_MOVE, counts
    # The snapshot holds the current state only: no log that grows with the match.
    assert sizes["late"] < 1.5 * sizes["early"], sizes


@pytest.mark.django_db(transaction=True)
def test_a_seats_re_rendered_poll_costs_six_statements_and_marks_it_seen_once_a_turn():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=4)
    match.refresh_from_db()
    awaited = match.seats.get(index=match.awaiting[0]).user
    client = factories.client_for(awaited)
    client.get("/")  # the session's first use is not counted
    stale = f"/matches/{match.pk}/table/?version={match.version - 1}"
    counts, marks = [], []
    for _ in range(2):  # the seen row made; then nothing to change, nothing written
        with CaptureQueriesContext(connection) as queries:
            response = client.get(stale, headers={"HX-Request": "true"})
        assert response.status_code == 200
        counts.append(len(queries))
        marks.append(MatchNotice.objects.get(user=awaited, match=match).seen_at)
    assert counts[0] <= MAX_QUERIES_PER_RENDERED_POLL and counts[1] == counts[0] - 1, counts
    assert marks[0] is not None and marks[0] == marks[1]


def test_each_move_row_holds_its_own_events_and_the_table_reads_them(ann, bea, ann_client):
    match = factories.match_make(players=[ann, bea], seed=3)
    rng = random.Random(3)
    _play(match, 30, rng=rng)
    engine = get_engine("faraway")
    rows = list(Move.objects.filter(match=match).order_by("ply"))
    assert all(row.events for row in rows)  # every entry tells the log something
    assert match.start_events[0]["type"] == "deal"
    assert "events" not in match.state
    state = factories.assert_replays(match)
    assert engine.events(state) == rows[-1].events
    # The server's rows keep the hidden cards; redacted for a seat, only its own remain.
    hidden = [e for row in rows for e in row.events if e.get("private")]
    assert hidden and all(e["cards"] is not None for e in hidden)
    for event in hidden:
        own, other = event["seat"], 1 - event["seat"]
        assert engine.redact([event], own)[0]["cards"] == event["cards"]
        assert engine.redact([event], other)[0]["cards"] is None
        assert engine.redact([event], None)[0]["cards"] is None
    assert ann_client.get(f"/matches/{match.pk}/").status_code == 200


def test_whose_turn_is_a_column_kept_in_step_with_every_move(ann, bea):
    match = factories.match_make(players=[ann, bea], seed=12)
    awaited = list(Seat.objects.filter(match=match, awaited_since__isnull=False))
    assert [s.index for s in awaited] == match.awaiting
    mine = {m.match.pk: m.your_turn for m in user_matches(user=awaited[0].user)}
    assert mine[match.pk] is True
    _play(match, 12, rng=random.Random(12))
    for seat in Seat.objects.filter(match=match):
        assert (seat.awaited_since is not None) == (seat.index in match.awaiting)
    other = Seat.objects.get(match=match, awaited_since__isnull=True).user
    assert {m.match.pk: m.your_turn for m in user_matches(user=other)}[match.pk] is False


def test_the_move_that_ends_a_match_writes_every_seats_result(ann, bea, cal):
    match = factories.match_make(game="gulliver", players=[ann, bea, cal], options={"target": 20})
    engine = get_engine("gulliver")
    seats = {s.index: s for s in match.seats.all()}
    rng = random.Random(5)
    while match.status == Match.Status.ACTIVE:
        state = engine.load(match.state)
        if engine.round_over(state):
            match_next_round(match=match, expected_version=match.version)
            continue
        seat = match.awaiting[0]
        move = rng.choice(engine.legal_moves(state, seat))
        move_submit(match=match, seat=seats[seat], move=move, expected_version=match.version)
    state = factories.assert_replays(match)  # result, score, rank checked against the outcome
    outcome = engine.outcome(state)
    rows = {s.index: s for s in match.seats.all()}
    for winner in outcome["winners"]:
        assert rows[winner].rank == 1
        assert rows[winner].result == ("drawn" if outcome["draw"] else "won")
    assert all(s.score == outcome["scores"][i] for i, s in rows.items())
    assert not Seat.objects.filter(match=match, awaited_since__isnull=False).exists()

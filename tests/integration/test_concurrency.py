"""Requests racing each other: the same move twice, the last seat twice, moves and joins at once.

These run on whichever database the suite runs on: PostgreSQL (row locks) in CI, and the SQLite
file of the embedded default (IMMEDIATE transactions, WAL, a busy timeout) in ``make test`` and
in CI's SQLite pass. A race may refuse a request (409) but never fails one (500).
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Block, Holiday
from games import tasks
from games.engines.records import record_verify
from games.models import Match, Move, Seat
from games.services import match_create, match_join
from tests import factories


@pytest.mark.django_db(transaction=True)
def test_the_same_move_posted_twice_at_once_is_played_once():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=99)
    seat = match.awaiting[0]
    user = [ann, bea][seat]
    move = {"type": "draw", "source": "pack"}
    clients = [factories.client_for(user) for _ in range(2)]

    def post(client: Client):
        return lambda: client.post(
            f"/matches/{match.pk}/move/",
            {"move": json.dumps(move), "version": match.version},
            headers={"HX-Request": "true"},
        ).status_code

    statuses = factories.at_once([post(client) for client in clients], timeout=30)
    assert sorted(statuses) == [200, 409]
    assert Move.objects.filter(match=match).count() == 1
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.version == match.version + 1
    assert fresh.state["hands"][seat] != match.state["hands"][seat]


@pytest.mark.django_db(transaction=True)
def test_two_people_taking_the_last_seat_at_once_get_one_seat_each_at_most():
    ann = factories.user_make("ann")
    others = [factories.user_make(name) for name in ("bea", "cal")]
    match = factories.match_make(game="faraway", players=[ann], seats=2)
    clients = [factories.client_for(user) for user in others]
    statuses = factories.at_once(
        [lambda c=c: c.post(f"/matches/{match.pk}/join/").status_code for c in clients],
        timeout=30,
    )
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.seats.count() == 2
    assert fresh.status == Match.Status.ACTIVE
    assert fresh.version == match.version + 2  # one seat taken, one start
    assert statuses == [302, 302]  # both land on the table; one with "every seat is taken"


@pytest.mark.django_db(transaction=True)
def test_moves_and_joins_racing_on_many_tables_get_only_200_302_or_409():
    """Six people on three tables post the same move twice each while two others race for the
    last seat of a fourth: every answer is a success or a readable refusal, never a 500."""
    people = [factories.user_make(f"p{i}") for i in range(6)]
    matches = [
        factories.match_make(game="faraway", players=people[i : i + 2], seed=10 + i)
        for i in (0, 2, 4)
    ]
    waiting = factories.match_make(game="gulliver", players=[people[0]], seats=2)
    joiners = [factories.user_make("jo"), factories.user_make("kit")]
    jobs: list[tuple] = []
    for match in matches:
        seat = match.awaiting[0]
        user = people[matches.index(match) * 2 + seat]
        jobs += [("move", user, match)] * 2
    jobs += [("join", user, waiting) for user in joiners]

    def run(kind: str, client: Client, match: Match):
        if kind == "join":
            return lambda: client.post(f"/matches/{match.pk}/join/").status_code
        move = {"move": json.dumps({"type": "draw", "source": "pack"}), "version": match.version}
        return lambda: client.post(
            f"/matches/{match.pk}/move/", move, headers={"HX-Request": "true"}
        ).status_code

    statuses = factories.at_once(
        [run(kind, factories.client_for(user), match) for kind, user, match in jobs]
    )
    assert len(statuses) == len(jobs)
    assert set(statuses) <= {200, 302, 409}, statuses
    assert statuses.count(200) == 3 and statuses.count(409) == 3  # each move played once
    for match in matches:
        assert Move.objects.filter(match=match).count() == 1
        factories.assert_replays(match)
    assert Match.objects.get(pk=waiting.pk).seats.count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("mover_resigns", [False, True])
def test_a_resignation_racing_a_move_leaves_one_order_that_verifies(mover_resigns):
    """The awaited seat's move and a resignation (the other seat's, which ends a two-seat
    match, or the mover's own) at once: the row lock puts them in one order. The resignation
    always holds; the move is played before it (200) or refused after it (409); the log, the
    result and the record agree with whichever order it was."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=31)
    mover = [ann, bea][match.awaiting[0]]
    resigner = mover if mover_resigns else [ann, bea][1 - match.awaiting[0]]
    move = {"move": json.dumps({"type": "draw", "source": "pack"}), "version": match.version}
    moving, resigning = factories.client_for(mover), factories.client_for(resigner)
    statuses = factories.at_once(
        [
            lambda: moving.post(
                f"/matches/{match.pk}/move/", move, headers={"HX-Request": "true"}
            ).status_code,
            lambda: resigning.post(f"/matches/{match.pk}/resign/", {"confirm": "yes"}).status_code,
        ],
        timeout=30,
    )
    moved, resigned = statuses
    assert resigned == 302 and moved in (200, 409), statuses
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.status == Match.Status.FINISHED
    entries = list(Move.objects.filter(match=match).order_by("ply"))
    assert [e.payload["type"] for e in entries] == (
        ["draw", "resign"] if moved == 200 else ["resign"]
    )
    results = {s.user_id: (s.result, s.rank) for s in fresh.seats.all()}
    assert results[resigner.pk] == ("lost", 2)
    factories.assert_replays(match)
    record = json.loads(factories.client_for(ann).get(f"/matches/{match.pk}/record.json").content)
    assert record_verify(record).ok


@pytest.mark.django_db(transaction=True)
def test_a_cancel_racing_a_join_for_the_last_seat_leaves_one_or_the_other():
    """The creator cancels while someone takes the last seat: either the match is cancelled
    with the creator alone (the join refused, its person told so), or it has begun with both
    (the cancel refused, 409). Never both, never a 500."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="gulliver", players=[ann], seats=2)
    creator, joiner = factories.client_for(ann), factories.client_for(bea)
    cancelled, joined = factories.at_once(
        [
            lambda: creator.post(f"/matches/{match.pk}/cancel/", {"confirm": "yes"}).status_code,
            lambda: joiner.post(f"/matches/{match.pk}/join/").status_code,
        ],
        timeout=30,
    )
    assert joined == 302 and cancelled in (302, 409)
    fresh = Match.objects.get(pk=match.pk)
    if cancelled == 302:
        assert fresh.status == Match.Status.CANCELLED and fresh.seats.count() == 1
    else:
        assert fresh.status == Match.Status.ACTIVE and fresh.seats.count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_going_on_holiday_against_the_deadline_sweep_plays_before_it_or_not_at_all(attempt):
    """A person overdue goes on holiday as the deadline sweep runs: the holiday takes the
    locks of their matches, and a deadline's move checks the holiday under that lock, so the
    sweep either played their turn before the holiday began or played nothing and moved the
    deadline to a full day after the holiday (docs/accounts.md, "Holidays")."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    for user in (ann, bea):
        user.date_joined = timezone.now() - timedelta(weeks=5)
        user.save(update_fields=["date_joined"])
    match = match_create(game="faraway", num_players=2, created_by=ann, deadline_days=1, seed=5)
    match_join(match=match, user=bea)
    match.refresh_from_db()
    away = [ann, bea][match.awaiting[0]]
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    client = factories.client_for(away)
    until = timezone.localdate() + timedelta(days=2)

    results = factories.at_once(
        [
            lambda: client.post("/accounts/holiday/", {"until": until.isoformat()}).status_code,
            lambda: tasks.enforce_deadlines.apply(throw=True).get(),
        ],
        timeout=60,
    )
    status, played = results
    assert status == 302
    holiday = Holiday.objects.get(user=away)
    moves = list(Move.objects.filter(match=match).order_by("ply"))
    fresh = Match.objects.get(pk=match.pk)
    if played:  # the sweep came first: the whole overdue turn, then the other person's
        assert len(moves) == played and {m.auto for m in moves} == {"deadline"}
        assert fresh.awaiting != match.awaiting
    else:  # the holiday came first: nothing played, the deadline waits for the return
        assert moves == []
        assert fresh.deadline_at == holiday.away_until + timedelta(days=1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_a_block_racing_a_join_ends_as_one_then_the_other(attempt):
    """The creator blocks someone as they take the last free seat: either the join came first
    (a seat, then the block) or the block did (no seat, the join told why). Never a 500, and a
    join after the block is always refused (docs/accounts.md, "Friends and blocks")."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="gulliver", players=[ann], seats=2)
    blocker, joiner = factories.client_for(ann), factories.client_for(bea)
    blocked, joined = factories.at_once(
        [
            lambda: blocker.post("/players/bea/block/", {"confirm": "yes"}).status_code,
            lambda: joiner.post(f"/matches/{match.pk}/join/").status_code,
        ],
        timeout=30,
    )
    assert blocked == 302 and joined == 302
    assert Block.objects.filter(blocker=ann, blocked=bea).exists()
    seated = set(Seat.objects.filter(match=match).values_list("user_id", flat=True))
    assert seated in ({ann.pk}, {ann.pk, bea.pk})
    other = factories.match_make(game="gulliver", players=[ann], seats=2)
    refused = joiner.post(f"/matches/{other.pk}/join/", follow=True)
    assert b"A block stands between you and someone at this table" in refused.content
    assert Seat.objects.filter(match=other).count() == 1

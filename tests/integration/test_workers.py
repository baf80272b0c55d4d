"""Bots and Gulliver's deals played by a real Celery worker on Redis.

The worker runs in a thread of this process (``celery_worker`` from ``celery.contrib.pytest``)
and reads the same database as the test, so each test commits for real
(``transaction=True``). Nothing here runs a task by hand: the services enqueue on commit, the
worker picks the messages up from Redis, and the test only watches the database.
"""

from __future__ import annotations

import time

import pytest

from games import tasks
from games.engines import get_engine
from games.models import Match, Move, Seat
from games.services import match_create
from tests import factories
from tests.polling import wait_for

# On this seed, greedy, greedy and random bots reach 60 in five rounds (four deals).
SEED_FOR_ROUNDS = 1

pytestmark = [
    pytest.mark.services("redis"),
    pytest.mark.django_db(transaction=True),
]


def _refreshed(match: Match) -> Match:
    match.refresh_from_db()
    return match


def _lost_bot_turn(ann) -> tuple[Match, int]:
    """A started Faraway match whose awaited seat is a bot that no task was ever sent for.

    The seat becomes a bot after the start (which enqueues nothing for a person), which is
    exactly the state a lost message or a dead worker leaves behind.
    """
    match = factories.match_make(
        game="faraway", players=[ann, factories.user_make("bea")], seed=1234
    )
    bot = match.awaiting[0]
    Seat.objects.filter(match=match, index=bot).update(user=None, bot_level="greedy")
    return match, bot


def test_a_person_against_three_bots_is_answered_through_the_worker(ann, ann_client, worker):
    match = match_create(
        game="faraway",
        num_players=4,
        created_by=ann,
        bots={1: "greedy", 2: "random", 3: "greedy"},
    )
    turns = 0
    while turns < 4:
        wait_for(
            lambda: _refreshed(match).awaiting == [0] or match.status == "finished",
            "the bots to hand the turn back to ann",
        )
        if match.status == Match.Status.FINISHED:
            break
        before = Move.objects.filter(match=match).count()
        # A whole turn of ann's (a draw, then a card laid or thrown) through the page.
        while match.awaiting == [0]:
            move = factories.legal_moves(match, 0)[0]
            response = factories.post_move(ann_client, match, move)
            assert response.status_code == 200, response.content.decode()[:300]
            _refreshed(match)
        turns += 1
        wait_for(
            lambda: _refreshed(match).awaiting == [0] or match.status == "finished",
            "the bots to answer",
        )
        answers = Move.objects.filter(match=match, ply__gt=before).exclude(seat=0)
        assert answers.exists(), "no bot answered ann's turn"
        assert set(answers.values_list("seat", flat=True)) <= {1, 2, 3}
    assert turns >= 2
    assert {"games.bot_turn"} <= set(worker)
    engine = get_engine("faraway")
    state = engine.new_game(4, match.seed, match.options)
    for entry in Move.objects.filter(match=match).order_by("ply"):
        state = engine.apply(state, entry.seat, entry.payload)
    assert engine.dump(state) == _refreshed(match).state


def test_the_same_task_delivered_twice_plays_once(ann, worker):
    match, bot = _lost_bot_turn(ann)
    version = match.version
    tasks.bot_turn.apply_async((match.pk, version))
    tasks.bot_turn.apply_async((match.pk, version))
    wait_for(
        lambda: worker.get("games.bot_turn", []).count((match.pk, version)) == 2,
        "both deliveries to be processed",
    )
    first = Move.objects.filter(match=match).order_by("ply").first()
    assert (first.ply, first.seat) == (1, bot)
    # The bot's turn goes on through the worker (a draw is followed by a card), but version
    # ``version`` produced exactly one move: ply 1, and ply 2 came from version + 1.
    assert Move.objects.filter(match=match, ply=1).count() == 1
    assert worker["games.bot_turn"].count((match.pk, version)) == 2
    wait_for(lambda: _refreshed(match).awaiting == [1 - bot], "the bot's turn to end")
    plies = list(Move.objects.filter(match=match).values_list("ply", flat=True))
    assert plies == list(range(1, len(plies) + 1))
    assert match.version == version + len(plies)


def test_a_bot_turn_whose_message_was_lost_is_picked_up_by_the_sweeper(ann, worker, settings):
    match, bot = _lost_bot_turn(ann)
    settings.PARLOUR_SWEEP_AFTER = 0.2
    time.sleep(0.3)
    assert not Move.objects.filter(match=match).exists()
    tasks.sweep_stalled.apply_async()  # as beat would send it
    wait_for(lambda: _refreshed(match).awaiting == [1 - bot], "the swept bot to play its turn")
    assert worker["games.sweep_stalled"]
    assert set(Move.objects.filter(match=match).values_list("seat", flat=True)) == {bot}


def test_a_bots_only_gulliver_match_runs_to_its_target_through_round_end_tasks(ann, worker):
    match = match_create(
        game="gulliver",
        num_players=3,
        created_by=ann,
        bots={0: "greedy", 1: "greedy", 2: "random"},
        creator_plays=False,
        options={"target": 60},
        seed=SEED_FOR_ROUNDS,
    )
    wait_for(
        lambda: _refreshed(match).status == Match.Status.FINISHED, "the match to end", timeout=90
    )
    deals = Move.objects.filter(match=match, seat=None)
    assert deals.count() == 4  # five rounds: the same deal and bots as in test_bots.py
    assert len(worker["games.round_next"]) >= deals.count()
    engine = get_engine("gulliver")
    state = factories.assert_replays(match)
    outcome = engine.outcome(state)
    assert max(outcome["scores"]) >= 60

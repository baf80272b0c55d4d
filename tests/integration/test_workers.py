"""Bots and Gulliver's deals played by a real Celery worker on Redis.

The worker runs in a thread of this process (``celery_worker`` from ``celery.contrib.pytest``)
and reads the same database as the test, so each test commits for real
(``transaction=True``). Nothing here runs a task by hand: the services enqueue on commit, the
worker picks the messages up from Redis, and the test only watches the database.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from celery import current_app
from celery.signals import task_postrun
from django.db import connection

from games import tasks
from games.engines import get_engine
from games.models import Match, Move, Seat
from games.services import match_create
from tests import factories

# On this seed, greedy, greedy and random bots reach 60 in five rounds (four deals).
SEED_FOR_ROUNDS = 1

pytestmark = [
    pytest.mark.services("redis"),
    pytest.mark.django_db(transaction=True),
]

# One queue per test session, so a worker here never eats another run's messages on the
# shared Redis database (other test runs may use it at the same moment).
QUEUE = f"parlour-test-{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="session")
def celery_config() -> dict:
    return {
        "broker_url": os.environ.get("REDIS_URL") or "memory://",
        "task_default_queue": QUEUE,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "broker_connection_retry_on_startup": False,
    }


@pytest.fixture(scope="session", autouse=True)
def _forget_the_session_queue() -> Iterator[None]:
    """Drop this session's queue and kombu's bindings for it from Redis when the run ends."""
    yield
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.delete(QUEUE, f"_kombu.binding.{QUEUE}", f"_kombu.binding_permanent.{QUEUE}")
    except redis.RedisError:
        pass  # only tidiness is lost


@pytest.fixture(scope="session")
def celery_includes() -> tuple[str, ...]:
    return ("games.tasks",)


@pytest.fixture(scope="session")
def celery_worker_parameters() -> dict:
    return {"queues": [QUEUE], "without_heartbeat": True, "shutdown_timeout": 20}


@pytest.fixture
def worker(celery_app, celery_worker) -> Iterator[dict[str, list]]:
    """The running worker, and what it finished: ``{task name: [args, ...]}``.

    Starting the worker made the test app current, so the services' on-commit sends go to
    Redis; the teardown checks that no task ran in the test's own thread (eagerly).
    """
    assert current_app._get_current_object() is celery_app
    assert not celery_app.conf.task_always_eager
    done: dict[str, list] = {}
    in_test_thread: list[str] = []

    def finished(sender=None, args=None, **_: object) -> None:
        done.setdefault(sender.name, []).append(tuple(args or ()))
        if threading.current_thread() is threading.main_thread():
            in_test_thread.append(sender.name)
            return
        # The worker thread's own connection: closed so the test database can be flushed and
        # dropped without a session left open on it.
        connection.close()

    task_postrun.connect(finished, weak=False)
    try:
        yield done
    finally:
        task_postrun.disconnect(finished)
        celery_app.control.purge()
    assert in_test_thread == [], "these tasks ran eagerly, not in the worker"


def _wait_for(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


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
        _wait_for(
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
        _wait_for(
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
    _wait_for(
        lambda: worker.get("games.bot_turn", []).count((match.pk, version)) == 2,
        "both deliveries to be processed",
    )
    first = Move.objects.filter(match=match).order_by("ply").first()
    assert (first.ply, first.seat) == (1, bot)
    # The bot's turn goes on through the worker (a draw is followed by a card), but version
    # ``version`` produced exactly one move: ply 1, and ply 2 came from version + 1.
    assert Move.objects.filter(match=match, ply=1).count() == 1
    assert worker["games.bot_turn"].count((match.pk, version)) == 2
    _wait_for(lambda: _refreshed(match).awaiting == [1 - bot], "the bot's turn to end")
    plies = list(Move.objects.filter(match=match).values_list("ply", flat=True))
    assert plies == list(range(1, len(plies) + 1))
    assert match.version == version + len(plies)


def test_a_bot_turn_whose_message_was_lost_is_picked_up_by_the_sweeper(ann, worker, settings):
    match, bot = _lost_bot_turn(ann)
    settings.PARLOUR_SWEEP_AFTER = 0.2
    time.sleep(0.3)
    assert not Move.objects.filter(match=match).exists()
    tasks.sweep_stalled.apply_async()  # as beat would send it
    _wait_for(lambda: _refreshed(match).awaiting == [1 - bot], "the swept bot to play its turn")
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
    _wait_for(
        lambda: _refreshed(match).status == Match.Status.FINISHED, "the match to end", timeout=90
    )
    deals = Move.objects.filter(match=match, seat=None)
    assert deals.count() == 4  # five rounds: the same deal and bots as in test_bots.py
    assert len(worker["games.round_next"]) >= deals.count()
    engine = get_engine("gulliver")
    state = factories.assert_replays(match)
    outcome = engine.outcome(state)
    assert max(outcome["scores"]) >= 60

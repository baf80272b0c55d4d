"""``games.queue``: the services send tasks by name; each name must be a registered task."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from celery import Celery, current_app
from django.conf import settings

from core.publish import broker_backoff_reset
from games import queue

ROOT = Path(__file__).resolve().parents[2]


def _registered_names() -> set[str]:
    """The tasks a worker of the site registers: every app's tasks module, discovered."""
    from config.celery import app

    app.autodiscover_tasks(force=True)
    return set(app.tasks)


def test_every_name_the_services_send_is_a_registered_task():
    names = {v for k, v in vars(queue).items() if k.isupper() and isinstance(v, str)}
    assert names == {
        "games.bot_turn",
        "games.round_next",
        "games.ratings_update",
        "games.match_analyse",
        "accounts.turn_mail",
        "accounts.turn_push",
        "games.turn_notice",
        "accounts.data_export",
        "games.invitation_mail",
    }
    assert names <= _registered_names()


def test_every_task_beat_sends_is_registered():
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    missing = beat - _registered_names()
    assert missing == set()


def test_a_send_with_a_broker_carries_the_name_and_arguments():
    """Not eager: ``send_task`` by name onto the broker (kombu's memory transport here)."""
    app = Celery(f"queue-test-{uuid.uuid4().hex[:8]}", broker="memory://", set_as_current=False)
    app.conf.update(task_always_eager=False, task_default_queue=f"q-{uuid.uuid4().hex[:8]}")
    before = current_app._get_current_object()
    app.set_current()
    broker_backoff_reset()
    try:
        assert queue.send(queue.BOT_TURN, 7, 3, countdown=0.0) is True
        with app.connection_for_read() as conn:
            message = conn.SimpleQueue(app.conf.task_default_queue).get(timeout=2)
            assert message.headers["task"] == "games.bot_turn"
            assert message.payload[0] == [7, 3]
            message.ack()
    finally:
        before.set_current()
        app.close()


def test_eager_mode_does_not_run_a_task_whose_wait_is_the_point(caplog):
    # Eager (the autouse fixture): a turn mail with a delay is not run inside the request.
    assert queue.send(queue.TURN_MAIL, 1, 2, 3, countdown=180, must_wait=True) is False
    assert "not run: no worker to wait 180" in caplog.text


def test_eager_mode_finds_tasks_nobody_imported_yet():
    """A web process in eager mode (no broker) that never imported a tasks module: the queue
    discovers them, as a worker would at start, before running one by name."""
    script = textwrap.dedent(
        """
        import sys
        import django
        django.setup()
        from celery import current_app
        from games import queue
        assert "games.tasks" not in sys.modules
        task = queue._registered(current_app._get_current_object(), queue.RATINGS_UPDATE)
        assert task.name == "games.ratings_update", task.name
        assert "games.tasks" in sys.modules
        print("ok")
        """
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "CELERY_BROKER_URL": "",
        "PARLOUR_DATA_DIR": str(ROOT / "var" / "test-queue"),
    }
    env.pop("REDIS_URL", None)
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_eager_mode_refuses_a_name_no_task_has():
    with pytest.raises(KeyError):
        queue.send("games.no_such_task", 1)

"""A real Celery worker on Redis for the integration tests that ask for one (``worker``).

The worker runs in a thread of the test process (``celery_worker`` from
``celery.contrib.pytest``) and reads the same database as the test, so such a test commits for
real (``transaction=True``); ``tests.polling.wait_for`` polls the database for what the worker
did.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator

import pytest
from celery import current_app
from celery.signals import task_postrun
from django.db import connection

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

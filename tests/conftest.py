"""Shared fixtures and the ``services`` policy for tests that need PostgreSQL or Redis.

``@pytest.mark.services("postgres")`` (or ``"redis"``, or both): the test runs only when that
service is configured (``DATABASE_URL`` pointing at PostgreSQL, ``REDIS_URL`` answering). Without
it the test is skipped, unless ``REQUIRE_SERVICES=1``, when it fails: CI must not go green by
skipping the tests that matter.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests import factories


def _postgres_available() -> tuple[bool, str]:
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" in engine:
        return True, ""
    return False, "DATABASE_URL does not point at PostgreSQL"


def _redis_available() -> tuple[bool, str]:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return False, "REDIS_URL is not set"
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        return False, f"Redis at REDIS_URL does not answer: {exc}"
    return True, ""


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On SQLite, a test database in a file rather than in memory.

    Django's in-memory test database is shared between threads in SQLite's shared-cache mode,
    whose table locks fail at once instead of waiting; a Celery worker thread writing while the
    test reads then fails with "database table is locked". A file waits for its lock as usual.
    A fresh directory per run keeps parallel runs apart.
    """
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        folder = Path(tempfile.mkdtemp(prefix="parlour-test-db-"))
        db.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")
        yield
        shutil.rmtree(folder, ignore_errors=True)
    else:
        yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    # PBKDF2 at full strength costs ~0.3 s per login or registration; tests need not pay it.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _bots_without_waiting(settings) -> None:
    # The bot window and the round pause exist for people reading a table; tests need neither.
    settings.PARLOUR_BOT_WINDOW = 0
    settings.PARLOUR_ROUND_PAUSE = 0


@pytest.fixture(autouse=True)
def _tasks_run_eagerly():
    """Tasks run inside the caller unless a test starts a real worker (``celery_worker``).

    With REDIS_URL set (CI), the app would otherwise send every on-commit task of every test to
    Redis, where no one consumes it until a worker test picks up another test's leftovers.
    """
    from config.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = saved


CHECKS = {"postgres": _postgres_available, "redis": _redis_available}


@pytest.fixture(autouse=True)
def _services_policy(request: pytest.FixtureRequest) -> None:
    marker = request.node.get_closest_marker("services")
    if marker is None:
        return
    needed = marker.args or ("postgres", "redis")
    for name in needed:
        ok, why = CHECKS[name]()
        if ok:
            continue
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but {name} is unavailable: {why}")
        pytest.skip(f"needs {name}: {why}")


@pytest.fixture
def ann(db):
    return factories.user_make("ann")


@pytest.fixture
def bea(db):
    return factories.user_make("bea")


@pytest.fixture
def cal(db):
    return factories.user_make("cal")


@pytest.fixture
def ann_client(ann) -> Client:
    return factories.client_for(ann)


@pytest.fixture
def bea_client(bea) -> Client:
    return factories.client_for(bea)


@pytest.fixture
def cal_client(cal) -> Client:
    return factories.client_for(cal)

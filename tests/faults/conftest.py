"""The fault suite's real stack: its own PostgreSQL cluster and Redis server (never the shared
ones: these get stopped), gunicorn with DEBUG off, a Celery worker and beat with a fast sweeper.

The test process reads and writes the same database (its default connection is pointed at the
private cluster for the run), to make people, sessions and matches and to check what the
servers did; it sends its own tasks (a match that starts with a bot's turn) to the same Redis
queue. Every process a test starts is stopped when it ends, failed or not.

Run on its own (``make test-faults``): the default connection is repointed for the session.
A missing binary (initdb, pg_ctl, redis-server, gunicorn, celery; nginx for the tests that use
the ``nginx_binary`` fixture) skips these tests, or fails them under ``REQUIRE_SERVICES=1``
(tests/conftest.py's policy).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import dj_database_url
import pytest
from celery import Celery, current_app
from django.conf import settings
from django.db import connections
from django.test import Client

from core.publish import broker_backoff_reset
from tests import factories
from tests.stack.http import Browser
from tests.stack.processes import (
    Nginx,
    PostgresCluster,
    RedisServer,
    Stack,
    missing_binaries,
)

# Seconds: beat sweeps every SWEEP_EVERY and re-sends a bot turn that sat still SWEEP_AFTER.
SWEEP_EVERY = 1
SWEEP_AFTER = 2


def _required(missing: list[str]) -> None:
    if not missing:
        return
    why = f"the fault tests need {', '.join(missing)}"
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"REQUIRE_SERVICES=1 but {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def binaries() -> None:
    _required(missing_binaries())


@pytest.fixture(scope="session")
def nginx_binary(binaries) -> None:
    """For the tests behind the proxy: Debian's nginx too (``.ci/run`` installs nginx-light)."""
    _required(missing_binaries(nginx=True))


@pytest.fixture(scope="session")
def postgres(binaries) -> Iterator[PostgresCluster]:
    cluster = PostgresCluster("parlour_faults")
    try:
        cluster.init()
        cluster.migrate()
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture(scope="session")
def fault_db(postgres: PostgresCluster, django_db_blocker) -> Iterator[PostgresCluster]:
    """The test process's default connection on the private cluster, unblocked, autocommit:
    what the servers commit is visible at once, and what the test writes is theirs to see."""
    previous = connections.settings["default"]
    connections["default"].close()
    target = dj_database_url.parse(postgres.url, conn_max_age=0)
    connections.settings["default"] = connections.configure_settings({"default": target})["default"]
    del connections["default"]
    with django_db_blocker.unblock():
        yield postgres
        connections["default"].close()
    connections.settings["default"] = previous
    del connections["default"]


@pytest.fixture(scope="session")
def redis_server(binaries) -> Iterator[RedisServer]:
    folder = Path(tempfile.mkdtemp(prefix="parlour-faults-redis-"))
    server = RedisServer(folder)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def stack(fault_db, redis_server, tmp_path) -> Iterator[Stack]:
    """A fresh stack for one test; the test process's own sends go to its queue too."""
    if not redis_server.answers():  # a test that stopped it and failed before restarting it
        redis_server.start()
    servers = Stack(
        tmp_path,
        fault_db,
        redis_server,
        PARLOUR_BOT_WINDOW="0",
        PARLOUR_ROUND_PAUSE="0",
        PARLOUR_SWEEP_EVERY=str(SWEEP_EVERY),
        PARLOUR_SWEEP_AFTER=str(SWEEP_AFTER),
    )
    app = Celery(f"parlour-faults-{uuid.uuid4().hex[:6]}", broker=redis_server.url)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(
        broker_url=redis_server.url,
        broker_transport="core.redis_broker:Transport",  # as the settings name it for Redis
        broker_transport_options=dict(settings.PARLOUR_REDIS_TRANSPORT_OPTIONS),
        task_always_eager=False,
        task_default_queue=servers.queue,
    )
    previous = current_app._get_current_object()
    app.set_current()
    broker_backoff_reset()
    try:
        yield servers
    finally:
        previous.set_current()
        app.close()
        broker_backoff_reset()
        servers.stop_all()
        print(servers.logs())  # shown by pytest when the test failed


def person(prefix: str):
    return factories.user_make(f"{prefix}-{uuid.uuid4().hex[:8]}")


def visitor_for(stack: Stack, user, proxy: Nginx | None = None) -> Browser:
    """A browser signed in as ``user``: a real session row, made as a sign-in makes it. It
    talks to the stack's web port, or with ``proxy`` to nginx over HTTPS."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    cookies = {name: client.cookies[name].value}
    if proxy is not None:
        return Browser(proxy.port, cookies, tls=proxy.tls)
    return Browser(stack.web_port, cookies)

"""The fault suite's real stack: its own PostgreSQL cluster and Redis server (never the shared
ones: these get stopped), gunicorn with DEBUG off, a Celery worker and beat with a fast sweeper.

The test process reads and writes the same database (its default connection is pointed at the
private cluster for the run), to make people, sessions and matches and to check what the
servers did; it sends its own tasks (a match that starts with a bot's turn) to the same Redis
queue. Every process a test starts is stopped when it ends, failed or not.

Run on its own (``make test-faults``): the default connection is repointed for the session.
A missing binary (initdb, pg_ctl, redis-server, gunicorn, celery) skips these tests, or fails it
under ``REQUIRE_SERVICES=1`` (tests/conftest.py's policy).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
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

from config.publish import broker_backoff_reset
from tests import factories
from tests.faults.processes import (
    REPO,
    VENV_BIN,
    PostgresCluster,
    Process,
    RedisServer,
    free_port,
    missing_binaries,
)
from tests.faults.web import Visitor
from tests.polling import wait_for

# Seconds: beat sweeps every SWEEP_EVERY and re-sends a bot turn that sat still SWEEP_AFTER.
SWEEP_EVERY = 1
SWEEP_AFTER = 2


@pytest.fixture(scope="session")
def binaries() -> None:
    missing = missing_binaries()
    if not missing:
        return
    why = f"the fault tests need {', '.join(missing)}"
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"REQUIRE_SERVICES=1 but {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def postgres(binaries) -> Iterator[PostgresCluster]:
    cluster = PostgresCluster()
    try:
        cluster.init()
        env = {**os.environ, "DATABASE_URL": cluster.url}
        env.pop("REDIS_URL", None)
        for command in (["migrate", "--noinput"], ["createcachetable"]):  # as `make migrate`
            subprocess.run(
                [sys.executable, "manage.py", *command, "-v", "0"],
                cwd=REPO,
                env=env,
                check=True,
                timeout=300,
            )
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


class Stack:
    """The servers of one test, on one queue of their own; each start returns its process."""

    def __init__(self, postgres: PostgresCluster, redis: RedisServer, folder: Path) -> None:
        self.postgres, self.redis, self.folder = postgres, redis, folder
        self.queue = f"parlour-faults-{uuid.uuid4().hex[:10]}"
        self.processes: list[Process] = []
        self.web_port = free_port()
        self._workers = 0
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in {"CELERY_BROKER_URL", "PARLOUR_PRODUCTION", "PARLOUR_BENCH"}
        }
        self.env.update(
            DATABASE_URL=postgres.url,
            REDIS_URL=redis.url,
            PARLOUR_DATA_DIR=str(folder / "data"),
            PARLOUR_CELERY_QUEUE=self.queue,
            PARLOUR_BOT_WINDOW="0",
            PARLOUR_ROUND_PAUSE="0",
            PARLOUR_SWEEP_EVERY=str(SWEEP_EVERY),
            PARLOUR_SWEEP_AFTER=str(SWEEP_AFTER),
            DEBUG="0",
            ALLOWED_HOSTS="127.0.0.1",
            PYTHONUNBUFFERED="1",
        )

    def _start(self, name: str, argv: list[str], **env: str) -> Process:
        process = Process(name, argv, {**self.env, **env}, self.folder / f"{name}.log").start()
        self.processes.append(process)
        return process

    def web(self) -> Process:
        argv = [str(VENV_BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{self.web_port}"]
        argv += ["--workers", "2", "--timeout", "60", "--access-logfile", "-"]
        process = self._start("web", argv)
        visitor = Visitor(self.web_port)

        def up() -> bool:
            try:
                return visitor.request("GET", "/accounts/login/").status == 200
            except OSError:
                return False

        wait_for(up, "gunicorn to answer", timeout=60)
        return process

    def worker(self, **env: str) -> Process:
        self._workers += 1
        name = f"worker{self._workers}"
        argv = [str(VENV_BIN / "celery"), "-A", "config", "worker", "--pool=solo", "-l", "info"]
        argv += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        argv += ["-n", f"{name}-{self.queue}@%h"]
        process = self._start(name, argv, **env)
        wait_for(lambda: "ready." in process.output(), f"{name} to be ready", timeout=60)
        return process

    def beat(self) -> Process:
        schedule = self.folder / "beat-schedule"
        argv = [str(VENV_BIN / "celery"), "-A", "config", "beat", "-l", "info"]
        argv += ["-s", str(schedule)]
        process = self._start("beat", argv)
        wait_for(lambda: "Sending due task" in process.output(), "beat's first send", 60)
        return process

    def stop_all(self) -> None:
        for process in reversed(self.processes):
            process.stop()

    def logs(self) -> str:
        return "\n".join(f"===== {p.name}\n{p.output()[-4000:]}" for p in self.processes)


@pytest.fixture
def stack(fault_db, redis_server, tmp_path) -> Iterator[Stack]:
    """A fresh stack for one test; the test process's own sends go to its queue too."""
    if not redis_server.answers():  # a test that stopped it and failed before restarting it
        redis_server.start()
    servers = Stack(fault_db, redis_server, tmp_path)
    app = Celery(f"parlour-faults-{uuid.uuid4().hex[:6]}", broker=redis_server.url)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(
        broker_url=redis_server.url,
        broker_transport="config.redis_broker:Transport",  # as the settings name it for Redis
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


def visitor_for(stack: Stack, user) -> Visitor:
    """A browser signed in as ``user``: a real session row, made as a sign-in makes it."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return Visitor(stack.web_port, {name: client.cookies[name].value})

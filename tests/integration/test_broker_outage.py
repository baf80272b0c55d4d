"""A move while the broker is down: committed, answered within 0.5 s of normal, and logged.

The shared Redis must not be stopped (other runs use it), so the app is pointed at a broker
that is down in the three ways an outage looks from here: a closed port (Redis stopped: the
connection is refused), a black hole (a listening socket whose backlog is full, so the SYN is
never answered, as with a host that is gone) and a private redis-server stopped with SIGSTOP
(connected, never answering: a frozen Redis). The settings' Redis transport options
(``PARLOUR_REDIS_TRANSPORT_OPTIONS``) are what bound the wait; the "normal" time is measured in
the same test, on kombu's in-process memory broker, which answers at once.

This is the one timed assertion the issue asks for. Its margin is the issue's own (normal +
0.5 s, against the slowest normal move), with the connect bound at 0.25 s: a broker that is
retried or waited on as before (0.6 s refused, 6 s and more unreachable) fails it.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis
from celery import Celery, current_app
from django.conf import settings

from core.publish import broker_backoff_reset
from games.models import Match, Move
from games.services import match_create
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = 4
MARGIN = 0.5  # seconds: the bound
REDIS_TRANSPORT = "core.redis_broker:Transport"  # as the settings name it with REDIS_URL


@contextmanager
def app_on_broker(url: str) -> Iterator[Celery]:
    """The services' sends go to ``url`` (a real, non-eager app made current) until exit."""
    app = Celery(f"parlour-outage-{uuid.uuid4().hex[:8]}", broker=url, set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(
        broker_url=url,
        # The settings' transport class when they name one wins over the URL's scheme: name
        # the one the URL means (memory:// must not become the project's Redis transport).
        broker_transport=REDIS_TRANSPORT if url.startswith("redis://") else None,
        broker_transport_options=dict(settings.PARLOUR_REDIS_TRANSPORT_OPTIONS),
        task_always_eager=False,
        task_default_queue=f"parlour-outage-{uuid.uuid4().hex[:8]}",
    )
    previous = current_app._get_current_object()
    app.set_current()
    broker_backoff_reset()
    try:
        yield app
    finally:
        previous.set_current()
        app.close()
        broker_backoff_reset()  # later tests in this process must not inherit the outage


@contextmanager
def closed_port() -> Iterator[str]:
    """A Redis URL on a port nobody listens on: connections are refused."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    yield f"redis://127.0.0.1:{port}/0"


@contextmanager
def black_hole() -> Iterator[str]:
    """A Redis URL whose SYNs go unanswered: a listener that never accepts, its backlog full."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    fillers = []
    for _ in range(4):
        filler = socket.socket()
        filler.setblocking(False)
        filler.connect_ex(("127.0.0.1", port))
        fillers.append(filler)
    time.sleep(0.1)  # the handshakes that fit in the backlog complete
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        for filler in fillers:
            filler.close()
        listener.close()


@contextmanager
def hung_redis() -> Iterator[str]:
    """A private redis-server, stopped (SIGSTOP): connections are accepted by the kernel, and
    no command is ever answered, as with a Redis frozen by the host. Never the shared one."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail("REQUIRE_SERVICES=1 but redis-server is not installed")
        pytest.skip("needs redis-server")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                redis.Redis(port=port, socket_connect_timeout=0.2).ping()
                break
            except redis.RedisError:
                time.sleep(0.05)
        server.send_signal(signal.SIGSTOP)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.send_signal(signal.SIGCONT)
        server.terminate()
        server.wait(timeout=10)


OUTAGES = {"refused": closed_port, "unreachable": black_hole, "hung": hung_redis}


def _bot_match(person) -> Match:
    """A person and a greedy bot, the bot's opening moves (if any) played: the person is next.

    Created while tasks still run eagerly (the autouse fixture), so the bot has played inline.
    """
    match = match_create(
        game="faraway", num_players=2, created_by=person, bots={1: "greedy"}, seed=5
    )
    match.refresh_from_db()
    assert match.awaiting == [0]
    return match


def _timed_turn(match: Match, client) -> list[float]:
    """The person's turn posted over HTTP (a Faraway turn can take more than one move), each
    move checked committed; the seconds each took. It ends with the bot's turn to be sent."""
    elapsed = []
    while match.awaiting == [0]:
        move = factories.legal_moves(match, 0)[0]
        before = Move.objects.filter(match=match).count()
        started = time.monotonic()
        response = factories.post_move(client, match, move)
        elapsed.append(time.monotonic() - started)
        assert response.status_code == 200, response.content[:300]
        assert Move.objects.filter(match=match).count() == before + 1
        match.refresh_from_db()
    assert match.awaiting == [1], "the bot is awaited: its turn was to be sent"
    return elapsed


@pytest.mark.parametrize("outage", sorted(OUTAGES))
def test_a_move_commits_and_answers_at_once_while_the_broker_is_down(outage, ann, caplog):
    client = factories.client_for(ann)
    warm_up, *normal_matches = [_bot_match(ann) for _ in range(MOVES + 1)]
    down_matches = [_bot_match(ann) for _ in range(MOVES)]

    with app_on_broker("memory://"):
        _timed_turn(warm_up, client)  # templates, engine, first connection
        normal = [t for match in normal_matches for t in _timed_turn(match, client)]

    caplog.clear()
    with OUTAGES[outage]() as url, app_on_broker(url), caplog.at_level(logging.INFO):
        down = [t for match in down_matches for t in _timed_turn(match, client)]

    bound = max(normal) + MARGIN
    assert max(down) <= bound, f"{outage}: moves took {down}, normal {normal}"
    said = [r.getMessage() for r in caplog.records if r.name == "parlour.broker"]
    # The first send fails (after at most the connect bound); the later ones are skipped
    # without touching the network until the back-off ends. The sweeper resends them all.
    assert f"could not send games.bot_turn({down_matches[0].pk}, " in said[0], said
    for match, line in zip(down_matches[1:], said[1:], strict=True):
        assert f"games.bot_turn({match.pk}, {match.version}) not sent (retrying" in line, said
    for match in down_matches:
        factories.assert_replays(match)

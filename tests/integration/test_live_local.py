"""``/live/`` on the embedded default: no Redis; the local hub (games/live/local.py) hears each
committed change through its Unix socket and wakes the streams, under ``runserver``'s own
threaded WSGI server (a sync generator) and under uvicorn (ASGI). docs/live.md, "The embedded
default"."""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.core.servers.basehttp import (
    ThreadedWSGIServer,
    WSGIRequestHandler,
    get_internal_wsgi_application,
)
from django.db import connections

from games.live import local
from games.models import Match
from tests import factories
from tests.integration.test_live_stream import next_named, open_stream, play_one
from tests.live.server import asgi_server

pytestmark = [pytest.mark.django_db(transaction=True)]


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def wsgi_server() -> Iterator[str]:
    """``runserver``'s server (Django's ThreadedWSGIServer) in a thread of the test process."""
    server = ThreadedWSGIServer(("127.0.0.1", 0), _QuietHandler)
    server.set_app(get_internal_wsgi_application())
    thread = threading.Thread(target=server.serve_forever, name="wsgi-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        connections.close_all()


@pytest.fixture(params=["wsgi", "asgi"])
def embedded(request, settings) -> Iterator[str]:
    # A short path of its own (a Unix socket's path is at most 107 bytes).
    folder = tempfile.mkdtemp(prefix="plive", dir="/tmp")
    settings.REDIS_URL = ""
    settings.PARLOUR_LIVE = True
    settings.PARLOUR_LIVE_LOCAL = True
    settings.PARLOUR_LIVE_SOCKET = str(Path(folder) / "live.sock")
    settings.PARLOUR_LIVE_HEARTBEAT = 0.5
    server = wsgi_server if request.param == "wsgi" else asgi_server
    try:
        with server() as url:
            yield url
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_move_wakes_a_waiting_stream_at_once(embedded):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    stream = open_stream(embedded, f"/live/?match={match.pk}", ann)
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert next_named(stream, "table").json() == {"version": match.version, "phrases": 0}
    next_named(stream, "badge")
    started = time.monotonic()
    match = play_one(match)
    moved = next_named(stream, "table", timeout=5)
    assert moved.json() == {"version": match.version, "phrases": 0}
    assert time.monotonic() - started < 1.0  # pushed, not found by a slow look
    stream.close()


def test_the_local_stream_carries_numbers_only_to_members(embedded):
    """A watcher's carries the table (tests/integration/test_live_watch.py)."""
    ann, bea = (factories.user_make(n) for n in ("ann", "bea"))
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    streams = [open_stream(embedded, f"/live/?match={match.pk}", who) for who in (ann, bea)]
    events = [next_named(s, name) for s in streams for name in ("table", "badge")]
    match = play_one(match)
    events += [next_named(s, "table") for s in streams]
    for event in events:
        assert set(event.json()) <= {"version", "phrases", "count", "turns"}
        assert all(isinstance(v, int) for v in event.json().values())
    for stream in streams:
        stream.close()


@pytest.mark.parametrize("who", ["stranger", "signed_out"])
def test_a_private_match_is_still_a_404_to_a_stranger(embedded, who):
    ann, bea, cal = (factories.user_make(n) for n in ("ann", "bea", "cal"))
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    Match.objects.filter(pk=match.pk).update(public=False)
    stream = open_stream(embedded, f"/live/?match={match.pk}", cal if who == "stranger" else None)
    assert stream.status == (404 if who == "stranger" else 403)
    assert "event:" not in stream.body


def test_whose_turn_it_is_recounts_the_badge_on_a_page_without_a_table(embedded):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    awaited = match.seats.get(index=match.awaiting[0]).user
    stream = open_stream(embedded, "/live/", awaited)
    assert next_named(stream, "badge").json()["turns"] == 1
    while match.seats.get(index=match.awaiting[0]).user == awaited:
        match = play_one(match)
    assert next_named(stream, "badge", timeout=5).json()["turns"] == 0
    stream.close()


# Either of Django's warnings of an iterator of the wrong kind, raised as an error here: a sync
# one under ASGI (it is read whole in a thread, once), an async one under WSGI.
@pytest.mark.filterwarnings("error:StreamingHttpResponse must consume:Warning")
def test_the_stream_and_the_static_files_come_without_the_iterator_warning(embedded):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    stream = open_stream(embedded, f"/live/?match={match.pk}", ann)
    assert stream.status == 200
    assert next_named(stream, "table").json() == {"version": match.version, "phrases": 0}
    match = play_one(match)
    assert next_named(stream, "table", timeout=5).json()["version"] == match.version
    stream.close()
    css = Path(settings.BASE_DIR) / "static" / "css" / "parlour.css"
    with urllib.request.urlopen(f"{embedded}/static/css/parlour.css", timeout=10) as answer:
        assert answer.status == 200 and answer.read() == css.read_bytes()
    head = urllib.request.Request(f"{embedded}/static/css/parlour.css", method="HEAD")
    with urllib.request.urlopen(head, timeout=10) as answer:
        assert answer.status == 200 and answer.read() == b""


def test_a_closed_stream_is_forgotten_and_frees_its_thread(embedded):
    ann = factories.user_make("ann")
    hub = local.local_hub()
    stream = open_stream(embedded, "/live/", ann)
    next_named(stream, "badge")
    assert hub.streams >= 1
    stream.close()
    deadline = time.monotonic() + 8  # the WSGI stream finds the closed tab at its next comment
    while hub.streams and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub.streams == 0


def test_nobody_listening_drops_the_message_without_an_error(settings, tmp_path):
    settings.PARLOUR_LIVE_SOCKET = str(tmp_path / "nobody.sock")
    assert local.send({"m": 1, "v": 2, "p": 0, "u": []}) is False


@pytest.fixture
def short_dirs() -> Iterator[list[str]]:
    """Folders with short paths (a Unix socket's path is at most 107 bytes), removed after."""
    made: list[str] = []
    yield made
    for folder in made:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_second_process_finds_the_socket_held_and_a_stale_one_is_replaced(short_dirs):
    short_dirs += [tempfile.mkdtemp(prefix="plive", dir="/tmp") for _ in range(2)]
    path = str(Path(short_dirs[0]) / "live.sock")
    first = local.LocalHub(path)
    assert first.ready()
    assert not local.LocalHub(path).ready()  # held: that process's pages poll
    stale = str(Path(short_dirs[1]) / "live.sock")
    gone = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    gone.bind(stale)
    gone.close()  # the file stays behind, as after a killed server
    assert local.LocalHub(stale).ready()

"""Live events without Redis (the embedded default, ``make run``): one local socket a machine.

Whoever commits a change (the web process for a person's move, the Celery worker for a bot's
turn, a deal or a deadline) sends the same numbers-only message it would publish to Redis
("match M at version V, shown mark P; recount these people's badges") as one datagram to a
Unix socket in the data directory (``PARLOUR_LIVE_SOCKET``). The web process that serves
streams binds that socket; a thread of its own reads each datagram and wakes the streams it
concerns, async ones (ASGI) through their event loop, sync ones (``runserver``, WSGI) through a
``threading.Event``. No query runs while nothing changes, and a change reaches a stream within
a millisecond of its commit (docs/live.md, "The embedded default").

Sending costs one non-blocking ``sendto``: nobody bound (the web process not started yet, or a
server without streams) or a full buffer drops the message, which costs a late page, never a
wrong one (a stream that starts reads the current state itself). The socket file is the
owner's only (0600); a datagram carries numbers only, and a forged one costs at most a fetch
that answers "nothing new" (the stream hands on version numbers; every partial is read and
redacted by the table's views as for a poll). One process a socket: a second one that finds
it held serves no streams (its pages poll).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import socket
import threading
from pathlib import Path
from typing import Any

from django.conf import settings

from games.live.index import StreamIndex

logger = logging.getLogger("parlour.live")

MAX_DATAGRAM = 65536


def message_read(raw: bytes | str) -> tuple[int, tuple[int, int] | None, list[int]] | None:
    """A live message (``games.live.publish``'s numbers: ``m`` match, ``v`` version, ``p`` shown
    mark, ``u`` people to recount) as (match id, its marks or ``None``, user ids); ``None``,
    logged, for garbage. Read alike from Redis (``hub.py``) and from the local socket."""
    try:
        message = json.loads(raw)
        match_id = message.get("m")
        users = [int(u) for u in message.get("u", ())]
        if match_id is None:
            return 0, None, users
        return int(match_id), (int(message["v"]), int(message.get("p", 0))), users
    except (ValueError, TypeError, KeyError, AttributeError):
        logger.warning("live events: unreadable message dropped: %r", raw[:200])
        return None


class LocalListener:
    """One stream's mailbox, filled by the hub's thread: the newest (version, shown) of its
    match, whether its person's badge needs a recount, and whether the hub went away. An async
    stream sleeps on ``wake`` (an ``asyncio.Event`` set in its own loop), a sync one on
    ``woken`` (a ``threading.Event``)."""

    __slots__ = ("badge", "down", "loop", "match_id", "table", "user_id", "wake", "woken")

    def __init__(
        self, match_id: int | None, user_id: int, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        self.match_id, self.user_id, self.loop = match_id, user_id, loop
        self.table: tuple[int, int] | None = None
        self.badge = False
        self.down = False
        self.wake = asyncio.Event() if loop is not None else None
        self.woken = threading.Event()

    def _rouse(self) -> None:
        self.woken.set()
        if self.loop is not None and self.wake is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed under a dying stream
                self.loop.call_soon_threadsafe(self.wake.set)

    def offer_table(self, marks: tuple[int, int]) -> None:
        if self.table is None or marks > self.table:
            self.table = marks
            self._rouse()

    def offer_badge(self) -> None:
        self.badge = True
        self._rouse()

    def end(self) -> None:
        self.down = True
        self._rouse()


class LocalHub:
    """The socket's reader and the streams of this process (``index``: by match and by
    person, shared with the reader's thread under the index's lock)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lock = threading.Lock()  # the reader thread's start and end
        self.index: StreamIndex[LocalListener] = StreamIndex()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._failed = False

    # --- streams --------------------------------------------------------------------------------

    def ready(self) -> bool:
        """Bind the socket and start reading it, if not yet; ``False`` if it cannot be had."""
        with self.lock:
            if self._thread is not None and self._thread.is_alive():
                return True
            if self._failed:
                return False
            try:
                self._sock = _bind(self.path)
            except OSError as exc:
                self._failed = True
                logger.warning("live events: cannot listen on %s (%s); pages poll", self.path, exc)
                return False
            self._thread = threading.Thread(target=self._run, name="parlour-live", daemon=True)
            self._thread.start()
            logger.info("live events: listening on %s", self.path)
            return True

    def listen(
        self,
        match_id: int | None,
        user_id: int,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> LocalListener:
        return self.index.add(LocalListener(match_id, user_id, loop))

    def forget(self, listener: LocalListener) -> None:
        self.index.forget(listener)

    def spread(self, match_id: int) -> float:
        """No spread on the embedded default: a ``make run`` site has few watchers (the Redis
        hub's ``spread``)."""
        return 0.0

    @property
    def streams(self) -> int:
        return len(self.index)

    # --- the socket -----------------------------------------------------------------------------

    def dispatch(self, raw: bytes | str) -> None:
        """Hand one message to the listeners it concerns; garbage is logged and dropped."""
        read = message_read(raw)
        if read is None:
            return
        match_id, marks, users = read
        woken = self.index.of_match(match_id) if marks is not None else []
        counted = self.index.of_users(users)
        for listener in woken:
            listener.offer_table(marks)  # type: ignore[arg-type]
        for listener in counted:
            listener.offer_badge()

    def _run(self) -> None:
        sock = self._sock
        assert sock is not None
        while True:
            try:
                raw = sock.recv(MAX_DATAGRAM)
            except OSError as exc:
                logger.warning("live events: the local socket failed (%s); streams end", exc)
                break
            self.dispatch(raw)
        with self.lock:
            self._thread, self._failed = None, True
        for listener in self.index.everyone():
            listener.end()


def _bind(path: str) -> socket.socket:
    """A datagram socket bound at ``path``, owner only; a stale file (its process gone) is
    replaced, a live one (another process serving streams) refused."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        try:
            sock.bind(path)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            try:
                probe.connect(path)
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
                sock.bind(path)
            else:
                raise OSError(errno.EADDRINUSE, "another process serves streams here") from exc
            finally:
                probe.close()
        os.chmod(path, 0o600)
    except OSError:
        sock.close()
        raise
    return sock


# --- sending ------------------------------------------------------------------------------------

_sender: socket.socket | None = None
_sender_lock = threading.Lock()


def send(message: dict[str, Any]) -> bool:
    """One datagram to the local hub now; ``False`` if nobody listens or it cannot take it."""
    global _sender
    data = json.dumps(message, separators=(",", ":")).encode()
    with _sender_lock:
        if _sender is None:
            _sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            _sender.setblocking(False)
        sock = _sender
    try:
        sock.sendto(data, str(settings.PARLOUR_LIVE_SOCKET))
    except OSError:
        return False  # nobody bound (no streams here yet) or a full buffer: a late page
    return True


_hubs: dict[str, LocalHub] = {}
_hubs_lock = threading.Lock()


def local_hub() -> LocalHub:
    """This process's local hub (one a socket path)."""
    path = str(settings.PARLOUR_LIVE_SOCKET)
    with _hubs_lock:
        found = _hubs.get(path)
        if found is None:
            found = _hubs[path] = LocalHub(path)
        return found

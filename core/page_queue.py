"""A queue in front of the pages under the ASGI server (docs/live.md, "The server").

Under the ASGI server every request's sync code runs in a thread of its own, so a process takes
every request the moment it arrives: 40 people signing in at once were 40 threads hashing
passwords side by side, each holding one of the pool's connections or waiting for one, and those
past the pool's 10 s wait were answered 503 (bench/load.py, docs/performance.md). Sync gunicorn
never had that: a worker takes one request at a time and the rest wait in the listen queue.
This puts the same queue back: at most ``PARLOUR_ASGI_PAGES`` requests a process run at once
(by default two fewer than the pool's size, so each finds a connection), and the rest wait
their turn in the event loop, which costs nothing. The live streams (``/live/``) pass by: an
open stream is not a running page, and its brief reads hand their connection back at once
(games/live/stream.py).

The streams of a process share ``STREAM_THREADS`` threads for their sync code (the session, the
user, their reads), each stream one of them, where Django gives every request a thread of its
own for its whole life: an idle stream held an idle thread, 10,000 threads for 10,000 streams
(bench/live.py), most of what a stream cost in memory. Their reads are a few statements at a
connect or a change, each handing its connection back at once; two threads match the two
connections of the pool the pages leave to the streams (``PARLOUR_ASGI_PAGES``).
"""

from __future__ import annotations

import asyncio
import itertools
import weakref
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.db import connections

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

STREAMS = "/live/"
STREAM_THREADS = 2  # threads a process for its streams' sync code


class PageQueue:
    """ASGI middleware: at most ``limit`` HTTP requests other than streams run at once in each
    event loop (a process under uvicorn); the others wait in arrival order."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        if limit < 1:
            raise ValueError("PARLOUR_ASGI_PAGES must be at least 1")
        self.app, self.limit = app, limit
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )
        self._threads: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, itertools.cycle[ThreadPoolExecutor]
        ] = weakref.WeakKeyDictionary()

    def slots(self) -> asyncio.Semaphore:
        """This event loop's semaphore (one a process; a test's server thread has its own)."""
        loop = asyncio.get_running_loop()
        found = self._slots.get(loop)
        if found is None:
            found = self._slots[loop] = asyncio.Semaphore(self.limit)
        return found

    def streams_thread(self) -> ThreadPoolExecutor:
        """The thread of this event loop's ``STREAM_THREADS`` (in turn) for a new stream's
        sync code: one thread a stream, its calls one at a time as thread-sensitive code
        wants."""
        loop = asyncio.get_running_loop()
        found = self._threads.get(loop)
        if found is None:
            threads = [ThreadPoolExecutor(1, "parlour-streams") for _ in range(STREAM_THREADS)]
            found = self._threads[loop] = itertools.cycle(threads)
        return next(found)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("path", "").startswith(STREAMS):
            async with ThreadSensitiveContext(executor=self.streams_thread()):
                try:
                    await self.app(scope, receive, send)
                finally:
                    # The thread outlives the stream: what the stream left open there (a
                    # refusal's session read) is closed now, as a thread of its own took it.
                    await sync_to_async(connections.close_all)()
            return
        async with self.slots():
            await self.app(scope, receive, send)

"""Thousands of light clients in one asyncio process: server-sent-event streams held open and
plain HTTP requests, on raw connections (``asyncio.open_connection``), each timed with
``time.perf_counter``. For ``bench/live.py``; a browser's whole behaviour is
``tests/stack/http.py``'s."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

VERSION_RE = re.compile(rb'data-version="(\d+)"')


@dataclass
class Reply:
    """One HTTP answer: status, body and when its last byte arrived (perf_counter)."""

    status: int
    body: bytes
    started: float
    done: float

    @property
    def ms(self) -> float:
        return (self.done - self.started) * 1000

    def version(self) -> int | None:
        """The table partial's ``data-version``, when the body is one."""
        found = VERSION_RE.search(self.body)
        return int(found.group(1)) if found else None


def request_bytes(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def http_request(
    port: int,
    path: str,
    headers: dict[str, str],
    *,
    method: str = "GET",
    body: bytes = b"",
    timeout: float = 60.0,
) -> Reply:
    """One request on a connection of its own (``Connection: close``, as the sync workers
    answer anyway), read to the end."""
    started = time.perf_counter()
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    try:
        sent = {**headers, "Connection": "close"}
        writer.write(request_bytes(method, path, sent, body))
        data = await asyncio.wait_for(reader.read(-1), timeout)
    finally:
        writer.close()
    done = time.perf_counter()
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    if b"transfer-encoding: chunked" in head.lower():
        rest = dechunked(rest)
    return Reply(status, rest, started, done)


def dechunked(data: bytes) -> bytes:
    out, at = bytearray(), 0
    while True:
        end = data.find(b"\r\n", at)
        if end < 0:
            return bytes(out)
        size = int(data[at:end].split(b";")[0] or b"0", 16)
        if size == 0:
            return bytes(out)
        out += data[end + 2 : end + 2 + size]
        at = end + 2 + size + 2


@dataclass
class Event:
    """One server-sent event as received: its name, id, data and arrival (perf_counter)."""

    name: str
    id: str
    data: str
    at: float


@dataclass
class Stream:
    """One open event stream. ``on_event`` is called with each event as it is parsed;
    ``comments`` counts comment lines (the heartbeat ``: keep-alive``)."""

    port: int
    path: str
    headers: dict[str, str]
    on_event: Callable[[Stream, Event], None] | None = None
    status: int = 0
    events: int = 0
    comments: int = 0
    closed: bool = False
    error: str = ""
    opened_ms: float = 0.0
    _writer: asyncio.StreamWriter | None = field(default=None, repr=False)
    _task: asyncio.Task | None = field(default=None, repr=False)

    async def open(self, timeout: float = 60.0) -> None:
        """Connects and reads the answer's head; the body is read by a task of its own."""
        started = time.perf_counter()
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", self.port), timeout
        )
        self._writer = writer
        sent = {"Accept": "text/event-stream", "Cache-Control": "no-cache", **self.headers}
        writer.write(request_bytes("GET", self.path, sent))
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        self.opened_ms = (time.perf_counter() - started) * 1000
        self.status = int(head.split(b" ", 2)[1])
        if self.status != 200:
            writer.close()
            self.closed = True
            return
        chunked = b"transfer-encoding: chunked" in head.lower()
        self._task = asyncio.create_task(self._read(reader, chunked))

    async def _read(self, reader: asyncio.StreamReader, chunked: bool) -> None:
        pending = b""
        try:
            while True:
                if chunked:
                    size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
                    if size == 0:
                        break
                    data = (await reader.readexactly(size + 2))[:-2]
                else:
                    data = await reader.read(65536)
                    if not data:
                        break
                pending += data.replace(b"\r\n", b"\n")
                while b"\n\n" in pending:
                    block, pending = pending.split(b"\n\n", 1)
                    self._block(block.decode(), time.perf_counter())
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.error = f"{type(exc).__name__}: {exc}"
        self.closed = True

    def _block(self, block: str, at: float) -> None:
        name, ident, data = "message", "", []
        for line in block.split("\n"):
            if line.startswith(":"):
                self.comments += 1
                continue
            key, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if key == "event":
                name = value
            elif key == "id":
                ident = value
            elif key == "data":
                data.append(value)
        if data or name != "message":
            self.events += 1
            if self.on_event is not None:
                self.on_event(self, Event(name, ident, "\n".join(data), at))

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._writer is not None:
            self._writer.close()
        self.closed = True


async def open_all(streams: list[Stream], in_flight: int) -> float:
    """Opens ``streams`` with at most ``in_flight`` connects at once; the seconds it took.
    A stream that fails keeps its error (status 0). Once ``in_flight`` were refused and more
    were refused than opened, the rest are not tried (their error says so): a server that
    refuses streams is not asked thousands of times."""
    gate = asyncio.Semaphore(in_flight)
    started = time.perf_counter()
    tally = {"opened": 0, "refused": 0}

    async def one(stream: Stream) -> None:
        async with gate:
            if tally["refused"] >= in_flight and tally["refused"] > tally["opened"]:
                stream.error, stream.closed = "not tried: the server refused most", True
                return
            try:
                await stream.open()
            except (OSError, asyncio.IncompleteReadError) as exc:  # TimeoutError is an OSError
                stream.error = f"{type(exc).__name__}: {exc}"
                stream.closed = True
            tally["opened" if stream.status == 200 else "refused"] += 1

    await asyncio.gather(*(one(s) for s in streams))
    return time.perf_counter() - started

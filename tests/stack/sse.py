"""A server-sent-events client for tests and benchmarks: one stream over a raw socket (HTTP/1.1,
optionally TLS), with the browser's cookies and ``Last-Event-ID``, parsed as EventSource parses
it (``event:``, ``id:``, ``data:``, ``retry:``, comment lines; an event is dispatched at a blank
line). A read that times out raises ``TimeoutError`` and leaves the stream usable.

    stream = EventStream(port, "/live/?match=7", cookies=browser.cookies)
    assert stream.status == 200
    event = stream.next_event(timeout=5)   # None once the server ended the stream
"""

from __future__ import annotations

import json
import socket
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    name: str  # "message" when the event named none
    data: str
    id: str | None  # the stream's last event id once this event arrived (ids persist)

    def json(self) -> Any:
        return json.loads(self.data)


class EventStream:
    """``GET path`` on ``host:port``, its status and headers read at once. A non-200 answer's
    body is read whole into ``body``; a 200's events are read by ``next_event``."""

    def __init__(
        self,
        port: int,
        path: str,
        *,
        host: str = "127.0.0.1",
        cookies: dict[str, str] | None = None,
        last_event_id: str | None = None,
        tls: ssl.SSLContext | None = None,
        timeout: float = 10.0,
    ) -> None:
        self.last_event_id = last_event_id
        self.comments: list[str] = []
        self.retry: int | None = None
        self.ended = False
        self._raw = bytearray()  # received, not yet decoded from the transfer encoding
        self._text = ""  # decoded, not yet parsed into lines
        self._fields: dict[str, str] = {}
        self._data: list[str] = []
        sock = socket.create_connection((host, port), timeout=timeout)
        self._sock = tls.wrap_socket(sock, server_hostname=host) if tls else sock
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}"]
        lines += ["Accept: text/event-stream", "Cache-Control: no-cache"]
        if cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))
        if last_event_id is not None:
            lines.append(f"Last-Event-ID: {last_event_id}")
        self._sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self._raw:
            if not self._receive(deadline):
                raise ConnectionError(f"{host}:{port} closed before answering {path}")
        head, _, rest = bytes(self._raw).partition(b"\r\n\r\n")
        self._raw = bytearray(rest)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split()[1])
        self.headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self._chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"
        length = self.headers.get("content-length")
        self._left = int(length) if length is not None and not self._chunked else None
        self.body = ""
        if self.status != 200:
            while self._decode() and self._receive(deadline):
                pass
            self.body, self._text = self._text, ""
            self.close()

    def _receive(self, deadline: float) -> bool:
        """More bytes from the socket into ``_raw``; False once the server closed it."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no data from the stream in time")
        self._sock.settimeout(remaining)
        try:
            data = self._sock.recv(65536)
        except TimeoutError:
            raise
        except OSError:  # reset by a killed server: the stream is over, as a close
            data = b""
        self._raw += data
        return bool(data)

    def _decode(self) -> bool:
        """Move what the transfer encoding lets through from ``_raw`` to ``_text``; False once
        the body is complete (the last chunk, or Content-Length reached)."""
        if self._chunked:
            while True:
                size_end = self._raw.find(b"\r\n")
                if size_end < 0:
                    return True
                size = int(bytes(self._raw[:size_end]).split(b";")[0], 16)
                if size == 0:
                    return False
                start = size_end + 2
                if len(self._raw) < start + size + 2:
                    return True
                self._text += self._raw[start : start + size].decode("utf-8", "replace")
                del self._raw[: start + size + 2]
        taken = len(self._raw) if self._left is None else min(self._left, len(self._raw))
        self._text += self._raw[:taken].decode("utf-8", "replace")
        del self._raw[:taken]
        if self._left is not None:
            self._left -= taken
            return self._left > 0
        return True

    def _line(self, line: str) -> Event | None:
        """One line of the stream; the event it completes, if it is a blank line."""
        if not line:
            event = None
            if self._data:
                name = self._fields.get("event") or "message"
                event = Event(name, "\n".join(self._data), self.last_event_id)
            self._fields, self._data = {}, []
            return event
        if line.startswith(":"):
            self.comments.append(line[1:].strip())
            return None
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "data":
            self._data.append(value)
        elif field == "id" and "\0" not in value:
            self.last_event_id = value
        elif field == "retry" and value.isdigit():
            self.retry = int(value)
        elif field == "event":
            self._fields["event"] = value
        return None

    def next_event(self, timeout: float = 10.0) -> Event | None:
        """The next event, or None once the stream has ended (the server closed it or was
        killed); ``TimeoutError`` when none came within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            while "\n" in self._text:
                line, _, self._text = self._text.partition("\n")
                event = self._line(line.removesuffix("\r"))
                if event is not None:
                    return event
            if self.ended:
                return None
            complete = not self._decode()
            if "\n" in self._text:
                continue
            if complete or not self._receive(deadline):
                self._decode()
                self.ended = True  # a last event without its blank line is dropped, as spec'd
                self.close()

    def wait_for(self, check: Callable[[Event], bool], timeout: float = 10.0) -> Event:
        """The first event ``check`` accepts (skipping the others); ``AssertionError`` when the
        stream ends first, ``TimeoutError`` when none came in time."""
        deadline = time.monotonic() + timeout
        while True:
            event = self.next_event(max(deadline - time.monotonic(), 0.001))
            if event is None:
                raise AssertionError("the stream ended before the event awaited")
            if check(event):
                return event

    def close(self) -> None:
        self._sock.close()

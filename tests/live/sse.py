"""A small server-sent-events reader for tests: one stream over a plain socket, read event by
event with a timeout (``text/event-stream`` as browsers parse it: ``event:``, ``id:``,
``data:``, comments)."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Event:
    name: str
    data: str
    id: str | None

    def json(self) -> Any:
        return json.loads(self.data)


class Stream:
    """GET ``url`` with ``cookies`` (and ``Last-Event-ID``); ``status`` and ``headers`` of the
    answer; ``next()`` the next event (comments counted in ``comments``)."""

    def __init__(
        self,
        url: str,
        cookies: dict[str, str] | None = None,
        last_event_id: str | None = None,
        timeout: float = 10.0,
    ) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        headers = {"Accept": "text/event-stream"}
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.headers = self.response.headers
        self.comments = 0
        self.retry: int | None = None

    def next(self, timeout: float | None = None) -> Event:
        """The next event; ``TimeoutError`` if none comes in ``timeout`` seconds, ``EOFError``
        when the server ended the stream."""
        deadline = None if timeout is None else time.monotonic() + timeout
        name, data, event_id = "message", [], None
        while True:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no event in time")
                self.connection.sock.settimeout(left)  # type: ignore[union-attr]
            try:
                raw = self.response.readline()
            except TimeoutError as exc:
                raise TimeoutError("no event in time") from exc
            if not raw:
                raise EOFError("the stream ended")
            line = raw.decode().rstrip("\r\n")
            if line == "":
                if data:
                    return Event(name, "\n".join(data), event_id)
                name, data, event_id = "message", [], None
                continue
            if line.startswith(":"):
                self.comments += 1
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
            elif field == "id":
                event_id = value
            elif field == "retry" and value.isdigit():
                self.retry = int(value)

    def body(self) -> str:
        return self.response.read().decode()

    def close(self) -> None:
        self.connection.close()

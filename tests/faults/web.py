"""A signed-in person talking to the real server over HTTP: cookies, CSRF, the move form."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

from django.conf import settings


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    seconds: float


@dataclass
class Visitor:
    """One browser's worth of cookies against ``127.0.0.1:port``; the session cookie is made
    in the test process (``conftest.session_cookie``), as a sign-in would."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)

    def request(
        self, method: str, path: str, form: dict[str, Any] | None = None, *, htmx: bool = False
    ) -> Answer:
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            if settings.CSRF_COOKIE_NAME in self.cookies:
                headers["X-CSRFToken"] = self.cookies[settings.CSRF_COOKIE_NAME]
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        started = time.monotonic()
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode(errors="replace")
        finally:
            conn.close()
        seconds = time.monotonic() - started
        for value in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie(value)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        return Answer(response.status, dict(response.headers.items()), text, seconds)

    def table(self, match_id: int) -> Answer:
        return self.request("GET", f"/matches/{match_id}/")

    def move(self, match_id: int, move: dict[str, Any], version: int) -> Answer:
        """The move as the table's htmx form posts it (from the table page, whose visit set
        the CSRF cookie)."""
        if settings.CSRF_COOKIE_NAME not in self.cookies:
            self.table(match_id)
        form = {"move": json.dumps(move), "version": version}
        return self.request("POST", f"/matches/{match_id}/move/", form, htmx=True)

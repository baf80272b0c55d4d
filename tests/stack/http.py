"""One browser talking to the served site over HTTP: its cookies, the CSRF token, the sign-in
form, and the table's htmx requests (the poll and the move) as the page sends them.

A new connection per request, as gunicorn's sync workers close every connection after
answering: a request's ``seconds`` include the connect.
"""

from __future__ import annotations

import html
import http.client
import json
import re
import ssl
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

VERSION_RE = re.compile(r'data-version="(\d+)"')
STATUS_RE = re.compile(r'data-status="(\w+)"')
MOVE_RE = re.compile(r'data-move="([^"]+)"')
CSRF_HEADER_RE = re.compile(r'"X-CSRFToken": "([^"]+)"')
CSRF_INPUT_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
MATCH_PATH_RE = re.compile(r"/matches/(\d+)/$")


class SignInRefused(Exception):
    """The sign-in form did not sign the browser in."""


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: str
    seconds: float


def _cookie_name(setting: str, default: str) -> str:
    from django.conf import settings

    return getattr(settings, setting, default) if settings.configured else default


@dataclass
class Browser:
    """One browser's cookies against ``host:port`` (HTTPS with ``tls``, a context trusting the
    server's certificate). ``csrf_token`` is the token the last signed-in page handed htmx (else
    the CSRF cookie's value serves)."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    csrf_token: str = ""
    timeout: float = 60.0
    host: str = "127.0.0.1"
    tls: ssl.SSLContext | None = None

    def request(
        self,
        method: str,
        path: str,
        form: dict[str, Any] | None = None,
        *,
        headers: dict[str, str] | None = None,
        htmx: bool = False,
    ) -> Answer:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            sent.update(self.htmx_headers(path))
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent.setdefault("Origin", self.origin)  # as browsers send with every POST
            if self.token:
                sent.setdefault("X-CSRFToken", self.token)
        started = time.perf_counter()
        if self.tls is None:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        else:
            connection = http.client.HTTPSConnection(
                self.host, self.port, timeout=self.timeout, context=self.tls
            )
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        seconds = time.perf_counter() - started
        for value in response.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(value)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0":
                    self.cookies.pop(name, None)  # Django deletes a cookie with max-age 0
                else:
                    self.cookies[name] = morsel.value
        return Answer(response.status, response.headers, data.decode("utf-8", "replace"), seconds)

    @property
    def origin(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}"

    @property
    def token(self) -> str:
        cookie = _cookie_name("CSRF_COOKIE_NAME", "csrftoken")
        return self.csrf_token or self.cookies.get(cookie, "")

    def htmx_headers(self, path: str) -> dict[str, str]:
        """What htmx adds to a table's request: the page it came from, the element it swaps."""
        page = path.split("?")[0].removesuffix("move/").removesuffix("table/")
        return {
            "HX-Request": "true",
            "HX-Current-URL": f"{self.origin}{page}",
            "HX-Target": "table",
        }

    def sign_in(self, username: str, password: str) -> tuple[Answer, Answer]:
        """Through the real form: GET it for its CSRF token and cookie, POST it, then read the
        lobby's token for htmx (signing in rotates it). The form's POST and the lobby's answer;
        ``SignInRefused`` when a step fails."""
        form_page = self.request("GET", "/accounts/login/")
        found = CSRF_INPUT_RE.search(form_page.body)
        if form_page.status != 200 or not found:
            raise SignInRefused(f"the sign-in form answered {form_page.status}")
        form = {"csrfmiddlewaretoken": html.unescape(found.group(1)), "next": ""}
        posted = self.request(
            "POST", "/accounts/login/", {**form, "username": username, "password": password}
        )
        session = _cookie_name("SESSION_COOKIE_NAME", "sessionid")
        if posted.status != 302 or session not in self.cookies:
            raise SignInRefused(f"signing {username} in answered {posted.status}")
        lobby = self.request("GET", "/matches/")
        token = CSRF_HEADER_RE.search(lobby.body)
        if lobby.status != 200 or not token:
            raise SignInRefused(f"the lobby answered {lobby.status} after signing in")
        self.csrf_token = html.unescape(token.group(1))
        return posted, lobby

    def post_form(self, path: str, form: dict[str, Any] | None = None) -> Answer:
        """A page's form posted as a browser posts it, its CSRF field included."""
        return self.request("POST", path, {"csrfmiddlewaretoken": self.token, **(form or {})})

    def table(self, pk: int) -> Answer:
        return self.request("GET", f"/matches/{pk}/")

    def poll(self, pk: int, version: int) -> Answer:
        """The table's htmx poll: 204 while ``version`` is current, else the table again."""
        return self.request("GET", f"/matches/{pk}/table/?version={version}", htmx=True)

    def move(self, pk: int, move: dict[str, Any], version: int) -> Answer:
        """A move button's form as htmx posts it: its fields, the CSRF header, the HX headers
        (a browser that has no token yet visits the table first, as a person would)."""
        if not self.token:
            self.table(pk)
        form = {"csrfmiddlewaretoken": self.token, "move": json.dumps(move)}
        return self.request("POST", f"/matches/{pk}/move/", {**form, "version": version}, htmx=True)


def offered_moves(page: str) -> list[dict[str, Any]]:
    """The moves a table page offers (its move buttons' ``data-move``)."""
    return [json.loads(html.unescape(m)) for m in MOVE_RE.findall(page)]


def page_state(page: str) -> tuple[int, str] | None:
    """A table page's version and status, or ``None`` when it shows neither."""
    version, status = VERSION_RE.search(page), STATUS_RE.search(page)
    if not version or not status:
        return None
    return int(version.group(1)), status.group(1)

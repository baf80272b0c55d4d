"""The security headers on every kind of answer, the markup the Content Security Policy relies on
(no inline script, style or handler anywhere a page serves), and production's cookie flags
(docs/hardening.md).

The browser test (tests/functional/test_csp_browser.py) shows Chromium enforcing the policy;
these tests pin the header and the markup without a browser, page kind by page kind.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client

from games.services import match_create
from games.services.ratings import ratings_update_due
from tests import factories
from tests.integration.test_settings import PRODUCTION_VAPID

ROOT = Path(__file__).resolve().parents[2]

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "font-src": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
}
HEADERS = {
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def parse_policy(header: str) -> dict[str, list[str]]:
    """``"a x y; b z"`` as ``{"a": ["x", "y"], "b": ["z"]}``."""
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def assert_secured(response) -> None:
    """The policy, exactly, and the other headers on one response."""
    assert "Content-Security-Policy" in response, response.headers
    assert parse_policy(response["Content-Security-Policy"]) == POLICY
    for name, value in HEADERS.items():
        assert response.get(name) == value, (name, response.get(name))


class InlineFinder(HTMLParser):
    """Everything in a page the policy would refuse: inline <script>, <style>, style= and on…=
    attributes, javascript: links."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "script" and "src" not in names:
            self.found.append(f"inline <script> at {self.getpos()}")
        if tag == "style":
            self.found.append(f"<style> at {self.getpos()}")
        for name, value in attrs:
            if name == "style" or name.startswith("on") or name.startswith("hx-on"):
                self.found.append(f"{name}= on <{tag}> at {self.getpos()}")
            if name in {"href", "src", "action"} and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"{name}=javascript: on <{tag}> at {self.getpos()}")


def inline_parts(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    finder.close()
    return finder.found


def test_the_finder_sees_what_the_policy_refuses():
    page = (
        '<p style="color:red">x</p><script>alert(1)</script><style>p{}</style>'
        '<button onclick="go()">go</button><a href="javascript:go()">go</a>'
        '<script src="/static/js/table.js" defer></script>'
    )
    assert len(inline_parts(page)) == 5


@pytest.fixture
def finished_pair(ann, bea):
    """Two finished, rated matches between Ann and Bea: a finished table and a rating chart."""
    matches = []
    for seed in (3, 4):
        # No fixed seed: a match dealt from a chosen seed is never rated.
        match = factories.match_make(game="faraway", players=[ann, bea])
        matches.append(factories.play_random(match, random.Random(seed)))
    ratings_update_due()  # what the worker does after the commit (no commit in this test)
    return matches


@pytest.mark.django_db
def test_signed_out_pages_carry_the_headers_and_no_inline_code():
    client = Client()
    for url in [
        "/",
        "/accounts/login/",
        "/accounts/register/",
        "/accounts/password_reset/",
        "/rules/faraway/",
        "/rules/gulliver/",
        "/admin/login/",
        "/learn/",
        "/learn/faraway/draw/",
        "/learn/gulliver/challenges/",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert_secured(response)
        assert inline_parts(response.content.decode()) == [], url


@pytest.mark.django_db
def test_signed_in_pages_and_htmx_partials_carry_the_headers_and_no_inline_code(
    ann, ann_client, finished_pair
):
    running = {
        game: match_create(
            game=game, num_players=2, created_by=ann, bots={1: "greedy"}, seed=9, public=True
        )
        for game in ("faraway", "gulliver")
    }
    finished = finished_pair[0]
    pages = [
        "/matches/",
        "/matches/new/",
        "/history/",
        "/history/?result=won",
        "/players/ann/",
        "/leaderboard/faraway/",
        "/leaderboard/gulliver/",
        "/accounts/notifications/",
        "/learn/",
        "/learn/gulliver/build/",
        f"/matches/{finished.pk}/",
        f"/matches/{finished.pk}/replay/",
        f"/matches/{finished.pk}/replay/?ply=3",
        *(f"/matches/{m.pk}/" for m in running.values()),
    ]
    for url in pages:
        response = ann_client.get(url)
        assert response.status_code == 200, url
        assert_secured(response)
        assert inline_parts(response.content.decode()) == [], url
    assert 'class="rating-chart"' in ann_client.get("/players/ann/").content.decode()

    partials = [
        "/accounts/badge/",
        "/history/?result=won",
        "/learn/faraway/climb/",
        f"/matches/{finished.pk}/replay/?ply=2",
        *(f"/matches/{m.pk}/table/" for m in running.values()),
        *(f"/matches/{m.pk}/" for m in running.values()),
    ]
    for url in partials:
        response = ann_client.get(url, headers={"HX-Request": "true"})
        assert response.status_code == 200, url
        assert_secured(response)
        assert inline_parts(response.content.decode()) == [], url


@pytest.mark.django_db
def test_a_refused_move_and_a_redirect_carry_the_headers(ann, ann_client):
    match = match_create(
        game="faraway", num_players=2, created_by=ann, bots={1: "greedy"}, seed=9, public=True
    )
    stale = factories.post_move(ann_client, match, {"kind": "nonsense"}, version=match.version + 7)
    assert 400 <= stale.status_code < 500
    assert_secured(stale)
    redirect = Client().get("/matches/")
    assert redirect.status_code == 302
    assert_secured(redirect)


def _production_facts(tmp_path: Path, **extra: str) -> subprocess.CompletedProcess:
    """A fresh process with production settings prints the settings these tests care about."""
    env = {
        **os.environ,
        "PARLOUR_PRODUCTION": "1",
        "SECRET_KEY": "a-long-random-production-secret-for-the-check-" + "x" * 40,
        "ALLOWED_HOSTS": "parlour.example.org",
        "PARLOUR_DATA_DIR": str(tmp_path),
        **PRODUCTION_VAPID,
        **extra,
    }
    for name in ("DEBUG", "DJANGO_SETTINGS_MODULE"):
        if name not in extra:
            env.pop(name, None)
    names = [
        "DEBUG",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SESSION_COOKIE_HTTPONLY",
        "SESSION_COOKIE_SAMESITE",
        "CSRF_COOKIE_SAMESITE",
        "SECURE_REFERRER_POLICY",
        "X_FRAME_OPTIONS",
        "SECURE_CONTENT_TYPE_NOSNIFF",
        "SECURE_CROSS_ORIGIN_OPENER_POLICY",
        "SECURE_SSL_REDIRECT",
    ]
    script = (
        "import json, django; from django.conf import settings; django.setup(); "
        f"print(json.dumps({{n: getattr(settings, n) for n in {names!r}}}))"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_turn_debug_off_and_secure_the_cookies(tmp_path):
    result = _production_facts(tmp_path)
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout.strip().splitlines()[-1])
    assert facts == {
        "DEBUG": False,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "CSRF_COOKIE_SAMESITE": "Lax",
        "SECURE_REFERRER_POLICY": "same-origin",
        "X_FRAME_OPTIONS": "DENY",
        "SECURE_CONTENT_TYPE_NOSNIFF": True,
        "SECURE_CROSS_ORIGIN_OPENER_POLICY": "same-origin",
        "SECURE_SSL_REDIRECT": True,
    }


def test_production_refuses_to_start_with_debug_on(tmp_path):
    result = _production_facts(tmp_path, DEBUG="1")
    assert result.returncode != 0
    assert "DEBUG must be off when PARLOUR_PRODUCTION=1" in result.stderr


@pytest.mark.django_db
def test_production_session_cookie_is_secure_httponly_and_lax(ann, settings):
    """The flags reach the Set-Cookie header a login answers with (settings as production
    sets them; the subprocess test above shows production does set them)."""
    settings.SESSION_COOKIE_SECURE = True
    settings.CSRF_COOKIE_SECURE = True
    client = Client()
    page = client.get("/accounts/login/")
    csrf = page.cookies["csrftoken"]
    assert csrf["secure"] and csrf["samesite"] == "Lax"
    response = client.post("/accounts/login/", {"username": "ann", "password": factories.PASSWORD})
    assert response.status_code == 302
    session = response.cookies["sessionid"]
    assert session["secure"] and session["httponly"] and session["samesite"] == "Lax"

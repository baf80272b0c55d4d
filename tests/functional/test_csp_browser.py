"""Every kind of page under the Content Security Policy in a real Chromium: nothing refused.

Each page is loaded and used (htmx polling, a move made through the table, the replay's keys
and autoplay, a history filter, the new-match seat script, the admin's scripts), while the
context collects every ``securitypolicyviolation`` event, every console message and every page
error. The listener comes in by ``add_init_script``: the browser tooling injects it, so the page's
own policy does not apply to it. Every document and htmx answer must carry the policy header.

docs/hardening.md says what the policy allows and how to add a script without breaking it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Response, expect

from games.models import Match
from games.services import match_create
from tests import factories
from tests.functional.pages import TablePage, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Reports each violation to Python at once (a document's own list would die with it on the next
# navigation). Runs before any page script, in every frame of every page of the context.
LISTENER_JS = """
document.addEventListener('securitypolicyviolation', (e) => {
  window.__parlourCspViolation({
    directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile,
    line: e.lineNumber, sample: e.sample, page: document.location.href,
  });
}, true);
"""
FRAME_PLY = "() => Number(document.querySelector('#replay-frame').dataset.ply)"
# Waits for an htmx poll: the table polls every 2 s; generous for a busy 2-core machine.
POLL_WAIT_MS = 10_000


@dataclass
class PolicyWatch:
    """What the browser said while the pages ran."""

    violations: list[dict[str, Any]] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    unprotected: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    # Addresses whose failed load the console may report: the 404 page on purpose, and
    # /favicon.ico, which Chromium asks for on pages (the admin's) that name no icon.
    expected_missing: set[str] = field(default_factory=lambda: {"/favicon.ico"})

    def on_violation(self, report: dict[str, Any]) -> None:
        self.violations.append(report)

    def on_console(self, message: ConsoleMessage) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.console.append(text)
        elif message.type == "error":
            where = urlsplit(message.location.get("url", "")).path
            if not (text.startswith("Failed to load resource") and where in self.expected_missing):
                self.console.append(f"{message.type}: {text} ({message.location})")

    def on_response(self, response: Response) -> None:
        if response.request.resource_type not in {"document", "xhr", "fetch"}:
            return
        header = response.headers.get("content-security-policy", "")
        self.checked.append(response.url)
        if "script-src 'self'" not in header or "unsafe-" in header:
            self.unprotected.append(f"{response.status} {response.url}: {header!r}")

    def assert_clean(self) -> None:
        assert self.violations == [], self.violations
        assert self.console == [], self.console
        assert self.errors == [], self.errors
        assert self.unprotected == [], self.unprotected


@pytest.fixture
def watched(make_context: Callable[..., BrowserContext]) -> Iterator[tuple[Page, PolicyWatch]]:
    """A page in a fresh context with the watch on; the test asserts it clean at its end."""
    watch = PolicyWatch()
    context = make_context()
    context.expose_function("__parlourCspViolation", watch.on_violation)
    context.add_init_script(LISTENER_JS)
    context.on("console", watch.on_console)
    context.on("weberror", lambda error: watch.errors.append(str(error.error)))
    context.on("response", watch.on_response)
    yield context.new_page(), watch


def visit(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")


def settle(page: Page) -> None:
    """Let violation reports already queued in the page reach Python: a timer task queued now
    runs after them, and its answer comes back after their bindings' calls."""
    page.evaluate("() => new Promise((done) => setTimeout(done, 50))")


def test_the_watch_sees_a_refused_inline_style_and_script(live_server, watched):
    """The detector itself: content the policy forbids, put into a served page, is reported."""
    page, watch = watched
    visit(page, f"{live_server.url}/")
    page.evaluate(
        """() => {
      document.body.insertAdjacentHTML('beforeend', '<p style="color: red">x</p>');
      const s = document.createElement('script');
      s.textContent = 'window.__ranInline = true';
      document.body.appendChild(s);
    }"""
    )
    settle(page)
    directives = {v["directive"] for v in watch.violations}
    assert {"style-src-attr", "script-src-elem"} <= directives, watch.violations
    assert page.evaluate("window.__ranInline === undefined")
    assert any("Content Security Policy" in line for line in watch.console), watch.console


def test_signed_out_pages_run_under_the_policy(live_server, watched):
    page, watch = watched
    factories.user_make("ann")
    base = live_server.url
    for url in ["/", "/rules/faraway/", "/rules/gulliver/", "/accounts/register/"]:
        visit(page, base + url)
    visit(page, f"{base}/accounts/password_reset/")
    page.get_by_label("Email").fill("ann@example.com")
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_url("**/password_reset/done/")
    watch.expected_missing.add("/no/such/page/")
    response = page.goto(f"{base}/no/such/page/")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="There is no such page")).to_be_visible()
    log_in(page, base, "ann")  # the login page and its redirect
    settle(page)
    watch.assert_clean()
    assert len(watch.checked) >= 8


def _finished_and_rated(ann, bea) -> Match:
    """Two finished Faraway matches between Ann and Bea, rated on commit (eager tasks), so the
    profile has a chart; returns the later one."""
    for seed in (3, 4):
        match = factories.match_make(game="faraway", players=[ann, bea])
        factories.play_random(match, random.Random(seed))
    match.refresh_from_db()
    return match


def _play_one_move(page: Page, name: str) -> None:
    """Wait for a poll of the table, then make the first offered move by clicking it."""
    with page.expect_response(lambda r: "/table/" in r.url, timeout=POLL_WAIT_MS):
        pass
    page.wait_for_function(
        "() => document.querySelectorAll('#table button.move[data-move]').length > 0",
        timeout=POLL_WAIT_MS,
    )
    table = TablePage(page, name)
    table.play(table.snapshot().moves[0])


def test_playing_pages_run_under_the_policy(live_server, watched, settings, tmp_path):
    settings.DATA_DIR = tmp_path  # the data export prepared below is written there
    page, watch = watched
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    finished = _finished_and_rated(ann, bea)
    running = [
        match_create(
            game=game, num_players=2, created_by=ann, bots={1: "greedy"}, seed=9, public=True
        )
        for game in ("faraway", "gulliver")
    ]
    base = live_server.url
    log_in(page, base, "ann")
    visit(page, f"{base}/matches/")

    # The new-match form's seat script (static/js/match_new.js) hides the seats beyond the count.
    visit(page, f"{base}/matches/new/")
    page.get_by_label("Seats").fill("3")
    expect(page.locator("#seat-choices .seat-choice:visible")).to_have_count(3)

    # A running table of each game: its poll, and a move made through the page.
    for match in running:
        visit(page, f"{base}/matches/{match.pk}/")
        _play_one_move(page, f"ann at {match.game}")

    # The finished table, then its replay: keys and one autoplay.
    visit(page, f"{base}/matches/{finished.pk}/")
    page.locator("#replay-link").click()
    page.wait_for_url(f"**/matches/{finished.pk}/replay/")
    page.keyboard.press("Home")
    page.wait_for_function(f"() => ({FRAME_PLY})() === 0")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({FRAME_PLY})() === 1")
    page.locator("#replay-speed").select_option("400")
    page.locator("#replay-play").click()
    page.wait_for_function(f"() => ({FRAME_PLY})() >= 3")
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")

    # History with a filter applied by htmx (the results swap, the URL is pushed).
    page.locator("#nav-history").click()
    page.wait_for_url(f"{base}/history/")
    page.get_by_label("Result").select_option("lost")
    page.wait_for_url("**/history/?*result=lost*")

    visit(page, f"{base}/players/ann/")
    expect(page.locator("#rating-faraway svg.rating-chart")).to_be_visible()
    # Another's profile: Follow swapped in by htmx, Block asked in place (docs/accounts.md).
    visit(page, f"{base}/players/bea/")
    page.locator("#profile-follow").click()
    expect(page.locator("#profile-unfollow")).to_be_visible()
    page.locator("#profile-block").click()
    expect(page.locator("#block-confirm")).to_be_visible()
    visit(page, f"{base}/friends/")
    visit(page, f"{base}/leaderboard/faraway/")
    visit(page, f"{base}/accounts/notifications/")
    # Closing, deleting and the data export (docs/accounts.md), its htmx poll included.
    visit(page, f"{base}/accounts/close/")
    visit(page, f"{base}/accounts/delete/")
    visit(page, f"{base}/accounts/")
    page.locator("#data-prepare").click()
    expect(page.locator("#data-download")).to_be_visible(timeout=15_000)
    settle(page)
    watch.assert_clean()
    assert any("/table/" in url for url in watch.checked)  # htmx answers were checked too


def test_admin_pages_run_under_the_policy(live_server, watched):
    page, watch = watched
    User = get_user_model()
    User.objects.create_superuser("root", "root@example.com", factories.PASSWORD)
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea])
    base = live_server.url
    visit(page, f"{base}/admin/")
    page.wait_for_url("**/admin/login/?next=/admin/")
    page.get_by_label("Username").fill("root")
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/admin/")
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()

    visit(page, f"{base}/admin/auth/user/")
    page.get_by_role("textbox", name="Search").fill("ann")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url("**/admin/auth/user/?q=ann")
    visit(page, f"{base}/admin/auth/user/{ann.pk}/change/")
    expect(page.locator("#user_form")).to_be_visible()
    # The groups/permissions picker is built by the admin's SelectFilter2 script.
    expect(page.locator("#id_user_permissions_from")).to_be_visible()
    visit(page, f"{base}/admin/games/match/")
    visit(page, f"{base}/admin/games/match/{match.pk}/change/")
    visit(page, f"{base}/admin/auth/user/add/")
    settle(page)
    watch.assert_clean()

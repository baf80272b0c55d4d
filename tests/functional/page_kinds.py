"""Every kind of page the site serves, opened one after another in a real browser, each handed
to a check (an axe scan, a reflow or a focus measure: tests/functional/test_wcag_*_browser.py).

The matches and people are those of the contrast test (tests/functional/test_contrast_browser.py,
``_build_site``); this walk adds the pages issue 37 item 3 names beside them: play now, the
account's own pages (time zone, close, delete, export, a refused rename), the new-password page
of a reset, a lesson, a form sent back with its errors, and a running table of each game as a
seat and as a watcher.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import BrowserContext, Page, expect

from games.lessons import lessons_for
from games.presentation.common import move_json
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_contrast_browser import _build_site

# Called with the open page and the page kind's name, once the page has loaded.
Check = Callable[[Page, str], None]


def _open(page: Page, url: str, status: int = 200) -> None:
    response = page.goto(url)
    assert response is not None and response.status == status, url
    page.wait_for_load_state("load")


def walk_signed_out(page: Page, base: str, check: Check) -> None:
    """The pages a visitor sees: home, sign-in, register, reset, rules, learn, a lesson, 404,
    403."""
    pages = [
        ("home, signed out", "/"),
        ("login", "/accounts/login/?next=/matches/1/"),
        ("register", "/accounts/register/"),
        ("password reset", "/accounts/password_reset/"),
        ("rules (faraway)", "/rules/faraway/"),
        ("rules (gulliver)", "/rules/gulliver/"),
        ("learn, signed out", "/learn/"),
        ("lesson step", "/learn/gulliver/build/"),
    ]
    for kind, path in pages:
        _open(page, base + path)
        check(page, kind)
    moves = factories.lesson_moves(lessons_for("gulliver")[1])
    for step, move in enumerate(moves, start=1):
        page.locator(f"#table button.move[data-move='{move_json(move)}']").first.click()
        expect(page.locator("#table")).to_have_attribute("data-step", str(step))
    expect(page.locator("#lesson-stars")).to_be_visible()
    check(page, "lesson finished")
    _open(page, f"{base}/no/such/page/", status=404)
    check(page, "404")
    # A form sent back with its errors: a wrong password.
    _open(page, f"{base}/accounts/login/")
    page.get_by_label("Username").fill("nobody")
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".errorlist, .error").first).to_be_visible()
    check(page, "login refused")
    _open(page, f"{base}/accounts/password_reset/")
    page.get_by_label("Email").fill("ann@example.com")
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_url("**/password_reset/done/")
    check(page, "password reset sent")
    ann = get_user_model().objects.get(username="ann")
    uid = urlsafe_base64_encode(force_bytes(ann.pk))
    page.goto(f"{base}/accounts/reset/{uid}/{default_token_generator.make_token(ann)}/")
    expect(page.get_by_label("New password", exact=True)).to_be_visible()
    check(page, "new password")
    # A form posted without its CSRF cookie: the 403 page.
    _open(page, f"{base}/accounts/login/")
    page.context.clear_cookies()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(factories.PASSWORD)
    with page.expect_response(lambda r: r.url.endswith("/accounts/login/")) as answer:
        page.get_by_role("button", name="Log in").click()
    assert answer.value.status == 403
    page.wait_for_load_state("load")
    check(page, "403 (CSRF)")


def walk_every_page(
    make_context: Callable[..., BrowserContext], base: str, check: Check, **context_args: Any
) -> None:
    """The visitor's pages, then every page a member sees, a watcher's tables and the staff's
    figures, each in its own context (``context_args``: the viewport, the emulated media)."""
    site = _build_site()
    walk_signed_out(make_context(**context_args).new_page(), base, check)
    _walk_signed_in(make_context, base, check, site, **context_args)


def _walk_signed_in(
    make_context: Callable[..., BrowserContext],
    base: str,
    check: Check,
    site: Any,
    **context_args: Any,
) -> None:
    page = make_context(**context_args).new_page()
    log_in(page, base, "ann")
    pages: list[tuple[str, str, int]] = [
        ("home, signed in", "/", 200),
        ("lobby", "/matches/", 200),
        ("play now", "/play/", 200),
        ("new match", "/matches/new/", 200),
    ]
    for game in ("faraway", "gulliver"):
        finished = site.finished[game]
        pages += [
            (f"table waiting ({game})", f"/matches/{site.waiting[game].pk}/", 200),
            (f"table in play, a seat ({game})", f"/matches/{site.running[game].pk}/", 200),
            (f"table finished ({game})", f"/matches/{finished.pk}/", 200),
            (f"replay at the deal ({game})", f"/matches/{finished.pk}/replay/?ply=0&as=all", 200),
            (f"replay ({game})", f"/matches/{finished.pk}/replay/?ply=5&as=0", 200),
            (f"leaderboard ({game})", f"/leaderboard/{game}/", 200),
        ]
    running = site.running["faraway"].pk
    pages += [
        ("analysis", f"/matches/{site.analysed.pk}/replay/?ply=3&as=all", 200),
        ("403 (replay refused)", f"/matches/{running}/replay/?as=all", 403),
        ("resign page", f"/matches/{running}/resign/", 200),
        ("cancel page", f"/matches/{site.waiting['gulliver'].pk}/cancel/", 200),
        ("leave page", f"/matches/{site.joined.pk}/leave/", 200),
        ("table with a resignation", f"/matches/{site.resigned.pk}/", 200),
        ("table cancelled", f"/matches/{site.cancelled.pk}/", 200),
        ("history", "/history/", 200),
        ("notices", "/notices/", 200),
        ("account", "/accounts/", 200),
        ("password change", "/accounts/password_change/", 200),
        ("time zone", "/accounts/time-zone/", 200),
        ("data export", "/accounts/data/", 200),
        ("close account", "/accounts/close/", 200),
        ("delete account", "/accounts/delete/", 200),
        ("notification settings", "/accounts/notifications/", 200),
        ("profile", "/players/ann/", 200),
        ("another's profile", "/players/bea/", 200),
        ("friends", "/friends/", 200),
        ("404, signed in", "/matches/999999/", 404),
    ]
    for kind, path, status in pages:
        _open(page, base + path, status)
        check(page, kind)
    # A page with the site's flash message: the table Play now seats one at.
    _open(page, f"{base}/play/")
    page.get_by_role("button", name="Play now").click()
    expect(page.locator("#messages")).to_be_visible()
    check(page, "table with a message")
    # A form the server sends back with its error: a name already taken.
    _open(page, f"{base}/accounts/")
    page.get_by_label("New name").fill("bea")
    page.get_by_label("Your password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Change my name").click()
    page.wait_for_load_state("load")
    check(page, "rename refused")

    watcher = make_context(**context_args).new_page()
    log_in(watcher, base, "cal")
    _open(watcher, f"{base}/matches/join/{site.waiting['faraway'].invite_token}/")
    check(watcher, "invite")
    for game in ("faraway", "gulliver"):
        _open(watcher, f"{base}/matches/{site.running[game].pk}/")
        check(watcher, f"table in play, a watcher ({game})")

    factories.staff_make("sam")
    staff = make_context(**context_args).new_page()
    log_in(staff, base, "sam")
    _open(staff, f"{base}/staff/figures/")
    check(staff, "staff figures")

"""The replay's keys in a real browser: every press counts however fast they come, and the
keyboard hints are shown only where there is a keyboard.

Issue 26 (4): ten presses of the right arrow 50 ms apart reached move 8, because each press
asked for "the frame after the one on screen" while the screen was still on its way; (12) a
phone showed "Keys: ← and → step…" to someone with no arrow keys.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FRAME_PLY = "() => Number(document.querySelector('#replay-frame').dataset.ply)"


def _finished() -> Match:
    """A finished two-player Faraway Tree match between Ann and Bea, long enough to step in."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=7)
    factories.play_random(match, random.Random(7))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.ply >= 24
    return match


def _press(page: Page, keys: list[str], gap_ms: int) -> None:
    for key in keys:
        page.keyboard.press(key)
        if gap_ms:
            page.wait_for_timeout(gap_ms)


def _lands_on(page: Page, match: Match, ply: int) -> None:
    """The frame shown is ``ply``'s, the location bar names it, and nothing later moves it."""
    page.wait_for_function(f"p => ({FRAME_PLY})() === p", arg=ply)
    page.wait_for_timeout(600)  # a stale answer still on its way would land by now
    assert page.evaluate(FRAME_PLY) == ply
    expect(page.locator("#replay-position")).to_contain_text(
        "The deal" if ply == 0 else f"Move {ply} of {match.ply}"
    )
    assert page.url.endswith(f"/matches/{match.pk}/replay/?ply={ply}&as=all"), page.url
    current = page.locator('#move-list a[aria-current="step"]')
    if ply:
        expect(current).to_have_attribute("data-ply", str(ply))


@pytest.mark.parametrize("gap_ms", [100, 50, 20, 0])
def test_every_right_arrow_counts_however_fast(live_server, make_context, gap_ms):
    match = _finished()
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?ply=3&as=all")
    _press(page, ["ArrowRight"] * 10, gap_ms)
    _lands_on(page, match, 13)


def test_a_fast_mix_of_keys_ends_where_the_arithmetic_says(live_server, make_context):
    match = _finished()
    last = match.ply
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?ply={last}&as=all")
    page.evaluate("window.__sameDocument = true")

    _press(page, ["Home"] + ["ArrowRight"] * 7 + ["ArrowLeft"] * 3 + ["ArrowRight"] * 5, 20)
    _lands_on(page, match, 9)
    # Past either end the target stays at the end: three lefts from 1 stop at the deal.
    _press(page, ["ArrowLeft"] * 8 + ["ArrowLeft"] * 3 + ["ArrowRight"] * 2, 20)
    _lands_on(page, match, 2)
    _press(page, ["End"] + ["ArrowLeft"] * 4 + ["ArrowRight"] * 9, 20)
    _lands_on(page, match, last)
    _press(page, ["ArrowLeft"] * 6 + ["Home", "ArrowRight"], 0)
    _lands_on(page, match, 1)
    assert page.evaluate("window.__sameDocument === true"), "a key press reloaded the page"

    # Back in the browser's history comes to an earlier pushed position, not a torn one.
    page.go_back()
    page.wait_for_function("() => !location.search.includes('ply=1&')")
    assert "ply=" in page.url


def test_the_key_hint_shows_with_a_keyboard_and_not_on_a_phone(live_server, make_context):
    match = _finished()
    url = f"{live_server.url}/matches/{match.pk}/replay/"
    desktop = make_context(viewport=DESKTOP).new_page()
    log_in(desktop, live_server.url, "ann")
    desktop.goto(url)
    expect(desktop.locator("#replay-autoplay .key-hint")).to_be_visible()
    expect(desktop.locator("#replay-autoplay .key-hint")).to_contain_text("Keys:")

    phone = make_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(phone, live_server.url, "bea")
    phone.goto(url)
    expect(phone.locator("#replay-play")).to_be_visible()  # the autoplay panel is there
    expect(phone.locator("#replay-autoplay .key-hint")).to_be_hidden()
    # No other hint about keys anywhere on the phone's page.
    assert not phone.get_by_text("Keys:").is_visible()

"""The replay viewer in a real browser: a match finished against a bot, opened from its finished
table, stepped with the keyboard, autoplayed, seen as the bot saw it, and shared by its URL.

With ``PARLOUR_SCREENSHOTS=1`` the replay is photographed at desktop and phone width into
``docs/screenshots/`` (``replay.png``, ``replay-phone.png``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engines import get_engine
from games.models import Match
from games.services import match_create, move_submit
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import PHONE, overflowing, screenshot_path

FRAME_PLY = "() => Number(document.querySelector('#replay-frame').dataset.ply)"


def _finished_against_a_bot() -> tuple[Match, str]:
    """Ann against a greedy bot at The Faraway Tree, played to the end: Ann's moves through
    the move service, the bot's by its task (run on each commit, as a worker would)."""
    ann = factories.user_make("ann")
    match = match_create(
        game="faraway",
        num_players=2,
        created_by=ann,
        bots={1: "greedy"},
        seed=21,
        public=True,
    )
    engine = get_engine("faraway")
    seat = match.seats.get(user=ann)
    rng = random.Random(21)
    for _ in range(600):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        state = engine.load(match.state)
        assert match.awaiting == [seat.index], "the bot's turn was not played on commit"
        move = rng.choice(engine.legal_moves(state, seat.index))
        move_submit(match=match, seat=seat, move=move, expected_version=match.version)
    assert match.status == Match.Status.FINISHED
    return match, "ann"


def _wait_ply(page: Page, ply: int) -> None:
    page.wait_for_function(f"p => ({FRAME_PLY})() === p", arg=ply)
    assert f"ply={ply}" in page.url


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_finished_match_replays_by_keyboard_autoplay_and_shared_link(
    live_server, make_context, tmp_path: Path
) -> None:
    match, username = _finished_against_a_bot()
    last = match.ply
    page = make_context().new_page()
    log_in(page, live_server.url, username)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.locator("#replay-link").click()
    page.wait_for_url(f"**/matches/{match.pk}/replay/")
    assert page.evaluate(FRAME_PLY) == last
    expect(page.locator("#replay-perspectives [aria-current]")).to_have_text("All hands shown")
    # The last move: the board shows what each seat held at the end, each hand once (issue 33).
    expect(page.locator("#replay-frame .final-hand")).to_have_count(2)
    expect(page.locator("#all-hands")).to_have_count(0)
    page.evaluate("window.__sameDocument = true")  # gone if anything reloads the page

    # The keyboard: Home, right, right, left, End; each swaps the frame and pushes its URL.
    page.keyboard.press("Home")
    _wait_ply(page, 0)
    expect(page.locator("#replay-now h2")).to_have_text("The deal")
    expect(page.locator("#all-hands .replay-hand")).to_have_count(2)
    page.keyboard.press("ArrowRight")
    _wait_ply(page, 1)
    page.keyboard.press("ArrowRight")
    _wait_ply(page, 2)
    expect(page.locator('#move-list a[aria-current="step"]')).to_have_attribute("data-ply", "2")
    page.keyboard.press("ArrowLeft")
    _wait_ply(page, 1)
    page.keyboard.press("End")
    _wait_ply(page, last)
    assert page.evaluate("window.__sameDocument === true"), "a step reloaded the page"

    # Autoplay from the start at the fast speed: Space plays and pauses (the Play button too).
    page.keyboard.press("Home")
    _wait_ply(page, 0)
    page.locator("#replay-speed").select_option("400")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(f"() => ({FRAME_PLY})() >= 3")
    page.keyboard.press(" ")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    page.wait_for_timeout(300)  # a swap already under way when the pause came lands first
    paused = page.evaluate(FRAME_PLY)
    page.wait_for_timeout(1200)
    assert page.evaluate(FRAME_PLY) == paused, "autoplay went on after the pause"

    # As the bot saw it: its hand under the board, every other hand hidden.
    page.locator('#replay-perspectives a[data-as="1"]').click()
    page.wait_for_url("**as=1")
    expect(page.locator("#hand h2")).to_have_text("Greedy bot 2\u2019s hand")
    expect(page.locator("#all-hands")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    _wait_ply(page, paused + 1)
    # The swapped-in frame's copy button shows once htmx has settled it (static/js/copy.js).
    expect(page.locator("#replay-frame button[data-copy]")).to_be_visible()
    shared = page.url
    frame_text = page.locator("#replay-frame").inner_text()

    # The copied link opens the same frame for someone else, in a new browser context.
    factories.user_make("cal")
    other = make_context().new_page()
    log_in(other, live_server.url, "cal")
    other.goto(shared)
    assert other.evaluate(FRAME_PLY) == paused + 1
    expect(other.locator("#replay-frame button[data-copy]")).to_be_visible()
    assert other.locator("#replay-frame").inner_text() == frame_text

    wide = overflowing(page)
    assert not wide, f"the replay scrolls sideways at desktop width: {'; '.join(wide)}"
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?ply={last // 2}&as=all")
    page.screenshot(path=str(screenshot_path("replay", tmp_path)), full_page=True)
    phone = make_context(viewport=PHONE).new_page()
    log_in(phone, live_server.url, "cal")
    phone.goto(f"{live_server.url}/matches/{match.pk}/replay/?ply={last // 2}&as=0")
    wide = overflowing(phone)
    assert not wide, f"the replay scrolls sideways on a phone: {'; '.join(wide)}"
    phone.screenshot(path=str(screenshot_path("replay-phone", tmp_path)), full_page=True)

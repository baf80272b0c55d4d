"""The history and profile pages in a real browser: the filters swap only the results (htmx)
and push a shareable URL, and both pages fit a phone (390 px) and a desktop (1280 px).

With ``PARLOUR_SCREENSHOTS=1`` the pages are photographed into ``docs/screenshots/``
(``history.png``, ``history-phone.png``, ``profile.png``, ``profile-phone.png``)."""

from __future__ import annotations

import colorsys
import re

import pytest
from playwright.sync_api import expect

from games.engines import get_engine
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path
from tests.integration.history_rows import match_rows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _book() -> None:
    """Ann's matches: a long-named opponent, four seats with bots, a tie, one in play."""
    ann = factories.user_make("ann")
    rival = factories.user_make("bartholomew-the-very-long-named")
    cal = factories.user_make("cal")
    match_rows(seats=[(ann, "won", 9, 1), (rival, "lost", 4, 2)], day=0)
    match_rows(
        game="gulliver",
        seats=[
            (ann, "lost", 40, 2),
            (rival, "won", 60, 1),
            ("greedy", "lost", 40, 2),
            (cal, "lost", 10, 4),
        ],
        day=1,
        ply=80,
        rounds=5,
    )
    match_rows(seats=[(ann, "drawn", 3, 1), ("random", "drawn", 3, 1)], day=2)
    match_rows(status="active", seats=[(ann, None, None, None), (cal, None, None, None)], day=3)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_history_filters_swap_the_results_and_fit(live_server, make_context, viewport, tmp_path):
    _book()
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "ann")
    page.get_by_role("link", name="History").click()
    page.wait_for_url(f"{live_server.url}/history/")
    expect(page.locator(".history-row")).to_have_count(4)
    assert overflowing(page) == []
    name = "history" if viewport == DESKTOP else "history-phone"
    page.screenshot(path=str(screenshot_path(name, tmp_path)), full_page=True)
    origin = page.evaluate("performance.timeOrigin")

    page.get_by_label("Result").select_option("won")
    page.wait_for_url("**/history/?*result=won*")
    expect(page.locator(".history-row")).to_have_count(1)
    assert page.evaluate("performance.timeOrigin") == origin  # swapped, not reloaded
    expect(page.locator("#history-filters")).to_be_visible()

    page.get_by_label("Opponent").select_option("bot:random")
    expect(page.locator("#history-results")).to_contain_text("No match of yours fits")
    page.get_by_label("Result").select_option("")
    expect(page.locator(".history-row")).to_have_count(1)
    assert "opponent=bot%3Arandom" in page.url

    # The pushed URL is shareable: a fresh load shows the same list.
    page.goto(page.url)
    expect(page.locator(".history-row")).to_have_count(1)
    expect(page.get_by_label("Opponent")).to_have_value("bot:random")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_profile_fits(live_server, make_context, viewport, tmp_path):
    _book()
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "cal")
    page.goto(f"{live_server.url}/players/ann/")
    expect(page.locator(".h2h-row.me")).to_have_count(1)
    expect(page.locator(".history-row")).to_have_count(4)
    assert overflowing(page) == []
    name = "profile" if viewport == DESKTOP else "profile-phone"
    page.screenshot(path=str(screenshot_path(name, tmp_path)), full_page=True)


def _hue(css_colour: str) -> float:
    """The hue, in degrees, of a computed ``rgb(r, g, b)`` colour."""
    red, green, blue = (int(x) / 255 for x in re.findall(r"\d+", css_colour)[:3])
    return colorsys.rgb_to_hsv(red, green, blue)[0] * 360


def test_in_play_has_its_own_colour_and_a_score_says_what_it_counts(live_server, make_context):
    """The words "In play" are not coloured like "Lost" (nor like any result); the profile's average
    score is read beside what a score counts in that game (the engine's ``score_help``)."""
    _book()
    page = make_context(viewport=DESKTOP).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/history/")
    expect(page.locator(".history-row")).to_have_count(4)

    def colour(result: str) -> str:
        cell = page.locator(f'.history-row[data-result="{result}"] .hr-result').first
        return cell.evaluate("el => getComputedStyle(el).color")

    hues = {result: _hue(colour(result)) for result in ("won", "lost", "drawn", "in_play")}
    for result in ("won", "lost", "drawn"):
        # Not merely another shade: the old "In play" was a lighter red beside Lost's red.
        apart = abs(hues["in_play"] - hues[result])
        assert min(apart, 360 - apart) >= 45, hues

    page.goto(f"{live_server.url}/players/ann/")
    for game in ("faraway", "gulliver"):
        help_text = get_engine(game).score_help
        expect(page.locator(f'#score-help dd[data-game="{game}"]')).to_have_text(help_text)

"""The nav badge in a real browser: it shows the matches waiting for your move, refreshes itself
by its own slow poll (no page load), and fits a phone (390 px) and a desktop (1280 px).

With ``PARLOUR_SCREENSHOTS=1`` the lobby's top is photographed into ``docs/screenshots/``
(``badge.png``, ``badge-phone.png``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Match
from games.services import move_submit
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, reset_sequences=True)]


def _awaiting(match: Match, user) -> Match:
    """Play the others' turns (first legal moves) until ``user`` is awaited."""
    match.refresh_from_db()
    seats = {s.index: s for s in match.seats.all()}
    while seats[match.awaiting[0]].user_id != user.pk:
        seat = seats[match.awaiting[0]]
        move = factories.legal_moves(match, seat.index)[0]
        move_submit(match=match, seat=seat, move=move, expected_version=match.version)
        match.refresh_from_db()
    return match


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_badge_counts_your_turns_and_refreshes_without_a_page_load(
    live_server, make_context, viewport, tmp_path
):
    ann = factories.user_make("ann")
    rivals = [factories.user_make(name) for name in ("bea", "cal", "dot")]
    waiting = [
        _awaiting(factories.match_make(players=[ann, rival], seed=4 + i), ann)
        for i, rival in enumerate(rivals)
    ]
    page = make_context(viewport=viewport).new_page()
    page.clock.install()  # htmx's "every 30s" runs on the page's timers: fast-forwarded below
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/")
    badge = page.locator("#turn-badge")
    expect(badge).to_have_attribute("data-count", "3")
    expect(badge).to_be_visible()
    assert overflowing(page) == []
    name = "badge" if viewport is DESKTOP else "badge-phone"
    page.screenshot(
        path=str(screenshot_path(name, tmp_path)),
        clip={"x": 0, "y": 0, "width": viewport["width"], "height": min(viewport["height"], 520)},
    )
    # Ann plays her whole turn elsewhere (another tab, say): the badge follows by its poll.
    match = waiting[0]
    seat = match.seats.get(user=ann)
    while match.awaiting == [seat.index]:
        move = factories.legal_moves(match, seat.index)[0]
        move_submit(match=match, seat=seat, move=move, expected_version=match.version)
        match.refresh_from_db()
    page.evaluate("window.__noReload = true")
    page.clock.run_for(31_000)
    expect(page.locator("#turn-badge")).to_have_attribute("data-count", "2")
    assert page.evaluate("window.__noReload") is True  # the same page, not a reload

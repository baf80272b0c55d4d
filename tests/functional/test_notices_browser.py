"""The notices page in a real browser: the badge leads to it, a challenge and a rematch offer
wait there with Accept / Decline in place, each match waiting for your move opens from its
"Open" button, and a finished match opened once leaves the list; it fits a phone (390 px) and a
desktop (1280 px).

With ``PARLOUR_SCREENSHOTS=1`` the page is photographed into ``docs/screenshots/``
(``notices.png``, ``notices-phone.png``).
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games.models import Match
from games.services import move_submit
from games.services.invitations import match_challenge_create, rematch_offer
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
def test_the_notices_page_opens_a_waiting_match_and_forgets_a_seen_finish(
    live_server, make_context, viewport, tmp_path
):
    ann = factories.user_make("ann")
    bea, cal = factories.user_make("bea"), factories.user_make("cal")
    waiting = [
        _awaiting(factories.match_make(players=[ann, rival], seed=4 + i), ann)
        for i, rival in enumerate((bea, cal))
    ]
    finished = factories.play_random(
        factories.match_make(players=[ann, bea], seed=9), random.Random(3)
    )
    # cal challenges ann, and bea offers ann a rematch of the finished match.
    match_challenge_create(created_by=cal, challenges={1: ann}, game="gulliver", num_players=2)
    rematch_offer(match_id=finished.pk, user=bea)
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/")
    expect(page.locator("#turn-badge")).to_have_attribute("data-count", "5")
    page.locator("#turn-badge").click()
    expect(page.get_by_role("heading", name="Notices", level=1)).to_be_visible()
    offers = page.locator("#invitation-notices li")
    expect(offers).to_have_count(2)
    expect(offers.filter(has_text="cal challenges you to")).to_have_count(1)
    rematch_line = offers.filter(
        has_text=f"bea offers a rematch of The Faraway Tree #{finished.pk}"
    )
    expect(rematch_line).to_have_count(1)  # the match played, linked (issue 33)
    expect(rematch_line.locator(".rematch-of-link")).to_have_attribute(
        "href", f"/matches/{finished.pk}/"
    )
    expect(page.locator("#invitation-notices .invitation-accept")).to_have_count(2)
    expect(page.locator("#invitation-notices .invitation-decline")).to_have_count(2)
    turns = page.locator("#notices-turns li")
    expect(turns).to_have_count(2)
    expect(page.locator("#notices-finished li")).to_have_count(1)
    assert overflowing(page) == []
    name = "notices" if viewport is DESKTOP else "notices-phone"
    page.screenshot(path=str(screenshot_path(name, tmp_path)), full_page=True)

    page.get_by_role("link", name=f"Open The Faraway Tree match {waiting[0].pk}").first.click()
    expect(page).to_have_url(f"{live_server.url}/matches/{waiting[0].pk}/")
    page.goto(f"{live_server.url}/matches/{finished.pk}/")  # the finish, seen in full
    page.goto(f"{live_server.url}/notices/")
    expect(page.locator("#notices-finished li")).to_have_count(0)
    expect(page.locator("#notices-finished")).to_contain_text("No finished match")
    expect(page.locator("#turn-badge")).to_have_attribute("data-count", "4")

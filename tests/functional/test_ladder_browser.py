"""The ladder in a browser (docs/competitions.md, "Ladder"): dan, at place 4, presses Challenge
beside bea at place 2 (htmx puts the answer in place); bea accepts on her ladder page, resigns
the match it began, and dan's page then shows him at place 2, bea and those between moved down
one. The ladder page is photographed at desktop and phone widths (``ladder[-phone].png`` in
docs/screenshots/ with ``PARLOUR_SCREENSHOTS=1``), and fits each width."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from competitions.models import LadderChallenge
from competitions.services.ladder import ladder_challenge, ladder_join
from games.models import Invitation
from games.services import match_resign
from games.services.invitations import invitation_accept
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser]

# The brief's desktop picture: 1280 by 800 (the page is photographed whole).
DESKTOP = {"width": 1280, "height": 800}


def _ladder(*names: str) -> list:
    people = [factories.user_make(name) for name in names]
    for person in people:
        ladder_join(game="faraway", user=person)
    return people


def _names(page: Page) -> list[str]:
    return page.locator("#ladder tbody tr").evaluate_all("rows => rows.map(r => r.dataset.name)")


@pytest.mark.django_db(transaction=True)
def test_challenge_accept_play_and_the_places_move(live_server, make_context) -> None:
    _ladder("ann", "bea", "cal", "dan")
    dan = make_context(viewport=DESKTOP).new_page()
    bea = make_context(viewport=DESKTOP).new_page()
    log_in(dan, live_server.url, "dan")
    log_in(bea, live_server.url, "bea")

    dan.goto(f"{live_server.url}/")
    dan.locator("#nav-ladder").click()
    expect(dan.locator("#ladder-standing")).to_have_text("You are at place 4 of 4.")
    expect(dan.locator("tr.me")).to_have_attribute("data-name", "dan")
    expect(dan.locator(".ladder-challenge")).to_have_count(3)  # ann, bea, cal: all in reach
    dan.get_by_role("button", name="Challenge bea for place 2").click()
    expect(dan.locator("#ladder-notice")).to_contain_text("You challenged bea")
    expect(dan.locator("#ladder-yours")).to_contain_text("waiting for an answer")
    expect(dan.locator(".ladder-withdraw")).to_have_count(1)
    # Once open, bea's row says why there is no second challenge.
    bea_row = dan.locator('tr[data-name="bea"]')
    expect(bea_row).to_contain_text("A challenge between you is open already.")
    challenge = LadderChallenge.objects.get()

    bea.goto(f"{live_server.url}/ladder/faraway/")
    expect(bea.locator("#ladder-yours")).to_contain_text("dan (place 4 then) challenged bea")
    bea.locator(".invitation-accept").click()
    bea.wait_for_url(f"**/matches/{challenge.match_id}/")
    expect(bea.locator("#turn-line")).to_be_visible()

    bea.goto(f"{live_server.url}/matches/{challenge.match_id}/resign/")
    bea.get_by_role("button", name="Yes, resign").click()
    expect(bea.locator("#messages")).to_contain_text("You resigned")

    dan.goto(f"{live_server.url}/ladder/faraway/")
    expect(dan.locator("#ladder-standing")).to_have_text("You are at place 2 of 4.")
    assert _names(dan) == ["ann", "dan", "bea", "cal"]
    expect(dan.locator("#ladder-events")).to_contain_text(
        "dan beat bea and climbed from place 4 to 2; bea and everyone between moved down one."
    )
    challenge.refresh_from_db()
    assert challenge.state == LadderChallenge.State.WON


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_ladder_page_is_photographed(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    names = ["bessie", "fanny", "dick", "jo", "moonface", "silky", "saucepan", "watzisname"]
    names += ["dame-washalot", "mr-whatzisname", "connie", "rick"]
    people = dict(zip(names, _ladder(*names), strict=True))
    # A settled climb, a challenge in play and one waiting, so every part of the page shows.
    first = ladder_challenge(game="faraway", challenger=people["jo"], target_name="fanny")
    invitation_accept(
        invitation_id=Invitation.objects.get(match_id=first.match_id).pk, user=people["fanny"]
    )
    match_resign(match_id=first.match_id, user=people["fanny"])
    playing = ladder_challenge(game="faraway", challenger=people["saucepan"], target_name="silky")
    invitation_accept(
        invitation_id=Invitation.objects.get(match_id=playing.match_id).pk, user=people["silky"]
    )
    ladder_challenge(game="faraway", challenger=people["moonface"], target_name="dick")
    suffix = "" if viewport == DESKTOP else "-phone"
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "moonface")
    page.goto(f"{live_server.url}/ladder/faraway/")
    expect(page.locator("#ladder-standing")).to_have_text("You are at place 5 of 12.")
    expect(page.locator("#ladder-yours")).to_contain_text("moonface (place 5 then)")
    # Places 2 to 4 are in reach: jo and fanny get a button, dick (challenged already) a reason.
    expect(page.locator(".ladder-challenge")).to_have_count(2)
    expect(page.locator('tr[data-name="dick"] .ladder-reason')).to_have_text(
        "A challenge between you is open already."
    )
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"ladder{suffix}", tmp_path)), full_page=True)

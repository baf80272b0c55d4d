"""Leagues in a browser (docs/competitions.md): a person enters an open league from its page
(the button, then the page saying so), and a running league's page with its standings, tables
and end date, and the list of leagues, are photographed at desktop and phone widths
(``league[-phone].png``, ``leagues[-phone].png`` in docs/screenshots/ with
``PARLOUR_SCREENSHOTS=1``); each fits its width."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from competitions.league_entries import league_enter
from competitions.models import Event, EventTable
from games.services.play_out import match_play_out
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser]

NAMES = ["jo", "bessie", "fanny", "dick", "moonface"]


def _league(name: str, **fields) -> Event:
    defaults = {"game": "faraway", "seats": 2, "circle_size": 5, "deadline_days": 3}
    return Event.objects.create(name=name, **{**defaults, **fields})


@pytest.mark.django_db(transaction=True)
def test_a_person_enters_an_open_league_from_its_page(live_server, make_context) -> None:
    factories.user_make("jo")
    event = _league("Winter league")
    page = make_context(viewport=DESKTOP).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/leagues/")
    page.get_by_role("link", name="Winter league").click()
    expect(page.locator("#league-end")).to_contain_text("ends 36 days later")
    page.locator("#league-enter").click()
    expect(page.locator(".messages")).to_contain_text("You are in the league.")
    expect(page.locator("#league-entry")).to_contain_text("1 of 5 places taken")
    expect(page.locator("#league-withdraw")).to_be_visible()
    assert event.entries.get().user.username == "jo"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_league_page_and_the_list_are_photographed(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    users = [factories.user_make(name) for name in NAMES]
    _league("Spring league", open_tables_most=2)
    running = _league("Enchanted Wood league", open_tables_most=2)
    for user in users:
        league_enter(event_id=running.pk, user=user)
    finished_tables = EventTable.objects.filter(event=running, match__isnull=False)[:3]
    for table in finished_tables:
        match_play_out(match_id=table.match_id)
    suffix = "" if viewport == DESKTOP else "-phone"
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/leagues/{running.pk}/")
    expect(page.locator("#league-standings")).to_contain_text("moonface")
    expect(page.locator("#league-end")).to_contain_text("Ends on")
    expect(page.locator("#league-tables")).to_contain_text("Finished")
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"league{suffix}", tmp_path)), full_page=True)
    page.goto(f"{live_server.url}/leagues/")
    expect(page.locator("#leagues-open")).to_contain_text("Spring league")
    expect(page.locator("#leagues-running")).to_contain_text("Enchanted Wood league")
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"leagues{suffix}", tmp_path)), full_page=True)

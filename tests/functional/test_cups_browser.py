"""Cups in a browser (docs/competitions.md, "Cups"): a person finds a cup from the leagues'
page, enters it from its page (the button, then the page saying so), and a running cup's page
with its rounds, standings and end date, and the list of cups with a weekly series' next
occurrence, are photographed at desktop and phone widths (``cup[-phone].png``,
``cups[-phone].png`` in docs/screenshots/ with ``PARLOUR_SCREENSHOTS=1``); each fits its
width."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from playwright.sync_api import expect

from competitions.models import Event, EventTable
from competitions.services.cup_sweep import cup_tend, occurrences_make
from competitions.services.cups import cup_enter
from games.services.play_out import match_play_out
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path
from tests.integration.cup_helpers import cup_make, series_make

pytestmark = [pytest.mark.browser]

NAMES = ["jo", "bessie", "fanny", "dick", "moonface", "silky", "saucepan"]


@pytest.mark.django_db(transaction=True)
def test_a_person_finds_and_enters_an_open_cup(live_server, make_context) -> None:
    factories.user_make("jo")
    event = cup_make(name="Saucepan cup", places_most=6, rounds=3, deadline_days=3)
    page = make_context(viewport=DESKTOP).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/leagues/")
    page.locator("#leagues-cups a").click()
    page.get_by_role("link", name="Saucepan cup").click()
    expect(page.locator("#cup-end")).to_contain_text("Ends 54 days after it starts")
    page.locator("#cup-enter").click()
    expect(page.locator(".messages")).to_contain_text("You are in the cup.")
    expect(page.locator("#cup-entry")).to_contain_text("1 of 6 places taken")
    expect(page.locator("#cup-withdraw")).to_be_visible()
    assert event.entries.get().user.username == "jo"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_cup_page_and_the_list_are_photographed(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    users = [factories.user_make(name) for name in NAMES]
    series_make(name="Monday Faraway cup", weekday=0, start_time=dt.time(19, 0), places_most=16)
    occurrences_make()
    running = cup_make(name="Enchanted Wood cup", places_most=7, rounds=3, deadline_days=3)
    for user in users:
        cup_enter(event_id=running.pk, user=user)
    for table in EventTable.objects.filter(event=running, match__isnull=False):
        match_play_out(match_id=table.match_id)
    cup_tend(event_id=running.pk)  # round 2 paired from round 1's results
    occurrences_make()
    suffix = "" if viewport == DESKTOP else "-phone"
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/cups/{running.pk}/")
    expect(page.locator("#cup-standings")).to_contain_text("moonface")
    expect(page.locator("#cup-end")).to_contain_text("Ends on")
    expect(page.locator("#cup-rounds")).to_contain_text("Round 2 of 3")
    expect(page.locator("#cup-rounds")).to_contain_text("Finished")
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"cup{suffix}", tmp_path)), full_page=True)
    page.goto(f"{live_server.url}/cups/")
    expect(page.locator("#cups-open")).to_contain_text("Monday Faraway cup")
    expect(page.locator("#cups-running")).to_contain_text("Enchanted Wood cup")
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"cups{suffix}", tmp_path)), full_page=True)
    assert Event.objects.filter(kind=Event.Kind.CUP, status=Event.Status.OPEN).count() == 2

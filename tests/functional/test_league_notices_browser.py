"""A league's and a cup's news and the events on a profile in a real browser
(docs/competitions.md, "Told" and "On profiles and in history"): the badge counts a league's
news, the notices page lists it under "News of your leagues and cups" (a cup's start with the
person's table), "Open the league" leads to the league's page, and the news is then seen (gone
from the page and the badge); a profile lists the person's leagues and cups with their place
and their ladder places; a history row of a league table links its league. Each fits a phone
(390 px) and a desktop (1280 px); with ``PARLOUR_SCREENSHOTS=1`` they are photographed into
``docs/screenshots/`` (``league-notices[-phone].png``, ``profile-events[-phone].png``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from competitions.league_entries import league_enter
from competitions.league_sweep import leagues_sweep
from competitions.models import Event, EventTable
from competitions.services.cups import cup_enter
from competitions.services.ladder import ladder_join
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path
from tests.integration.cup_helpers import cup_make

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["jo", "bessie", "fanny"]


def _league(name: str, open_tables_most: int = 1) -> Event:
    return Event.objects.create(
        name=name,
        game="faraway",
        seats=2,
        circle_size=3,
        deadline_days=3,
        open_tables_most=open_tables_most,
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_league_news_from_the_badge_to_the_league_and_the_profile_s_events(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    users = [factories.user_make(name) for name in NAMES]
    # Every table of the finished league opens at its start (two each), so jo sits at one
    # whatever the draw; with one open table each, one of the three would sit out (CI, once).
    finished = _league("Enchanted Wood league", open_tables_most=2)
    running = _league("Far Away Cup league")
    for user in users:
        league_enter(event_id=finished.pk, user=user)
    finished.refresh_from_db()
    leagues_sweep(now=finished.ends_at)
    for user in users:
        league_enter(event_id=running.pk, user=user)
    cup = cup_make(name="Magic Faraway cup", places_most=2, seats=2, rounds=1)
    for user in users[:2]:
        cup_enter(event_id=cup.pk, user=user)
    cup_table = EventTable.objects.get(event=cup)
    ladder_join(game="faraway", user=users[0])
    suffix = "" if viewport == DESKTOP else "-phone"
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/notices/")
    news = page.locator("#league-notices")
    expect(news).to_contain_text("Far Away Cup league has started: your first tables are open.")
    expect(news).to_contain_text("Enchanted Wood league has ended: you finished in place")
    cup_news = "Magic Faraway cup has started: your table of round 1 is open, table"
    expect(news).to_contain_text(f"{cup_news} #{cup_table.match_id}.")
    expect(page.locator("#notices-events")).to_contain_text("News of your leagues and cups")
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"league-notices{suffix}", tmp_path)), full_page=True)
    before = int(page.locator("#turn-badge").get_attribute("data-count"))
    news.locator("li", has_text="Far Away Cup league has started").get_by_role(
        "link", name="Open the league"
    ).click()
    expect(page).to_have_url(f"{live_server.url}/leagues/{running.pk}/")
    page.goto(f"{live_server.url}/notices/")
    expect(page.locator("#league-notices")).not_to_contain_text("Far Away Cup league")
    after = int(page.locator("#turn-badge").get_attribute("data-count"))
    assert after == before - 2  # entered and started, both seen on the league's page
    expect(page.locator("#league-notices")).to_contain_text("Magic Faraway cup has started")

    page.goto(f"{live_server.url}/players/jo/")
    events = page.locator("#profile-events")
    expect(events.get_by_role("link", name="Far Away Cup league")).to_be_visible()
    expect(events).to_contain_text("Enchanted Wood league: finished: place")
    expect(events).to_contain_text("The ladder of The Faraway Tree: place 1")
    expect(events.get_by_role("link", name="Magic Faraway cup")).to_have_attribute(
        "href", f"/cups/{cup.pk}/"
    )
    expect(events).to_contain_text("Magic Faraway cup: running")
    table = EventTable.objects.filter(event=finished, match__seats__user=users[0]).first()
    row = page.locator(f"#history-row-{table.match_id}")
    expect(row.get_by_role("link", name="League: Enchanted Wood league")).to_have_attribute(
        "href", f"/leagues/{finished.pk}/"
    )
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"profile-events{suffix}", tmp_path)), full_page=True)

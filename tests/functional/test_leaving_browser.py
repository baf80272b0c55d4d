"""Leaving a match in a real browser (docs/leaving.md): the confirmation step for resigning and
cancelling, with htmx and with JavaScript off, and the other players' open tables learning of it
through their poll."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.functional.pages import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_resigning_asks_first_then_the_others_see_it(live_server, make_context, javascript):
    ann, bea, cal = (factories.user_make(name) for name in ("ann", "bea", "cal"))
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=41)
    table = f"{live_server.url}/matches/{match.pk}/"
    watcher = make_context().new_page()
    log_in(watcher, live_server.url, "ann")
    watcher.goto(table)
    page = make_context(java_script_enabled=javascript).new_page()
    log_in(page, live_server.url, "bea")
    page.goto(table)

    page.get_by_role("link", name="Resign\u2026").click()
    page.wait_for_url(f"{table}resign/")
    confirm = page.locator("#leave-confirm")
    expect(confirm).to_contain_text("You lose this match, ranked below everyone still playing.")
    expect(confirm).to_contain_text("the greedy bot plays your seat")
    page.get_by_role("link", name="No, back to the table").click()  # changed their mind
    page.wait_for_url(table)
    expect(page.locator("#resigned-notes")).to_have_count(0)

    page.get_by_role("link", name="Resign\u2026").click()
    page.get_by_role("button", name="Yes, resign").click()
    page.wait_for_url(table)
    expect(page.locator("#messages")).to_contain_text("You resigned")
    expect(page.locator("#resigned-notes")).to_contain_text(
        "bea resigned; the greedy bot plays that seat."
    )
    expect(page.locator("#resign-link")).to_have_count(0)
    # ann's table was open all along: its poll brings the news without a reload.
    expect(watcher.locator("#resigned-notes")).to_contain_text("bea resigned")
    expect(watcher.locator("#event-log")).to_contain_text("bea resigned")


def test_cancelling_a_waiting_match_reaches_the_seated_guest(live_server, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="gulliver", players=[ann, bea], seats=3)
    table = f"{live_server.url}/matches/{match.pk}/"
    guest = make_context().new_page()
    log_in(guest, live_server.url, "bea")
    guest.goto(table)
    expect(guest.get_by_role("link", name="Leave this table\u2026")).to_be_visible()
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(table)
    page.get_by_role("link", name="Cancel this match\u2026").click()
    expect(page.locator("#leave-confirm")).to_contain_text("the invite link says so")
    page.get_by_role("button", name="Yes, cancel the match").click()
    page.wait_for_url(table)
    expect(page.locator("#cancelled-note")).to_be_visible()
    expect(guest.locator("#cancelled-note")).to_be_visible()  # through the guest's poll
    expect(guest.get_by_role("link", name="Leave this table\u2026")).to_have_count(0)
    guest.goto(f"{live_server.url}/matches/")
    expect(guest.locator(f'[data-match-id="{match.pk}"]')).to_contain_text("Cancelled")

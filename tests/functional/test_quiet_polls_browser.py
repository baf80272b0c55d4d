"""Hidden tabs stay quiet everywhere (issue 35, item 5): the analysis panel's and the data
export's progress polls send nothing while the tab is hidden, as the table's do, and ask once
at once when it is shown again (static/js/live.js, ``data-quiet-poll``)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, Request, expect

from accounts.services.data_export import data_export_request
from tests import factories
from tests.analysis_matches import play_greedy
from tests.functional.pages import log_in, tab_visibility_set
from tests.functional.test_analysis_browser import unconsumed_broker  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, reset_sequences=True)]

HIDDEN_S = 5.0  # two and a half of the polls' 2 s periods


def _quiet_then_catch_up(page: Page, path: str) -> None:
    seen: list[float] = []

    def on_request(request: Request) -> None:
        if path in request.url:
            seen.append(time.monotonic())

    page.on("request", on_request)
    # It polls while shown...
    page.wait_for_timeout(2500)
    assert seen, f"no poll of {path} while the tab was shown"
    tab_visibility_set(page, "hidden")
    page.wait_for_timeout(300)  # a poll already under way may finish
    hidden_at = time.monotonic()
    page.wait_for_timeout(HIDDEN_S * 1000)
    assert [t for t in seen if t > hidden_at] == [], f"{path} polled while the tab was hidden"
    shown_at = time.monotonic()
    tab_visibility_set(page, "visible")
    page.wait_for_timeout(700)
    assert [t for t in seen if t > shown_at], f"{path} did not ask at once when shown again"


def test_the_analysis_progress_poll_stops_while_the_tab_is_hidden(
    live_server,
    make_context,
    settings,
    unconsumed_broker,  # noqa: F811
):
    jo, fanny = factories.user_make("jo"), factories.user_make("fanny")
    match = play_greedy(factories.match_make(game="faraway", players=[jo, fanny], seed=11))
    page = make_context().new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    page.get_by_role("button", name="Analyse this match").click()
    expect(page.locator("#analysis")).to_have_attribute("data-status", "pending")
    _quiet_then_catch_up(page, f"/matches/{match.pk}/analysis/")


def test_the_data_export_progress_poll_stops_while_the_tab_is_hidden(
    live_server,
    make_context,
    unconsumed_broker,  # noqa: F811
):
    ann = factories.user_make("ann")
    data_export_request(user=ann)  # "preparing": the task waits on a broker nobody reads
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/")
    expect(page.locator("#account-data[hx-trigger]")).to_have_count(1)
    _quiet_then_catch_up(page, "/accounts/data/")

"""A post-game analysis in a real browser: a player asks for it on a finished match's replay,
sees it waiting and then its progress, and, once a worker has run it, the page reloads by
itself with the marks in the move list, the chart and the summary; no Content Security Policy
violation, no console error, and it fits a phone (390 px) and a desktop (1280 px).

The request sends the task to an in-memory broker nobody consumes, so the page stays on the
waiting state until the test runs the task itself (``games.match_analyse``, as a worker
would), while the page polls.

With ``PARLOUR_SCREENSHOTS=1`` the analysed replay is photographed into ``docs/screenshots/``
(``analysis.png``, ``analysis-phone.png``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import ConsoleMessage, expect

from config.celery import app
from core.publish import broker_backoff_reset
from games import tasks
from games.models import AnalysedDecision, MatchAnalysis
from tests import factories
from tests.analysis_matches import play_greedy
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, reset_sequences=True)]

POLL_WAIT_MS = 15_000  # the panel polls every 2 s; generous for a busy 2-core machine


@pytest.fixture
def unconsumed_broker() -> Iterator[None]:
    """Tasks are sent (not run in the request) to an in-memory broker with no worker on it."""
    saved = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"
    broker_backoff_reset()
    yield
    app.conf.task_always_eager, app.conf.broker_url = saved


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_player_asks_for_an_analysis_and_sees_it_arrive(
    live_server, make_context, viewport, tmp_path, settings, unconsumed_broker
):
    settings.PARLOUR_ANALYSIS_ITERATIONS = 6
    # One run does it all: a continuation would go to the broker nobody reads here.
    settings.PARLOUR_ANALYSIS_SLICE_S = 600
    jo, fanny = factories.user_make("jo"), factories.user_make("fanny")
    match = play_greedy(factories.match_make(game="faraway", players=[jo, fanny], seed=11))
    page = make_context(viewport=viewport).new_page()
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error" or "Content Security Policy" in message.text:
            problems.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(str(error)))
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    panel = page.locator("#analysis")
    expect(panel).to_have_attribute("data-status", "none")
    page.get_by_role("button", name="Analyse this match").click()
    expect(panel).to_have_attribute("data-status", "pending")
    expect(page.locator("#analysis-progress")).to_be_visible()
    expect(page.locator("#analysis-progress-text")).to_contain_text("Waiting for a worker")
    expect(page.locator("#messages")).to_contain_text("The analysis has started")

    # The worker's part, while the page polls: the task run as a worker runs it.
    tasks.match_analyse.apply((match.pk, match.version), throw=True)
    analysis = MatchAnalysis.objects.get(match=match)
    costly = AnalysedDecision.objects.filter(analysis=analysis, cost__gte=0.05).order_by("ply")
    assert costly.exists()

    # The poll sees it done and reloads the page: marks, chart and summary, no more polling.
    expect(panel).to_have_attribute("data-status", "done", timeout=POLL_WAIT_MS)
    expect(page.locator("#analysis-summary")).to_contain_text("jo")
    expect(page.locator("#analysis-chart svg")).to_be_visible()
    expect(page.locator("#analysis-chart polyline")).to_have_count(2)
    marks = page.locator("#move-list .cost-mark")
    expect(marks).to_have_count(costly.count())
    expect(page.locator("#analysis-costly li")).to_have_count(costly.count())
    assert page.locator("#analysis[hx-trigger]").count() == 0
    # A costly move's own frame says what it cost and what the strong bot would rather do.
    first = costly[0]
    page.locator(f"#analysis-costly li[data-ply='{first.ply}'] a").click()
    note = page.locator("#frame-mark")
    expect(note).to_contain_text(f"\u2212{round(first.cost * 100)}%")
    expect(note).to_contain_text("the strong bot would rather")
    assert overflowing(page) == []
    assert problems == []

    name = "analysis" if viewport is DESKTOP else "analysis-phone"
    if viewport is DESKTOP:
        page.locator("#replay-now").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_path(name, tmp_path)), full_page=True)
    else:
        panel.screenshot(path=str(screenshot_path(name, tmp_path)))

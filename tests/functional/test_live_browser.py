"""Live tables in a real browser, served by the ASGI server (uvicorn, in a thread of the test
process) with real Redis pub/sub (docs/live.md): the other seat's page shows a move as soon as
its stream says so and sends no poll while the stream is up; a hidden tab sends nothing at all
and shows the latest version as soon as it is visible again; the nav badge and the tab's title
follow the table by the stream's badge event (issue 26, item 2), with no poll.

A hidden tab is emulated: headless Chromium keeps every page visible, so the test overrides
``document.visibilityState`` and dispatches the ``visibilitychange`` event the page listens to.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, Request, Route, expect

from games.engines import get_engine
from games.models import Match
from games.services import move_submit
from games.services.phrases import phrase_say
from tests import factories
from tests.functional.pages import TablePage, log_in, tab_visibility_set

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.services("redis"),
]

STREAMING_JS = "() => !!window.parlourLive && window.parlourLive.streaming()"
# The moment (Date.now(), shared by every page of the browser) #table's version last changed.
WATCH_JS = """() => {
  window.__changedAt = null;
  new MutationObserver(() => { window.__changedAt = Date.now(); })
    .observe(document.querySelector('main'), {childList: true, subtree: true});
}"""


def _requests(page: Page) -> list[str]:
    seen: list[str] = []

    def note(request: Request) -> None:
        seen.append(request.url)

    page.on("request", note)
    return seen


def _one_move(match: Match) -> Match:
    """The awaited seat's first legal move, made on the server; the match as it is after."""
    match.refresh_from_db()
    seat_index = match.awaiting[0]
    move_submit(
        match=match,
        seat=match.seats.get(index=seat_index),
        move=factories.legal_moves(match, seat_index)[0],
        expected_version=match.version,
    )
    match.refresh_from_db()
    return match


def _awaiting(match: Match, user) -> Match:
    match.refresh_from_db()
    while match.seats.get(index=match.awaiting[0]).user_id != user.pk:
        match = _one_move(match)
    return match


def test_a_move_reaches_the_other_seat_by_its_stream_and_nobody_polls(live_site, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    pages = {}
    for name in ("ann", "bea"):
        page = make_context().new_page()
        log_in(page, live_site, name)
        page.goto(f"{live_site}/matches/{match.pk}/")
        page.wait_for_function(STREAMING_JS)
        pages[name] = page
    ann_table, bea_table = TablePage(pages["ann"], "ann"), TablePage(pages["bea"], "bea")
    bea_table.mark("one-document")
    bea_requests = _requests(pages["bea"])
    pages["bea"].wait_for_timeout(4500)  # two poll periods, a badge poll would be due too
    assert bea_requests == [], f"bea's page asked while its stream was up: {bea_requests}"

    pages["bea"].evaluate(WATCH_JS)
    version = ann_table.snapshot().version
    with pages["ann"].expect_response(lambda r: r.request.method == "POST") as answer:
        ann_table.play(ann_table.snapshot().moves[0])
    assert answer.value.ok
    answered_at = pages["ann"].evaluate("Date.now()")
    seen = bea_table.wait_for_version(version + 1, timeout_ms=5_000)
    shown_at = pages["bea"].evaluate("window.__changedAt")
    print(f"move to the other seat's screen: {shown_at - answered_at} ms")
    assert seen.version >= version + 1 and seen.marker == "one-document"
    # What bea's page asked for: the table's partial once per announced version, nothing else.
    assert all("/table/?version=" in url for url in bea_requests), bea_requests
    assert pages["bea"].evaluate(STREAMING_JS)


def test_a_hidden_tab_asks_nothing_and_catches_up_when_shown(live_site, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    page = make_context().new_page()
    log_in(page, live_site, "bea")
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function(STREAMING_JS)
    table = TablePage(page, "bea")
    table.mark("one-document")
    before = table.snapshot().version

    tab_visibility_set(page, "hidden")
    assert not page.evaluate(STREAMING_JS)
    requests = _requests(page)
    match = _awaiting(match, bea)  # ann plays her whole turn meanwhile
    assert match.version > before
    page.wait_for_timeout(4500)
    assert requests == [], f"a hidden tab asked: {requests}"
    assert table.snapshot().version == before

    tab_visibility_set(page, "visible")
    seen = table.wait_for_version(match.version, timeout_ms=5_000)
    assert seen.marker == "one-document" and "Your turn" in seen.turn
    page.wait_for_function(STREAMING_JS)


def test_without_a_stream_the_page_polls_and_still_follows_the_table(
    live_site, make_context, settings
):
    """Live changes off (the embedded default without Redis): no stream, the 2 s poll."""
    settings.PARLOUR_LIVE = False
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    page = make_context().new_page()
    log_in(page, live_site, "bea")
    page.goto(f"{live_site}/matches/{match.pk}/")
    assert page.evaluate("document.body.dataset.live") is None
    page.wait_for_function("() => window.parlourLive && window.parlourLive.polling()")
    table = TablePage(page, "bea")
    before = table.snapshot().version
    match = _awaiting(match, bea)
    assert table.wait_for_version(match.version).version > before


def test_the_badge_and_the_title_follow_the_table_by_the_stream(live_site, make_context):
    """Issue 26 (2) while the stream is up: nothing polls and no table swap asks the badge, so
    the badge's own stream event must bring its count; the tab's title follows too."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    title = f"{get_engine('faraway').title} #{match.pk} · Parlour"
    page = make_context().new_page()
    log_in(page, live_site, "bea")
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function(STREAMING_JS)
    table = TablePage(page, "bea")
    table.mark("one-document")
    badge = page.locator("#turn-badge")
    expect(badge).to_have_attribute("data-count", "0")
    expect(page).to_have_title(title)
    asked = _requests(page)

    # Ann plays her whole turn elsewhere: bea's stream says so, the table, badge and title agree.
    match = _awaiting(match, bea)
    expect(page.locator("#turn-line")).to_contain_text("Your turn", timeout=5_000)
    expect(badge).to_have_attribute("data-count", "1", timeout=5_000)
    expect(page).to_have_title(f"Your turn · {title}", timeout=5_000)
    assert any("/accounts/badge/" in url for url in asked), asked  # asked on its stream's word

    # Bea plays her turn on this page: her count drops at once, as the table says.
    while "Your turn" in table.snapshot().turn:
        table.play(table.snapshot().moves[0])
    expect(page.locator("#turn-line")).to_contain_text("Waiting for ann")
    expect(badge).to_have_attribute("data-count", "0", timeout=5_000)
    expect(page).to_have_title(title, timeout=5_000)
    assert table.snapshot().marker == "one-document"
    assert page.evaluate(STREAMING_JS), "the stream went down: the poll may have done it"
    assert not page.evaluate("() => window.parlourLive.polling()")


def test_a_table_event_during_a_fetch_is_caught_up_after_the_swap(live_site, make_context):
    """A second ``table`` event that comes while the table's fetch is under way: htmx queues its
    fetch on the ``#table`` the first answer swaps out, and never sends it. The page must still
    reach the newest version. The first fetch's answer is held (read from the server first, so it
    carries the older version) until the next move's event has reached the page."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    page = make_context().new_page()
    log_in(page, live_site, "bea")
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function(STREAMING_JS)
    table = TablePage(page, "bea")
    table.mark("one-document")
    before = table.snapshot().version
    held: list[int] = []

    def one_move() -> None:
        _one_move(match)

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
            return
        answer = route.fetch()  # the table at the first move's version
        held.append(answer.status)
        one_move()  # the next move, announced while this fetch is under way
        time.sleep(1.5)  # its event reaches the page meanwhile
        route.fulfill(response=answer)

    page.route(re.compile(r"/matches/\d+/table/"), hold_the_first)
    one_move()
    match.refresh_from_db()
    assert match.version == before + 1
    seen = table.wait_for_version(before + 2, timeout_ms=5_000)
    assert held == [200], "the first fetch was not the one held"
    assert seen.version == before + 2 and seen.marker == "one-document"
    assert page.evaluate(STREAMING_JS)


def _watching(live_site: str, make_context, match: Match, name: str) -> tuple[Page, TablePage]:
    """``name`` (no member of ``match``) on its table page, its stream open."""
    factories.user_make(name)
    page = make_context().new_page()
    log_in(page, live_site, name)
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function(STREAMING_JS)
    table = TablePage(page, name)
    table.mark("one-document")
    return page, table


def test_a_watcher_gets_each_move_on_its_stream_without_a_fetch(live_site, make_context):
    """A watcher's stream carries the table itself (the ``watch`` event): the page swaps it in
    and asks nothing, move after move (the swapped-in table takes the next one too)."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    page, table = _watching(live_site, make_context, match, "cal")
    requests = _requests(page)
    for _ in range(3):
        match = _one_move(match)
        seen = table.wait_for_version(match.version, timeout_ms=5_000)
        assert seen.marker == "one-document"
    assert requests == [], f"the watcher's page asked: {requests}"
    # The swapped-in table is htmx's: its poll URL names the new version.
    assert f"version={match.version}" in page.get_attribute("#table", "hx-get")
    assert page.evaluate(STREAMING_JS)


def test_a_watcher_told_in_numbers_fetches_its_table(live_site, make_context):
    """Phrases shown to watchers make each watcher's table their own once one is said: the
    stream tells the numbers and the page fetches, as before the ``watch`` event."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    Match.objects.filter(pk=match.pk).update(phrases_watchers=True)
    page, table = _watching(live_site, make_context, match, "cal")
    requests = _requests(page)
    match = _awaiting(match, bea if match.awaiting[0] == 0 else ann)
    table.wait_for_version(match.version, timeout_ms=5_000)
    assert requests == [], f"no phrase yet, the same table for all: {requests}"
    phrase_say(match_id=match.pk, user=ann, key="good_luck")
    match = _awaiting(match, bea if match.awaiting[0] == 0 else ann)
    seen = table.wait_for_version(match.version, timeout_ms=5_000)
    assert seen.marker == "one-document"
    assert requests and all("/table/?version=" in url for url in requests), requests

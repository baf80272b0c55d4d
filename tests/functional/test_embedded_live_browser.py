"""The embedded default is live (issue 35, item 1), under ``make run``'s real processes: a
threaded ``runserver``, a Celery worker and beat on kombu's filesystem broker, one SQLite file,
no Redis. A bot's reply and another seat's move reach the open table by its stream (the local
hub, games/live/local.py) without a poll, and an idle open table sends nothing.

``bench/embedded_live.py`` runs the same steps many times, against this code and the commit
before, for docs/performance.md.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Request

from tests.functional.pages import TablePage, log_in
from tests.functional.test_embedded_default import Person, Site, Tally, _table, make_run_site

pytestmark = [pytest.mark.browser]

STREAMING_JS = "() => !!window.parlourLive && window.parlourLive.streaming()"
# Each version #table shows, with the moment (Date.now()) it appeared, and the moment the last
# move's POST was answered (htmx:afterRequest): the page's own clock, the machine's.
WATCH_JS = """() => {
  if (window.__versions) return;
  const shown = () => Number(document.querySelector('#table')?.dataset.version);
  window.__versions = [[Date.now(), shown()]];
  new MutationObserver(() => {
    const v = shown(), last = window.__versions[window.__versions.length - 1];
    if (v !== last[1]) window.__versions.push([Date.now(), v]);
  }).observe(document.querySelector('main'), {childList: true, subtree: true, attributes: true});
  document.addEventListener('htmx:afterRequest', e => {
    if (e.detail.requestConfig && e.detail.requestConfig.verb === 'post') {
      window.__answeredAt = Date.now();
    }
  });
}"""
SHOWN_AT_JS = "v => (window.__versions.find(([, shown]) => shown >= v) || [null])[0]"
TABLE_FETCH = re.compile(r"matches/\d+/table/")
FOLLOWERS = ("accounts/badge/", "notices/next/")


@pytest.fixture
def make_run(tmp_path: Path) -> Iterator[Site]:
    with make_run_site(tmp_path, beat=True) as site:
        yield site


def requests_of(page: Page) -> list[str]:
    """Every request ``page`` sends from now on (their paths), the stream's own included."""
    seen: list[str] = []

    def note(request: Request) -> None:
        seen.append(request.url.split("//", 1)[1].split("/", 1)[1])

    page.on("request", note)
    return seen


def open_table(page: Page, base_url: str, pk: int, live: bool = True) -> Table:
    page.goto(f"{base_url}/matches/{pk}/")
    if live:
        page.wait_for_function(STREAMING_JS, timeout=10_000)
    return Table(page, "ann")


class Table(TablePage):
    def wait_for_moves(self, timeout_ms: int = 15_000) -> None:
        """Until the person is offered a move (the bot may be choosing first)."""
        self.page.wait_for_function(
            "() => !!document.querySelector('#table button.move[data-move]')", timeout=timeout_ms
        )


def bot_reply_ms(page: Page, table: Table, timeout_ms: int = 15_000) -> float:
    """Play the first move offered (again, while the person is still asked: Faraway's turn
    has several steps); ms from the answer that hands the turn to the bot to the worker's next
    version on screen."""
    table.wait_for_moves(timeout_ms)
    while True:
        page.evaluate(WATCH_JS)
        after = table.play(table.snapshot().moves[0])
        if not after.moves or after.status != "active":
            break
    answered_at = page.evaluate("window.__answeredAt")
    table.wait_for_version(after.version + 1, timeout_ms=timeout_ms)
    return page.evaluate(SHOWN_AT_JS, after.version + 1) - answered_at


def other_seat_ms(page: Page, table: Table, mover: Person, pk: int) -> float:
    """``mover`` plays over HTTP; ms from its answer to ``page`` showing the new version (once
    the page shows the version the mover plays on)."""
    status, body, _ = mover.request("poll", "GET", f"/matches/{pk}/table/", htmx=True)
    current = _table(body)
    table.wait_for_version(current.version, timeout_ms=15_000)
    page.evaluate(WATCH_JS)
    fields = {"move": current.moves[0], "version": str(current.version)}
    status, _, _ = mover.request("move", "POST", f"/matches/{pk}/move/", fields, htmx=True)
    answered_at = time.time() * 1000  # the same clock as the page's Date.now()
    assert status == 200, status
    table.wait_for_version(current.version + 1, timeout_ms=15_000)
    return page.evaluate(SHOWN_AT_JS, current.version + 1) - answered_at


def http_move(person: Person, pk: int) -> bool:
    """``person`` plays the first move offered over HTTP; ``False`` if none is."""
    status, body, _ = person.request("poll", "GET", f"/matches/{pk}/table/", htmx=True)
    current = _table(body)
    if not current.moves or current.status != "active":
        return False
    fields = {"move": current.moves[0], "version": str(current.version)}
    status, _, _ = person.request("move", "POST", f"/matches/{pk}/move/", fields, htmx=True)
    return status == 200


def test_a_bots_reply_reaches_the_screen_by_the_stream_without_a_poll(make_run, make_context):
    site = make_run
    ann = Person(site.base_url, "ann", Tally())
    ann.log_in()
    pk = ann.match_new("faraway", ["me", "greedy"])
    page = make_context().new_page()
    log_in(page, site.base_url, "ann")
    table = open_table(page, site.base_url, pk)
    table.wait_for_moves()
    sent = requests_of(page)
    took = bot_reply_ms(page, table)
    print(f"a greedy bot's reply to the person's screen: {took:.0f} ms")
    assert took < 1500  # a poll would be 2 s apart; the worker looks every 0.05 s
    # Only the moves, the partials the stream announced and what a swapped-in table asks
    # (the badge when its count changed, the next table waiting): no poll.
    fetched = [p for p in sent if not p.startswith(f"matches/{pk}/move/")]
    assert all(TABLE_FETCH.match(p) or p.startswith(FOLLOWERS) for p in fetched), sent
    # A poll asks again for the version it has while nothing changed; a stream's fetch asks
    # once a version.
    tables = [p for p in fetched if TABLE_FETCH.match(p)]
    assert len(tables) == len(set(tables)), sent
    assert not [p for p in sent if p.startswith("live/")], f"the stream was reopened: {sent}"
    assert page.evaluate(STREAMING_JS)


def test_another_seats_move_arrives_by_the_stream_and_an_idle_table_sends_nothing(
    make_run, make_context
):
    site = make_run
    tally = Tally()
    ann, bea = Person(site.base_url, "ann", tally), Person(site.base_url, "bea", tally)
    ann.log_in()
    bea.log_in()
    pk = ann.match_new("faraway", ["me", "person"])
    status, _, _ = bea.request("join", "POST", f"/matches/{pk}/join/")
    assert status == 302
    page = make_context().new_page()
    log_in(page, site.base_url, "ann")
    table = open_table(page, site.base_url, pk)
    sent = requests_of(page)
    page.wait_for_timeout(10_000)
    assert sent == [], f"an idle open table asked in 10 s: {sent}"
    # The deal decides who begins: when it is ann, she plays her turn over HTTP (a draw, then
    # a card: a Faraway turn may take two moves) until the turn is bea's.
    for _ in range(4):
        if bea.open_table(pk).moves:
            break
        assert http_move(ann, pk), "neither ann nor bea is asked to move"
    else:
        pytest.fail("bea is not asked to move after ann's turn")
    took = other_seat_ms(page, table, bea, pk)
    print(f"the other seat's move to ann's screen: {took:.0f} ms")
    assert took < 1000
    assert sent and all(TABLE_FETCH.match(p) or p.startswith(FOLLOWERS) for p in sent), sent
    assert not [p for p in sent if p.startswith("live/")], f"the stream was reopened: {sent}"

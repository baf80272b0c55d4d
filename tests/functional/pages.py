"""What a person does in the browser, and what they see on a table page.

Selectors are roles, labels and the table's documented ids (``#table`` with ``data-version``,
``#turn-line``, ``#event-log``, ``#pack-count``, ``#hand``, ``#players``, ``#discards``), so the
page's markup may change around them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.factories import PASSWORD

# Whether the page's live stream is open (static/js/live.js).
STREAMING_JS = "() => !!window.parlourLive && window.parlourLive.streaming()"

# Everything a check needs, read in one script so a poll swapping ``#table`` cannot tear it.
SNAPSHOT_JS = """
() => {
  const table = document.querySelector('#table');
  if (!table) return null;
  const codes = (root, sel) =>
    root ? [...root.querySelectorAll(sel)].map(e => e.dataset.card) : [];
  const players = [...table.querySelectorAll('#players [data-seat]')].map(p => ({
    seat: Number(p.dataset.seat),
    row: codes(p.querySelector('.story-row'), '[data-card]'),
    text: p.innerText,
  }));
  const pack = table.querySelector('#pack-count');
  return {
    version: Number(table.dataset.version),
    status: table.dataset.status,
    turn: (table.querySelector('#turn-line')?.innerText || '').trim(),
    log: [...table.querySelectorAll('#event-log li')].map(li => li.innerText.trim()),
    pack: pack ? Number(pack.innerText) : null,
    hand: codes(table.querySelector('#hand'), '[data-card]'),
    discards: codes(table.querySelector('#discards'), '[data-card]'),
    players: players,
    all_cards: codes(table, '[data-card]'),
    moves: [...table.querySelectorAll('button.move[data-move]')].map(b => b.dataset.move),
    error: (table.querySelector('#move-error')?.innerText || '').trim(),
    marker: window.__parlourMarker || null,
    origin: performance.timeOrigin,
  };
}
"""


@dataclass
class Snapshot:
    version: int
    status: str
    turn: str
    log: list[str]  # newest first, as the page lists it
    pack: int | None
    hand: list[str]
    discards: list[str]
    players: list[dict[str, Any]]
    all_cards: list[str]
    moves: list[dict[str, Any]]
    error: str
    marker: str | None
    origin: float  # performance.timeOrigin: a new document (a reload) gets a new one


def register(page: Page, base_url: str, username: str) -> None:
    """Through the real registration form; lands in the lobby, logged in."""
    page.goto(f"{base_url}/accounts/register/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(f"{base_url}/matches/")
    expect(page.get_by_role("link", name=username)).to_be_visible()


def tab_to(page: Page, locator: Locator, what: str, presses: int = 40) -> None:
    """Press Tab until ``locator`` has the focus (at most ``presses`` times), as a keyboard
    user reaches it; a failure names ``what`` was never reached."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if locator.evaluate("el => el === document.activeElement"):
            return
    raise AssertionError(f"{what} is never reached with Tab")


def log_in(page: Page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name=username)).to_be_visible()


class TablePage:
    """One player's (or a spectator's) open table page."""

    def __init__(self, page: Page, name: str) -> None:
        self.page = page
        self.name = name

    def mark(self, marker: str) -> None:
        """A value only this document holds: if it survives, the page was never reloaded."""
        self.page.evaluate("m => { window.__parlourMarker = m; }", marker)

    def snapshot(self) -> Snapshot:
        raw = self.page.evaluate(SNAPSHOT_JS)
        assert raw is not None, f"{self.name}'s page has no #table"
        raw["moves"] = [json.loads(m) for m in raw["moves"]]
        return Snapshot(**raw)

    def wait_for_version(self, version: int, timeout_ms: int = 10_000) -> Snapshot:
        self.page.wait_for_function(
            "v => Number(document.querySelector('#table')?.dataset.version) >= v",
            arg=version,
            timeout=timeout_ms,
        )
        return self.snapshot()

    def play(self, move: dict[str, Any]) -> Snapshot:
        """Click the button offering ``move`` and wait for the table htmx swaps in."""
        before = self.snapshot()
        wanted = [i for i, offered in enumerate(before.moves) if offered == move]
        assert wanted, f"{self.name} is not offered {move}; offered {before.moves}"
        self.page.locator("#table button.move[data-move]").nth(wanted[0]).click()
        # The refusal (if any) comes back as the same table at the same version, with #move-error.
        self.page.wait_for_function(
            "v => { const t = document.querySelector('#table');"
            " return t && (Number(t.dataset.version) > v || t.querySelector('#move-error')); }",
            arg=before.version,
        )
        after = self.snapshot()
        assert not after.error, f"{self.name}'s move {move} was refused: {after.error}"
        return after


_VISIBILITY_JS = """state => {
  Object.defineProperty(document, 'visibilityState', {value: state, configurable: true});
  Object.defineProperty(document, 'hidden', {value: state === 'hidden', configurable: true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def tab_visibility_set(page: Page, state: str) -> None:
    """Make the page believe its tab went ``"hidden"`` or ``"visible"`` (the event and both
    properties the scripts read), as switching tabs would."""
    page.evaluate(_VISIBILITY_JS, state)

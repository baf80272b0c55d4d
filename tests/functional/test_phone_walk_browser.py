"""A person plays a whole match of each game against a bot on a phone (390x844), tapping only what
the screen shows (issue 33, "Phone" and "Desktop 1280x800").

At every turn of theirs the page is measured as it stands, never scrolled by the person:

- every control one may act on (the header's links, the match links, every move button under a
  card or in the bar, the phrase picker, the leave links) is at least 44x44 CSS px (WCAG 2.2's
  target size, 2.5.5; the issue asks the stricter 44 rather than 2.5.8's 24);
- every move the table offers (the hand's, the pack's, the discards one may draw from) lies on the
  first screen, 0..844 px down and inside the width;
- the card labels are readable (12 px or more);
- the header is one compact row.

The move is then made by a mouse click at the centre of the button's box as measured (a tap
where the eye sees it: nothing scrolls it into view first). At 1280x800 a fresh load of a match
in progress shows every offered move above the fold, and a move made from low on the page
brings the table's turn line back into view.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Page

from games.models import Match
from games.services import match_create, move_submit
from tests import factories
from tests.functional.pages import TablePage, log_in
from tests.functional.test_browser_play import choose
from tests.functional.test_screenshots import CASES, open_table, overflowing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
FOLD = {"width": 1280, "height": 800}
MIN_TARGET = 44  # CSS px, each side
MIN_LABEL_PX = 12
# One row: the brand and the links beside it (44 px targets and a little padding).
MAX_NAV_PX = 64
# A bot turn comes by the table's 2 s poll; allow for a busy machine.
TURN_WAIT_MS = 20_000
# A Faraway match is ~100 moves a seat; Gulliver plays to a small target (one or two rounds).
MAX_MOVES = 400
GULLIVER_TARGET = 10

# Every control a person may act on, as the page lays it out now (viewport coordinates). The
# footer's one link sits inside its sentence (WCAG 2.5.8's "inline" exception) and the skip link
# is off screen until focused: neither is measured.
CONTROLS_JS = """
() => {
  const seen = [];
  const sel = 'a[href], button, select, input:not([type=hidden]), summary, textarea';
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('.site-footer') || el.classList.contains('skip-link')) continue;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
    const name = (el.getAttribute('aria-label') || el.innerText || el.value || el.id || '')
      .trim().replace(/\\s+/g, ' ').slice(0, 40);
    seen.push({
      what: `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${name}"`,
      move: el.matches('#table button.move[data-move]'),
      move_json: el.dataset.move || null,
      left: r.left, top: r.top, right: r.right, bottom: r.bottom,
      width: r.width, height: r.height,
    });
  }
  return seen;
}
"""

# The text on the table's cards (corners, names, words, parts of speech) that is shown.
LABELS_JS = """
() => [...document.querySelectorAll('#table .card .corner, #table .card .name, '
    + '#table .card .word, #table .card .pos, #table .card .count')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).display !== 'none')
  .map(e => ({what: `${e.className} "${e.textContent.trim()}"`,
              px: parseFloat(getComputedStyle(e).fontSize)}))
"""


def _size(c: dict[str, Any]) -> str:
    return f"{c['what']} {round(c['width'])}x{round(c['height'])}"


def small_targets(controls: list[dict[str, Any]]) -> list[str]:
    return [
        _size(c)
        for c in controls
        if c["width"] < MIN_TARGET - 0.5 or c["height"] < MIN_TARGET - 0.5
    ]


def moves_off_screen(controls: list[dict[str, Any]], viewport: dict[str, int]) -> list[str]:
    return [
        f"{c['what']} at y {round(c['top'])}..{round(c['bottom'])}"
        for c in controls
        if c["move"]
        and (
            c["top"] < -0.5
            or c["bottom"] > viewport["height"] + 0.5
            or c["left"] < -0.5
            or c["right"] > viewport["width"] + 0.5
        )
    ]


def small_labels(page: Page) -> list[str]:
    return sorted(
        {
            f"{label['what']} {label['px']}px"
            for label in page.evaluate(LABELS_JS)
            if label["px"] < MIN_LABEL_PX - 0.01
        }
    )


def nav_height(page: Page) -> float:
    return page.locator(".site-header").evaluate("el => el.getBoundingClientRect().height")


def _bot_match(game: str, person: Any, seed: int) -> Match:
    options = {"target": GULLIVER_TARGET} if game == "gulliver" else None
    return match_create(
        game=game,
        num_players=2,
        created_by=person,
        bots={1: "greedy"},
        seed=seed,
        options=options,
        public=True,
    )


def _wait_for_turn_or_end(page: Page) -> str:
    page.wait_for_function(
        "() => { const t = document.querySelector('#table');"
        " return t && (t.dataset.status === 'finished'"
        "   || (t.dataset.yourTurn === 'true' && t.querySelector('button.move[data-move]'))); }",
        timeout=TURN_WAIT_MS,
    )
    return page.locator("#table").get_attribute("data-status")


def _pick(game: str, table: TablePage, rng: random.Random, draws: int) -> dict[str, Any]:
    offered = table.snapshot().moves
    if game == "faraway":
        return choose(offered, draws)  # draws alternate between the pack and the discards
    return rng.choice(offered)


def _tap(page: Page, control: dict[str, Any]) -> None:
    """A click at the centre of the button's box, where nothing else may lie on top of it."""
    x, y = (control["left"] + control["right"]) / 2, (control["top"] + control["bottom"]) / 2
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.dataset.move || null",
        [x, y],
    )
    assert hit == control["move_json"], f"{control['what']} is covered at its centre by {hit}"
    page.mouse.click(x, y)


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_a_phone_plays_a_whole_match_against_a_bot_by_tapping_the_first_screen(
    game: str, live_server: Any, make_context: Any
) -> None:
    person = factories.user_make("pip")
    match = _bot_match(game, person, seed=7)
    page = make_context(viewport=PHONE).new_page()
    log_in(page, live_server.url, "pip")
    page.goto(f"{live_server.url}/matches/{match.pk}/")

    header = nav_height(page)
    assert header <= MAX_NAV_PX, f"the header takes {header:.0f} of 844 px on a phone"
    # The notices badge stays in sight in the compact header (the other links may scroll).
    badge = page.locator("#turn-badge").bounding_box()
    assert badge and badge["x"] >= 0 and badge["x"] + badge["width"] <= PHONE["width"], badge
    table = TablePage(page, "pip")
    rng = random.Random(7)
    draws = 0
    moves = 0
    kinds: set[str] = set()
    while _wait_for_turn_or_end(page) != "finished":
        assert moves < MAX_MOVES, "the match does not end"
        controls = page.evaluate(CONTROLS_JS)
        where = f"{game}, move {moves + 1}, scrolled to {page.evaluate('window.scrollY')}"
        small = small_targets(controls)
        assert not small, f"{where}: tap targets under {MIN_TARGET}x{MIN_TARGET}: {small}"
        off = moves_off_screen(controls, PHONE)
        assert not off, f"{where}: moves off the first screen: {off}"
        labels = small_labels(page)
        assert not labels, f"{where}: card labels under {MIN_LABEL_PX} px: {labels}"
        assert overflowing(page) == [], where

        move = _pick(game, table, rng, draws)
        before = table.snapshot()
        control = next(c for c in controls if c["move"] and json.loads(c["move_json"]) == move)
        _tap(page, control)
        page.wait_for_function(
            "v => { const t = document.querySelector('#table');"
            " return t && (Number(t.dataset.version) > v || t.querySelector('#move-error')); }",
            arg=before.version,
        )
        assert not table.snapshot().error, f"{where}: {move} was refused"
        moves += 1
        kinds.add(f"{move['type']}:{move.get('source', '')}")
        if move["type"] == "draw":
            draws += 1

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert moves >= 5, (moves, kinds)
    if game == "faraway":
        assert {"draw:pack", "draw:discard", "play:", "discard:"} <= kinds, kinds
    # The finished table: its links and buttons (Replay, Analyse, Play again) are taps too.
    small = small_targets(page.evaluate(CONTROLS_JS))
    assert not small, f"{game}, finished: tap targets under {MIN_TARGET}x{MIN_TARGET}: {small}"


def _bot_match_at_a_turn(game: str, person: Any, turns: int) -> Match:
    """A bot match played (first legal moves, through the service) until ``person`` has had
    ``turns`` turns and is awaited again."""
    match = _bot_match(game, person, seed=7)
    seat = match.seats.get(user=person)
    played = 0
    while True:
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE
        if match.awaiting == [seat.index]:
            if played >= turns:
                return match
            move = factories.legal_moves(match, seat.index)[-1]
            move_submit(match=match, seat=seat, move=move, expected_version=match.version)
            played += 1


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_at_1280x800_the_moves_are_above_the_fold_and_a_move_brings_the_turn_line_back(
    game: str, live_server: Any, make_context: Any
) -> None:
    person = factories.user_make("pip")
    match = _bot_match_at_a_turn(game, person, turns=6)
    page = make_context(viewport=FOLD, reduced_motion="reduce").new_page()
    log_in(page, live_server.url, "pip")
    for step in range(4):
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        assert _wait_for_turn_or_end(page) == "active"
        controls = page.evaluate(CONTROLS_JS)
        off = moves_off_screen(controls, FOLD)
        assert not off, f"{game} at 1280x800, fresh load {step}: moves below the fold: {off}"

        # The person scrolled down (to the log, say) and moves from there: once the table is
        # back, its turn line is in view, not left above the window.
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        before = TablePage(page, "pip").snapshot()
        button = page.locator("#table button.move[data-move]").last
        button.scroll_into_view_if_needed()
        button.click()
        page.wait_for_function(
            "v => Number(document.querySelector('#table')?.dataset.version) > v",
            arg=before.version,
        )
        page.wait_for_timeout(300)
        top = page.locator("#turn-line").evaluate("el => el.getBoundingClientRect().top")
        assert 0 <= top <= FOLD["height"] - 40, (
            f"{game} at 1280x800, after move {step}: the turn line is at y {top:.0f}"
        )
        _wait_for_turn_or_end(page)  # the bot's answer, by the table's poll


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("game", sorted(CASES))
def test_at_1280x800_a_four_seat_table_shows_its_moves_above_the_fold(
    game: str, live_server: Any, make_context: Any
) -> None:
    page, _ = open_table(game, live_server.url, make_context, FOLD)
    controls = page.evaluate(CONTROLS_JS)
    assert any(c["move"] for c in controls)
    off = moves_off_screen(controls, FOLD)
    assert not off, f"{game}, four seats at 1280x800: moves below the fold: {off}"

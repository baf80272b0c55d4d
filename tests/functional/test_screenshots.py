"""Each game's table mid-game in a real browser: it lays out without overflow, and it can be
photographed for the README.

The positions are reached by playing a fixed seed through ``move_submit`` (the same service the
move view calls), so the pictures come out the same every time. By default the screenshots go
to a temporary directory; to regenerate the committed ones:

    PARLOUR_SCREENSHOTS=1 .venv/bin/python -m pytest tests/functional/test_screenshots.py

which writes ``docs/screenshots/faraway.png`` and ``docs/screenshots/gulliver.png`` (full page
at 1280 px wide; sequences are reset, so each shows match #1).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games.engines import get_engine
from games.models import Match
from games.services import move_submit
from tests import factories
from tests.functional.pages import log_in

SCREENSHOT_DIR = Path(settings.BASE_DIR) / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SEEDS = range(1, 40)
Moves = list[tuple[int | None, dict[str, Any] | None]]


def _faraway_wanted(view: dict[str, Any]) -> bool:
    """Seat 0 about to lay a card, three rows of two or more, a penalty being served."""
    return (
        view["awaiting"] == [0]
        and view["phase"] == "play"
        and any(m["type"] == "play" for m in view["legal_moves"])
        and sum(len(row) >= 2 for row in view["rows"]) >= 3
        and any(view["penalties"])
        and view["pack_count"] > 4
        and len(view["hand"]) >= 4
    )


def _gulliver_wanted(view: dict[str, Any]) -> bool:
    """Seat 0 to move in round 2 or later (so scores are up), a sentence of five words or more."""
    return (
        view["awaiting"] == [0]
        and view["round"] >= 2
        and len(view["sentence"]) >= 5
        and any(m["type"] in {"play", "prepend"} for m in view["legal_moves"])
        and len(view["hand"]) >= 3
    )


def _pick(game: str, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Lay cards (and, in the Faraway Tree, penalties) whenever possible, else anything legal."""
    eager = {"faraway": ("play", "penalty"), "gulliver": ("play", "prepend")}[game]
    preferred = [m for m in legal if m["type"] in eager]
    if game == "faraway" and preferred:
        return preferred[0]
    return rng.choice(preferred or legal)


def find_position(
    game: str, num_players: int, wanted: Callable[[dict[str, Any]], bool]
) -> tuple[int, Moves]:
    """The first seed whose play reaches a position seat 0's view ``wanted``, and its moves.

    Engine only (fast); the test then replays the moves through the site's service. The dealer
    is the one ``match_start`` will draw for that seed.
    """
    engine = get_engine(game)
    for seed in SEEDS:
        options = {"dealer": factories.dealer_for(seed, num_players)}
        state = engine.new_game(num_players, seed, options)
        rng = random.Random(seed)
        moves: Moves = []
        while not engine.is_over(state) and len(moves) < 600:
            if engine.round_over(state):
                state = engine.next_round(state)
                moves.append((None, None))
                continue
            if wanted(engine.view(state, 0)):
                return seed, moves
            (seat,) = engine.awaiting(state)
            move = _pick(game, engine.legal_moves(state, seat), rng)
            moves.append((seat, move))
            state = engine.apply(state, seat, move)
    raise AssertionError(f"no seed in {SEEDS} reaches the wanted {game} position")


def play_to_position(game: str, usernames: list[str], wanted: Callable[..., bool]) -> Match:
    seed, moves = find_position(game, len(usernames), wanted)
    users = [factories.user_make(name) for name in usernames]
    match = factories.match_make(game=game, players=users, seed=seed)
    seats = {seat.index: seat for seat in match.seats.all()}
    for seat, move in moves:
        if seat is None:
            continue  # the site deals the next Gulliver round itself, as the search did
        # Re-read: a task run on commit (the next Gulliver deal) may have moved the version on.
        match.refresh_from_db()
        move_submit(match=match, seat=seats[seat], move=move, expected_version=match.version)
    match.refresh_from_db()
    engine = get_engine(game)
    assert wanted(engine.view(engine.load(match.state), 0)), "the site replay diverged"
    return match


OVERFLOW_JS = """
() => {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  // The innermost elements sticking out past the right edge name the culprit.
  const out = [...document.querySelectorAll('body *')].filter(
    e => e.getBoundingClientRect().right > width + 0.5);
  return out.filter(e => !out.some(o => o !== e && e.contains(o))).slice(0, 8).map(e =>
    `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')}`
    + ` right=${Math.round(e.getBoundingClientRect().right)} of ${width}`);
}
"""


def overflowing(page: Any) -> list[str]:
    """The elements that make the page scroll sideways (empty: it fits its viewport)."""
    return page.evaluate(OVERFLOW_JS)


def screenshot_path(name: str, tmp_path: Path) -> Path:
    """Where a picture goes: ``docs/screenshots/<name>.png`` with ``PARLOUR_SCREENSHOTS=1``,
    else the test's temporary directory."""
    if os.environ.get("PARLOUR_SCREENSHOTS") == "1":
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        return SCREENSHOT_DIR / f"{name}.png"
    return tmp_path / f"{name}.png"


CASES = {
    "faraway": (["jo", "bessie", "fanny", "dick"], _faraway_wanted),
    "gulliver": (["lemuel", "flimnap", "reldresal", "munodi"], _gulliver_wanted),
}


def open_table(
    game: str, base_url: str, make_context: Callable[..., Any], viewport: dict[str, int]
) -> tuple[Any, dict[str, Any]]:
    """Seat 0's table page at the game's mid-game position, and seat 0's engine view of it."""
    usernames, wanted = CASES[game]
    match = play_to_position(game, usernames, wanted)
    engine = get_engine(game)
    view = engine.view(engine.load(match.state), 0)
    page = make_context(viewport=viewport).new_page()
    log_in(page, base_url, usernames[0])
    page.goto(f"{base_url}/matches/{match.pk}/")
    assert page.locator("#table").get_attribute("data-version") == str(match.version)
    return page, view


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("game", sorted(CASES))
def test_table_mid_game_shows_the_position_and_is_photographed(
    game: str, live_server, make_context, tmp_path: Path
) -> None:
    page, view = open_table(game, live_server.url, make_context, DESKTOP)
    assert page.locator("#turn-line").inner_text().strip() == "Your turn"
    assert page.locator("#hand [data-card]").count() == len(view["hand"])
    assert page.locator("#hand button.move").count() >= 1
    if game == "faraway":
        laid = sum(len(row) for row in view["rows"])
        assert page.locator("#players [data-card]").count() == laid
        assert page.locator("#players [data-penalty]").count() == sum(map(bool, view["penalties"]))
    else:
        assert page.locator("#sentence [data-card]").count() == len(view["sentence"])
        for player in page.locator("#scores tbody tr").all():
            seat = int(player.get_attribute("data-seat"))
            standing = player.locator("td").last.inner_text().strip()
            assert standing == str(view["scores"][seat]["standing"])
    wide = overflowing(page)
    assert not wide, f"the table scrolls sideways at desktop width: {'; '.join(wide)}"

    page.screenshot(
        path=str(screenshot_path(game, tmp_path)), full_page=True, animations="disabled"
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("game", sorted(CASES))
def test_table_mid_game_fits_a_phone(game: str, live_server, make_context) -> None:
    page, view = open_table(game, live_server.url, make_context, PHONE)
    assert page.locator("#turn-line").is_visible()
    assert page.locator("#hand [data-card]").count() == len(view["hand"])
    wide = overflowing(page)
    assert not wide, f"the table scrolls sideways on a phone: {'; '.join(wide)}"

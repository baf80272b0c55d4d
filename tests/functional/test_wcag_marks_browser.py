"""No meaning by colour alone on the table (WCAG 1.4.1; docs/accessibility.md, "WCAG 2.2 AA"),
checked in a real Chromium on running tables of each game, as a seat and as a watcher, and on
finished tables: every mark drawn in a colour says the same in words beside it.

- the seat awaited (its gold border, its row's tint in the scores) carries "to move";
- the reader's own seat (its inner ring) is labelled "(you)";
- a Faraway card's coloured band comes with its number, a Gulliver word card's coloured edge
  with its word class written on it, a penalty card with its name;
- a card that can be played (its gold ring) carries the move's button in words;
- a negative standing (red) and a rating's rise or fall (green, red) carry their sign.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from games.models import Match
from tests import factories
from tests.analysis_matches import play_greedy
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE
from tests.functional.wcag_walk import measure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _check(page: Page, url: str, kind: str, found: list[str]) -> dict[str, int]:
    page.goto(url)
    found.extend(f"{kind}: {line}" for line in measure(page, "unworded"))
    return measure(page, "markCounts")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_no_mark_is_colour_alone(live_server, make_context, viewport):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    factories.user_make("cal")
    base = live_server.url
    found: list[str] = []
    seat = make_context(viewport=viewport).new_page()
    log_in(seat, base, "ann")
    watcher = make_context(viewport=viewport).new_page()
    log_in(watcher, base, "cal")
    seen = {"awaited": 0, "cards": 0, "playable": 0, "changes": 0}
    for n, game in enumerate(("faraway", "gulliver")):
        running = play_greedy(
            factories.match_make(game=game, players=[ann, bea], seed=70 + n), until_ply=6
        )
        done = play_greedy(factories.match_make(game=game, players=[ann, bea]))
        assert done.status == Match.Status.FINISHED
        # The seat whose turn it is sees its playable cards.
        mover = ann if running.awaiting[0] == 0 else bea
        mover_page = seat
        if mover == bea:
            mover_page = make_context(viewport=viewport).new_page()
            log_in(mover_page, base, "bea")
        pages = [
            (seat, f"/matches/{running.pk}/", f"{game} in play, ann"),
            (mover_page, f"/matches/{running.pk}/", f"{game} in play, the seat to move"),
            (watcher, f"/matches/{running.pk}/", f"{game} in play, a watcher"),
            (seat, f"/matches/{done.pk}/", f"{game} finished"),
        ]
        for page, path, kind in pages:
            for mark, count in _check(page, base + path, kind, found).items():
                seen[mark] += count
    assert all(seen.values()), seen
    assert found == [], "marks in colour alone:\n" + "\n".join(found)


def test_the_check_sees_a_colour_only_mark(live_server, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    running = play_greedy(
        factories.match_make(game="faraway", players=[ann, bea], seed=70), until_ply=6
    )
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{running.pk}/")
    assert measure(page, "unworded") == []
    page.evaluate("() => document.querySelectorAll('#table .badge.turn').forEach(b => b.remove())")
    assert any("to move" in line for line in measure(page, "unworded"))

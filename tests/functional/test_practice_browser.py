"""The first match with hints (docs/lessons.md, "The first match, with hints"), in a browser:
one click on the practice page starts it, the moves the person may make are marked, a card
that cannot be played says why beside the hand, a move is played and the greedy bot replies.
Both games, at desktop and phone size; ``PARLOUR_SCREENSHOTS=1`` keeps the pictures."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engines import get_engine
from games.models import Match
from games.presentation.reasons import refusals_words
from tests import factories
from tests.functional.pages import TablePage, log_in
from tests.functional.test_screenshots import PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


def _practice_with_a_refusal(page: Page, base_url: str, game: str) -> tuple[Match, str, str]:
    """Start the practice match with one click, again until the deal leaves the person a card
    that cannot be played now (a Gulliver hand of nouns alone has none); that card and why."""
    engine = get_engine(game)
    for _ in range(20):
        page.goto(f"{base_url}/learn/{game}/practice/")
        page.get_by_role("button", name="Play against the easy bot").click()
        expect(page.locator("#table")).to_be_visible()
        match = Match.objects.get(practice=True, status=Match.Status.ACTIVE)
        refused = refusals_words(engine.refusals(engine.load(match.state), 0))
        if refused:
            card, why = next(iter(refused.items()))
            return match, card, why
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    pytest.fail("twenty deals and never a card that cannot be played")


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_first_hinted_match_marks_moves_says_why_and_the_bot_replies(
    game: str, size: str, live_server, make_context, tmp_path: Path
) -> None:
    factories.user_make("ann")
    page = make_context(viewport=DESKTOP if size == "desktop" else PHONE).new_page()
    log_in(page, live_server.url, "ann")
    match, card, why = _practice_with_a_refusal(page, live_server.url, game)
    assert page.url.endswith(f"/matches/{match.pk}/")
    expect(page.locator("#turn-line")).to_contain_text("Your turn")
    expect(page.locator("#hints-text")).to_contain_text("Hints are on")

    # The moves on offer are marked with a tick that has a name, not by colour alone.
    marks = page.get_by_role("img", name="you may play this")
    drawn = page.get_by_role("img", name="you may draw from the pack")
    assert marks.count() + drawn.count() >= 1
    expect(marks.or_(drawn).first).to_be_visible()

    # A card that cannot be played says why beside the hand, in the engine's own words (for
    # Gulliver, the grammar referee's), and is outlined as the one picked.
    beside = page.locator("#hint-why")
    expect(beside).to_be_hidden()
    slot = page.locator(f'#hand .slot.unplayable:has([data-card="{card}"])').first
    slot.click(force=True)  # aria-disabled: a person's click is not held back
    expect(beside).to_be_visible()
    expect(beside).to_contain_text(why)
    expect(slot).to_have_class("slot unplayable picked")
    expect(page.locator("#request-error")).to_be_hidden()
    assert not overflowing(page), "the hinted table scrolls sideways"
    page.screenshot(
        path=str(screenshot_path(f"practice-hints-{game}-{size}", tmp_path)),
        full_page=True,
        animations="disabled",
    )

    # A marked move is played; the greedy bot replies and the turn comes back.
    table = TablePage(page, "ann")
    version = table.snapshot().version
    while "Your turn" in table.snapshot().turn:
        table.play(table.snapshot().moves[0])
    page.wait_for_function(
        "() => document.querySelector('#turn-line')?.textContent.includes('Your turn')",
        timeout=15_000,
    )
    match.refresh_from_db()
    assert match.version > version + 1
    bot_moves = match.moves.filter(seat=1).count()
    assert bot_moves >= 1, "the greedy bot moved"
    expect(page.locator("#hints-text")).to_contain_text("Hints are on")

    # Hints off from the table: the marks go, and the button to bring them back stays.
    page.locator("#hints-toggle").click()
    expect(page.get_by_role("button", name="Turn hints on")).to_be_visible()
    expect(page.locator("#table .hint-mark")).to_have_count(0)
    expect(page.locator("#hint-why")).to_have_count(0)

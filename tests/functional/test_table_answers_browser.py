"""The table answers every click (issue 33): a card or the pack that offers no move says why in
the rules' words when clicked or pressed from the keyboard, a Gulliver word that cannot go in
gives the grammar referee's reason, "confirm moves" holds a move until it is confirmed, and after
a move the next table waiting shows (or, with the setting on, opens at once)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.services.play_settings import play_settings_save
from games.engines import get_engine
from games.models import Match
from games.presentation.reasons import reason_words, refusals_words
from games.services import move_submit
from tests import factories
from tests.functional.pages import TablePage, log_in, tab_to
from tests.functional.test_screenshots import PHONE, play_to_position, screenshot_path
from tests.functional.test_table_browser import _awaiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AT_ONCE_MS = 10_000


def _open(page: Page, url: str, match: Match) -> TablePage:
    page.goto(f"{url}/matches/{match.pk}/")
    expect(page.locator("#table")).to_be_visible()
    return TablePage(page, "ann")


# A card that offers no move is aria-disabled (it stays focusable and says why), which
# Playwright's click would wait on as "not enabled": a person's click is not held back, so the
# tests click it with force=True.


def _notice(page: Page):
    return page.locator("#request-error")


def test_an_unplayable_faraway_card_and_the_pack_say_why_and_the_pack_draws(
    live_server, make_context
):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    table = _open(page, live_server.url, match)
    expect(page.locator("#turn-line")).to_contain_text("Your turn")

    # Before the draw: a card of the hand says so, in the rules' words, and nothing is sent.
    version = table.snapshot().version
    page.locator("#hand .slot.unplayable").first.click(force=True)
    expect(_notice(page)).to_be_visible()
    expect(_notice(page)).to_have_text("Draw first: your turn starts with the draw.")
    assert table.snapshot().version == version

    # The pack draws when clicked (the move on offer), then says it was drawn from already.
    pack_before = table.snapshot().pack
    page.locator("#centre .pile.pack").click()
    table.wait_for_version(version + 1)
    assert table.snapshot().pack == pack_before - 1
    pack = page.locator("#centre .pile.pack")
    expect(pack).to_have_attribute("aria-disabled", "true")
    # From the keyboard: the pack is focusable and Enter says why.
    pack.focus()
    page.keyboard.press("Enter")
    expect(_notice(page)).to_have_text("You have already drawn this turn.")
    assert table.snapshot().version == version + 1

    # A card with one move hung on it makes that move when the card itself is clicked.
    single = page.evaluate(
        "() => [...document.querySelectorAll('#hand .slot')]"
        ".findIndex(s => s.querySelectorAll('button.move').length === 1)"
    )
    assert single >= 0, "no card of the hand offers exactly one move here"
    page.locator("#hand .slot").nth(single).locator("[data-card]").click()
    table.wait_for_version(version + 2)

    # Not her turn: every card and pile says whose turn it is.
    while "Your turn" in table.snapshot().turn:
        table.play(table.snapshot().moves[0])
    page.locator("#hand .slot.unplayable").first.click(force=True)
    expect(_notice(page)).to_have_text("It is not your turn: waiting for bea.")
    described = page.locator("#hand .slot.unplayable").first.get_attribute("aria-describedby")
    expect(page.locator(f"#{described}")).to_have_text("It is not your turn: waiting for bea.")


def test_a_gulliver_word_that_cannot_go_in_gives_the_referees_reason(live_server, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    engine = get_engine("gulliver")
    for seed in range(60):
        match = factories.match_make(game="gulliver", players=[ann, bea], seed=seed)
        seat = match.awaiting[0]
        if match.seats.get(index=seat).user_id != ann.pk:
            continue
        state = engine.load(match.state)
        refused = refusals_words(engine.refusals(state, seat))
        if refused:
            break
    else:
        pytest.fail("no deal gave ann a word that cannot start the sentence")
    card, why = next(iter(refused.items()))
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    _open(page, live_server.url, match)
    slot = page.locator(f'#hand .slot.unplayable:has([data-card="{card}"])').first
    slot.click(force=True)
    expect(_notice(page)).to_have_text(why)
    assert why == reason_words(engine.explain(state, seat, {"type": "play", "card": card}))
    assert "noun" in why  # the referee's own words: a sentence starts with a noun


def _moves_made(match: Match) -> int:
    match.refresh_from_db()
    return match.version


def test_confirm_moves_holds_a_move_until_it_is_confirmed(live_server, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    play_settings_save(user_id=ann.pk, confirm_moves="on", next_table_at_once=False)
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    table = _open(page, live_server.url, match)
    version = _moves_made(match)
    draw = page.locator('#table button.move[data-move*="pack"]').first

    # One press picks the move and asks; Cancel leaves the table as it was.
    draw.click()
    confirm = page.locator("#move-confirm")
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("Draw from the pack?")
    expect(page.locator("#move-confirm-yes")).to_be_focused()
    page.wait_for_timeout(500)
    assert _moves_made(match) == version, "one press alone moved"
    page.get_by_role("button", name="Cancel").click()
    expect(confirm).to_have_count(0)
    assert _moves_made(match) == version

    # Escape cancels too; then Confirm makes the move.
    draw.click()
    page.keyboard.press("Escape")
    expect(confirm).to_have_count(0)
    # From the keyboard: Confirm has the focus, Enter makes the move, and the focus stays in
    # the table (on the first move now offered) for the next one.
    draw.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#move-confirm-yes")).to_be_focused()
    page.keyboard.press("Enter")
    table.wait_for_version(version + 1)
    assert _moves_made(match) == version + 1
    page.wait_for_function(
        "() => document.querySelector('#table').contains(document.activeElement)"
    )

    # A second press of the same move makes it as well.
    move = page.locator("#table button.move[data-move]").first
    move.click()
    expect(confirm).to_be_visible()
    move.click()
    table.wait_for_version(version + 2)
    expect(confirm).to_have_count(0)


def test_confirm_moves_auto_asks_on_a_touch_screen_only(live_server, make_context, tmp_path):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    page = make_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    log_in(page, live_server.url, "ann")
    table = _open(page, live_server.url, match)
    version = table.snapshot().version
    page.locator('#table button.move[data-move*="pack"]').first.tap()
    expect(page.locator("#move-confirm")).to_be_visible()
    assert _moves_made(match) == version
    page.screenshot(
        path=str(screenshot_path("move-confirm-phone", tmp_path)), animations="disabled"
    )
    page.locator("#move-confirm-yes").tap()
    table.wait_for_version(version + 1)


def _two_more_waiting(ann, bea) -> tuple[Match, list[Match]]:
    """A table awaiting ann, and two more that have waited longer for her."""
    older = [
        _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=s), ann)
        for s in (7, 8)
    ]
    here = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    return here, older


def _end_the_turn(table: TablePage) -> None:
    while "Your turn" in table.snapshot().turn:
        table.play(table.snapshot().moves[0])


def test_after_the_move_the_next_table_waiting_shows_and_goes_there(
    live_server, make_context, tmp_path
):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    here, older = _two_more_waiting(ann, bea)
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    table = _open(page, live_server.url, here)
    link = page.locator("#next-table-link")
    expect(link).to_have_count(0)  # her turn here: nothing else is pressed on her
    _end_the_turn(table)
    expect(link).to_be_visible(timeout=AT_ONCE_MS)
    expect(link).to_have_text("Next table waiting (2)")
    assert page.url.endswith(f"/matches/{here.pk}/")  # the setting is off: she stays
    page.screenshot(path=str(screenshot_path("next-table", tmp_path)), animations="disabled")
    link.click()
    page.wait_for_url(f"{live_server.url}/matches/{older[0].pk}/")
    expect(page.locator("#turn-line")).to_contain_text("Your turn")


def test_with_the_setting_on_the_next_table_opens_at_once(live_server, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    here, older = _two_more_waiting(ann, bea)
    play_settings_save(user_id=ann.pk, confirm_moves="off", next_table_at_once=True)
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    last = _to_the_last_move(here)
    table = _open(page, live_server.url, here)
    page.wait_for_timeout(1_000)
    assert page.url.endswith(f"/matches/{here.pk}/"), "opening a table never leaves it"
    wanted = [i for i, move in enumerate(table.snapshot().moves) if move == last]
    page.locator("#table button.move[data-move]").nth(wanted[0]).click()  # the turn's last
    page.wait_for_url(re.compile(rf"/matches/{older[0].pk}/$"), timeout=AT_ONCE_MS)
    expect(page.locator("#turn-line")).to_contain_text("Your turn")


def _to_the_last_move(match: Match) -> dict:
    """Play the awaited seat's turn through the service up to its last move (each the first
    on offer), and give that move: the one that ends the turn."""
    engine = get_engine(match.game)
    while True:
        match.refresh_from_db()
        seat = match.seats.get(index=match.awaiting[0])
        state = engine.load(match.state)
        move = engine.legal_moves(state, seat.index)[0]
        if engine.awaiting(engine.apply(state, seat.index, move)) != [seat.index]:
            return move
        move_submit(match=match, seat=seat, move=move, expected_version=match.version)


def _about_to_win(view: dict) -> bool:
    return view["awaiting"] == [0] and {"type": "play", "card": "9"} in view["legal_moves"]


def test_a_move_that_ends_the_match_stays_to_show_the_end(live_server, make_context):
    """With "at once" on, the winning move does not take the person away: they see the end
    (and "Play again"); the next table's link is there for when they want it."""
    match = play_to_position("faraway", ["ann", "bea"], _about_to_win)
    ann = match.seats.get(index=0).user
    bea = match.seats.get(index=1).user
    waiting = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=7), ann)
    play_settings_save(user_id=ann.pk, confirm_moves="off", next_table_at_once=True)
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    table = _open(page, live_server.url, match)
    table.play({"type": "play", "card": "9"})
    expect(page.locator("#outcome")).to_contain_text("ann won")
    link = page.locator("#next-table-link")
    expect(link).to_have_text("Next table waiting (1)", timeout=AT_ONCE_MS)
    page.wait_for_timeout(1_500)
    assert page.url.endswith(f"/matches/{match.pk}/"), "the winning move took her away"
    assert link.get_attribute("href") == f"/matches/{waiting.pk}/"


def test_a_lesson_is_played_from_the_keyboard_and_its_still_cards_say_why(
    live_server, make_context
):
    """A lesson's table (docs/lessons.md) answers as a match's does: a card offering no move
    says why when pressed, Tab reaches the move on offer, Enter makes it, and the focus comes
    back to the next move on offer in the new table."""
    page = make_context().new_page()
    page.goto(f"{live_server.url}/learn/faraway/draw/")
    expect(page.locator("#lesson-step")).to_have_text("Step 1 of 5")
    card = page.locator("#hand .slot.unplayable").first
    card.focus()
    page.keyboard.press("Enter")
    expect(_notice(page)).to_have_text("Draw first: your turn starts with the draw.")
    expect(page.locator("#table")).to_have_attribute("data-step", "0")
    page.locator("#lesson-again").focus()  # the last control of the step's words
    tab_to(page, page.locator("#table button.move").first, "the lesson's move")
    page.keyboard.press("Enter")
    expect(page.locator("#table")).to_have_attribute("data-step", "1")
    expect(page.locator("#lesson-answer")).to_contain_text("You drew a 1")
    expect(page.locator("#table button.move").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#table")).to_have_attribute("data-step", "2")

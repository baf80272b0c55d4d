"""A whole match of each game played by keyboard alone (issue 37, item 2; docs/accessibility.md),
at 1280x800 and on a phone (390x844), against the greedy bot.

The person never clicks: they log in by typing, reach the text mode's command field with its
shortcut (c), and from then on only type commands and press Enter. What they decide from is
what a screen reader gets: the text mode's answers read from the accessibility tree (the
``log`` region "Text mode answers", Playwright's ARIA snapshot), never the HTML. At each of
their turns, the whole page's ARIA snapshot, theirs and a watcher's, must name no card its
reader may not see: a card in another seat's hand or in the pack that the reader's own view
and redacted log never showed.
"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.services.play_settings import play_settings_save
from games.engines import faraway_cards, get_engine
from games.models import Match
from games.presentation import gulliver as gulliver_words
from games.services import match_create
from tests import factories
from tests.functional.pages import STREAMING_JS, log_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.services("redis"),
]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
GULLIVER_TARGET = 10
MAX_COMMANDS = 3000
ANSWERS = "Text mode answers"
OVER = "Replay it move by move"  # the finished table's turn line offers the replay
NO_MOVES = "No moves for you now."
CODE = re.compile(r'"([^"]+)"')
HAND = faraway_cards.HAND_SIZE


def _keyboard_log_in(page: Page, base: str, username: str) -> None:
    """Typing only: the form's first field has the focus on arrival (else Tab reaches it)."""
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").focus()
    page.keyboard.type(username)
    page.keyboard.press("Tab")
    page.keyboard.type(factories.PASSWORD)
    page.keyboard.press("Enter")
    expect(page.get_by_role("link", name=username)).to_be_visible()


def _paragraphs(snapshot: str) -> list[str]:
    """The paragraphs of an ARIA snapshot, in order, as text."""
    found = []
    for line in snapshot.splitlines():
        text = line.strip()
        if not text.startswith("- paragraph:"):
            continue
        text = text.removeprefix("- paragraph:").strip()
        if text.startswith('"') and text.endswith('"'):
            text = json.loads(text)
        found.append(text)
    return found


def command(page: Page, typed: str) -> list[str]:
    """Type ``typed`` into the command field and press Enter; the answer, as the accessibility
    tree gives it (the lines after the last echo of the command)."""
    answers = page.get_by_role("log", name=ANSWERS)
    before = answers.aria_snapshot()
    page.keyboard.type(typed)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "before => document.getElementById('text-output').childElementCount > 0",
        arg=before,
    )
    for _ in range(50):
        now = answers.aria_snapshot()
        if now != before:
            break
        page.wait_for_timeout(20)
    lines = _paragraphs(now)
    echo = f"\u203a {typed}"
    last = max(i for i, line in enumerate(lines) if line == echo)
    return lines[last + 1 :]


def _offered(answer: list[str]) -> list[str]:
    """The commands of a ``moves`` answer ("play 2: Card 2 of 5 in your hand: Lay ...")."""
    return [line.split(":", 1)[0] for line in answer[1:]]


def _choose(game: str, offered: list[str], rng: random.Random, draws: int) -> str:
    """Faraway: a story card or a penalty when one can be laid, else a draw (from the pack and
    the discards by turns), else a discard. Gulliver: any move offered (a small target ends it)."""
    if game == "gulliver":
        return rng.choice(offered)
    for verb in ("play", "penalty"):
        found = [c for c in offered if c.startswith(verb + " ")]
        if found:
            return found[0]
    draws_offered = [c for c in offered if c.startswith(("draw", "take discard"))]
    if draws_offered:
        want = "draw" if draws % 2 == 0 else "take discard"
        return ([c for c in draws_offered if c.startswith(want)] or draws_offered)[0]
    return offered[0]


def _names(game: str, code: str) -> list[str]:
    """How a page could name ``code``: its face's label and its name in the log's words."""
    if game == "faraway":
        return [faraway_cards.card_name(code)]
    face = gulliver_words.face(code)
    return [face["aria_label"], gulliver_words.quote(code)]


def hidden_names(match: Match, seat: int | None) -> set[str]:
    """The names of the cards ``seat`` (None: a watcher) may not know now: in another seat's
    hand or in the pack, and nowhere in ``seat``'s view or its redacted log."""
    engine = get_engine(match.game)
    state = match.state
    secret = [c for i, hand in enumerate(state["hands"]) if i != seat for c in hand]
    secret += list(state.get("pack") or state.get("stack") or [])
    seen = json.dumps(engine.view(engine.load(state), seat))
    for events in match.moves.values_list("events", flat=True):
        seen += json.dumps(engine.redact(events, seat))
    known = set(CODE.findall(seen))
    return {name for code in secret if code not in known for name in _names(match.game, code)}


def assert_nothing_hidden(page: Page, match: Match, seat: int | None, who: str) -> int:
    names = hidden_names(match, seat)
    tree = page.locator("body").aria_snapshot()
    leaked = sorted(name for name in names if name in tree)
    assert not leaked, f"{who}'s accessibility tree names hidden cards: {leaked}"
    return len(names)


def _bot_match(game: str, person: Any) -> Match:
    options = {"target": GULLIVER_TARGET} if game == "gulliver" else None
    return match_create(
        game=game,
        num_players=2,
        created_by=person,
        bots={1: "greedy"},
        seed=7,
        options=options,
        public=True,
    )


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_a_whole_match_played_by_keyboard_alone(game, size, live_site, make_context):
    kit = factories.user_make("kit")
    factories.user_make("wes")
    play_settings_save(
        user_id=kit.pk,
        confirm_moves="off",
        next_table_at_once=False,
        keyboard_shortcuts=True,
        text_mode=True,
    )
    match = _bot_match(game, kit)
    page = make_context(viewport=SIZES[size]).new_page()
    _keyboard_log_in(page, live_site, "kit")
    page.goto(f"{live_site}/matches/{match.pk}/")
    watcher = make_context(viewport=SIZES[size]).new_page()
    log_in(watcher, live_site, "wes")
    watcher.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function(STREAMING_JS)

    page.keyboard.press("c")  # the shortcut to the command field
    expect(page.get_by_role("textbox", name="Command")).to_be_focused()
    assert command(page, "help")[0].startswith("help:")

    rng = random.Random(7)
    draws = moves = checks = hidden_seen = 0
    verbs: set[str] = set()
    for _ in range(MAX_COMMANDS):
        answer = command(page, "moves")
        if answer[0] == NO_MOVES:
            if any(OVER in line for line in answer):
                break
            page.wait_for_timeout(150)
            continue
        match.refresh_from_db()
        hidden_seen += assert_nothing_hidden(page, match, 0, "kit")
        assert_nothing_hidden(watcher, match, None, "the watcher")
        checks += 1
        chosen = _choose(game, _offered(answer), rng, draws)
        said = command(page, chosen)
        assert said[0].startswith("Sent: "), (chosen, said)
        moves += 1
        verbs.add(chosen.rstrip("0123456789 "))
        draws += chosen.startswith(("draw", "take discard"))
        # The table the move brings in (or a refusal, for a page a poll left a version behind)
        page.wait_for_function(
            "v => { const t = document.querySelector('#table');"
            " return t && (Number(t.dataset.version) > v || t.querySelector('#move-error')); }",
            arg=match.version,
        )
        expect(page.get_by_role("textbox", name="Command")).to_be_focused()
    else:
        pytest.fail("the match does not end")

    match.refresh_from_db()
    print(f"{game} at {size}: {moves} moves typed, {checks} turns checked, verbs {sorted(verbs)}")
    assert match.status == Match.Status.FINISHED
    assert moves >= 5 and hidden_seen > 0, (moves, hidden_seen)
    if game == "faraway":
        assert {"play", "draw", "take discard"} <= verbs, verbs
    # The end is in the page's words too, and nothing hidden is named once it is over either.
    turn = command(page, "turn")
    assert any(OVER in line for line in turn), turn
    assert command(page, "last")


# What has the focus: its accessible name as the page sets it, and where it lies.
FOCUS_JS = """() => { const e = document.activeElement;
  return {tag: e.tagName.toLowerCase(), id: e.id, name: e.getAttribute('aria-label') || '',
    move: e.dataset.move || '', key: e.closest('[data-key]')?.dataset.key || '',
    inTable: !!document.querySelector('#table')?.contains(e),
    inHand: !!document.querySelector('#hand')?.contains(e)}; }"""
# A poll's answer in full: the same version rendered again and swapped in (docs/live.md).
RERENDER_JS = """id => new Promise(done => {
  document.addEventListener('htmx:afterSettle', () => done(true), {once: true});
  htmx.ajax('GET', `/matches/${id}/table/`, {target: '#table', swap: 'outerHTML'}); })"""


def _open_table(live_site: str, make_context: Any, user: Any, match: Match, **kw: Any) -> Page:
    page = make_context(**kw).new_page()
    _keyboard_log_in(page, live_site, user.username)
    page.goto(f"{live_site}/matches/{match.pk}/")
    page.wait_for_function(STREAMING_JS)
    return page


def test_shortcuts_are_off_until_chosen_and_the_focus_stays_through_swaps(live_site, make_context):
    kit = factories.user_make("kit")
    match = _bot_match("faraway", kit)
    page = _open_table(live_site, make_context, kit, match)
    expect(page.locator("#text-mode")).to_be_hidden()  # off by default, both
    page.keyboard.press("1")
    page.keyboard.press("?")
    assert page.evaluate(FOCUS_JS)["tag"] == "body"  # no key did anything
    expect(page.locator("#keys-panel")).not_to_have_attribute("open", "")

    play_settings_save(
        user_id=kit.pk, confirm_moves="off", next_table_at_once=False, keyboard_shortcuts=True
    )
    page.reload()
    page.wait_for_function(STREAMING_JS)
    page.keyboard.press("2")  # the second card of the hand: its first move, or the card itself
    picked = page.evaluate(FOCUS_JS)
    assert picked["inHand"] and picked["name"].startswith(f"Card 2 of {HAND} in your hand: "), (
        picked
    )
    # A poll (or a live event) replaces the table: the same control has the focus after it.
    page.evaluate(RERENDER_JS, match.pk)
    again = page.evaluate(FOCUS_JS)
    assert (again["move"], again["key"], again["name"]) == (
        picked["move"],
        picked["key"],
        picked["name"],
    )
    page.keyboard.press("?")
    expect(page.locator("#keys-panel")).to_have_attribute("open", "")
    expect(page.get_by_text("Keyboard shortcuts are on.")).to_be_visible()
    assert page.evaluate(FOCUS_JS)["id"] == "keys-summary"
    # m: the first move offered; Enter makes it, and the focus stays in the table after the
    # answer (the hand's first move, else the first move offered, else the turn line).
    page.keyboard.press("m")
    first = page.evaluate(FOCUS_JS)
    assert first["move"] and first["inTable"], first
    version = match.version
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => Number(document.querySelector('#table').dataset.version) > v", arg=version
    )
    # More than one table may come in (the answer, then the stream's, each restoring the focus
    # after its swap): the focus ends on a move or the turn line, read until it settles there.
    deadline = time.monotonic() + 3
    after = page.evaluate(FOCUS_JS)
    while not (after["inHand"] or after["move"] or after["id"] == "turn-line"):
        assert time.monotonic() < deadline, after
        page.wait_for_timeout(50)
        after = page.evaluate(FOCUS_JS)
    match.refresh_from_db()
    assert match.version > version


def test_text_mode_answers_in_the_tables_words_and_refuses_in_the_engines(live_site, make_context):
    kit = factories.user_make("kit")
    play_settings_save(
        user_id=kit.pk, confirm_moves="off", next_table_at_once=False, text_mode=True
    )
    match = _bot_match("faraway", kit)
    page = _open_table(live_site, make_context, kit, match)
    page.keyboard.press("c")  # shortcuts are off: the key does nothing
    assert page.evaluate(FOCUS_JS)["tag"] == "body"
    page.get_by_role("textbox", name="Command").focus()
    hand = command(page, "hand")
    assert len(hand) == HAND and hand[0].startswith(f"Card 1 of {HAND} in your hand: "), hand
    assert command(page, "seats")[1].startswith("Greedy bot")
    assert "face down" in command(page, "seats")[1]
    turn = command(page, "turn")
    assert turn[0] == "Your turn", turn
    unknown = command(page, "fly away")
    assert unknown[0].startswith("\u201cfly away\u201d is not a move you can make now"), unknown
    assert unknown[1] == "Your moves:"
    # A card the engine refuses now: its reason, in the engine's words (the card's data-why).
    still = [line for line in hand if "(" not in line]
    if still:
        number = still[0].split(" ", 2)[1]
        refused = command(page, f"play {number}")
        assert refused[0] == still[0] and len(refused) == 2, refused
    # A move typed goes through the same form as a click: the seat's version is checked.
    offered = _offered(command(page, "moves"))
    version = match.version
    assert command(page, offered[0])[0].startswith("Sent: ")
    page.wait_for_function(
        "v => Number(document.querySelector('#table').dataset.version) > v", arg=version
    )
    match.refresh_from_db()
    assert match.version > version
    expect(page.get_by_role("textbox", name="Command")).to_be_focused()


def test_a_watchers_choices_are_kept_in_the_browser(live_site, make_context):
    kit, wes = factories.user_make("kit"), factories.user_make("wes")
    match = _bot_match("gulliver", kit)
    page = _open_table(live_site, make_context, wes, match)
    expect(page.locator("#text-mode")).to_be_hidden()
    page.locator("#keys-summary").focus()
    page.keyboard.press("Enter")  # opens the panel
    page.keyboard.press("Tab")
    expect(page.get_by_label("Keyboard shortcuts (kept in this browser)")).to_be_focused()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(page.locator("#text-mode")).to_be_visible()
    page.reload()
    page.wait_for_function(STREAMING_JS)
    expect(page.locator("#text-mode")).to_be_visible()
    page.keyboard.press("c")
    expect(page.get_by_role("textbox", name="Command")).to_be_focused()
    assert command(page, "moves")[0] == NO_MOVES
    seats = command(page, "seats")
    assert seats[0].startswith("kit") and "face down" in seats[0], seats
    assert_nothing_hidden(page, match, None, "the watcher")

"""Told without looking on the lesson and replay pages (docs/accessibility.md, issue 37 items
1-2), in a real Chromium, read from the status region (#announce-news, "What just happened")
and the alert region (#announce-alert) as the accessibility tree gives them:

- a lesson: a wrong try's "Try again" is an alert; each right try tells its answer, each new
  line of the log once (not the learner's own move), then the next step's words, and at the
  end "Lesson finished" with the stars; begun again, its lines are new again;
- a lesson honours the keyboard shortcuts (off until chosen) and text mode, and keeps the
  focus on the same move through a try's swap;
- a replay tells each frame put in (its position and lines), by a control or a key, once;
  a step pressed by keyboard keeps the focus, and at the end it goes to a step still offered.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.lessons import lessons_for
from games.models import Match
from games.presentation.common import move_json
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_announce_browser import told

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Everything each region is given from now on, oldest first (a region keeps its newest 20).
RECORD_JS = """() => {
  window.__said = {};
  for (const id of ['announce-news', 'announce-alert']) {
    window.__said[id] = [];
    new MutationObserver(changes => changes.forEach(change => change.addedNodes.forEach(
      p => window.__said[id].push(p.textContent.replace(/\\s+/g, ' ').trim()))))
      .observe(document.getElementById(id), {childList: true});
  }
}"""
# The lesson's log lines, oldest first.
LINES_JS = """() => [...document.querySelectorAll('#event-log li[data-line]')].reverse()
  .map(li => ({key: li.dataset.line, text: li.textContent.replace(/\\s+/g, ' ').trim(),
    own: li.hasAttribute('data-own')}))"""
WORDS_JS = """sel => { const el = document.querySelector(sel);
  return el ? el.textContent.replace(/\\s+/g, ' ').trim() : null; }"""


def said(page: Page, region: str = "announce-news") -> list[str]:
    """What ``region`` was given since ``RECORD_JS`` ran (on loading the page)."""
    return page.evaluate("id => window.__said[id]", region)


def _open(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.get_by_role("status", name="What just happened")).to_be_attached()
    page.evaluate(RECORD_JS)
    page.wait_for_timeout(100)  # the page's own first pass (nothing old is news) is over
    assert told(page) == [] and told(page, "alert") == []


def _wait_said(page: Page, count: int, region: str = "announce-news") -> list[str]:
    with contextlib.suppress(PlaywrightTimeout):  # the comparison after says what was told
        page.wait_for_function(
            "([id, n]) => window.__said[id].length >= n", arg=[region, count], timeout=3000
        )
    page.wait_for_timeout(100)  # nothing more comes after
    return said(page, region)


def _lesson() -> tuple[str, list[dict[str, Any]]]:
    lesson = lessons_for("gulliver")[1]
    return f"/learn/gulliver/{lesson.slug}/", factories.lesson_moves(lesson)


def test_a_lesson_tells_each_answer_new_line_and_step_once(live_server, make_context):
    path, moves = _lesson()
    page = make_context().new_page()
    _open(page, live_server.url + path)  # nothing old is news

    # A wrong try: "Try again" and its hint, as an alert; nothing in the log is new.
    page.locator("#table button.move[data-move*='prepend']").first.click()
    expect(page.locator("#lesson-answer")).to_contain_text("Try again.")
    answer = page.evaluate(WORDS_JS, "#lesson-answer")
    assert _wait_said(page, 1, "announce-alert") == [answer]
    assert told(page, "alert") == [answer]
    assert said(page) == []

    expected: list[str] = []
    own_seen = 0
    for step, move in enumerate(moves, start=1):
        before = {line["key"] for line in page.evaluate(LINES_JS)}
        page.locator(f"#table button.move[data-move='{move_json(move)}']").first.click()
        expect(page.locator("#table")).to_have_attribute("data-step", str(step))
        new = [line for line in page.evaluate(LINES_JS) if line["key"] not in before]
        assert new, f"step {step}: no new line in the log"
        own_seen += sum(line["own"] for line in new)
        answered = page.evaluate(WORDS_JS, "#lesson-answer")
        expected += [answered] if answered else []
        expected += [line["text"] for line in new if not line["own"]]
        if step < len(moves):
            expected.append(page.evaluate(WORDS_JS, "#lesson-say"))
        else:
            expected.append("Lesson finished")
            expected.append(page.locator("#lesson-stars").get_attribute("aria-label"))
        assert _wait_said(page, len(expected)) == expected, step
    assert own_seen == len(moves)  # each of the learner's moves is theirs, and not told
    assert said(page, "announce-alert") == [answer]
    # The accessibility tree gives a screen reader the same (the region's newest 20).
    assert len(told(page)) == min(len(expected), 20)

    # Begun again: the first step's words are told, the old lines are not news, and the
    # lines of the next try are told again though their keys were heard before.
    page.locator("#lesson-again").click()
    expect(page.locator("#table")).to_have_attribute("data-step", "0")
    expected.append(page.evaluate(WORDS_JS, "#lesson-say"))
    assert _wait_said(page, len(expected)) == expected
    before = {line["key"] for line in page.evaluate(LINES_JS)}
    page.locator(f"#table button.move[data-move='{move_json(moves[0])}']").first.click()
    expect(page.locator("#table")).to_have_attribute("data-step", "1")
    new = [line for line in page.evaluate(LINES_JS) if line["key"] not in before]
    answered = page.evaluate(WORDS_JS, "#lesson-answer")
    expected += [answered] if answered else []
    expected += [line["text"] for line in new if not line["own"]]
    expected.append(page.evaluate(WORDS_JS, "#lesson-say"))
    assert _wait_said(page, len(expected)) == expected


def test_a_lesson_takes_the_shortcuts_text_mode_and_keeps_the_focus(live_server, make_context):
    path, moves = _lesson()
    page = make_context().new_page()
    page.goto(live_server.url + path)
    # Off until chosen: "m" does nothing.
    page.keyboard.press("m")
    assert page.evaluate("() => document.activeElement.tagName") == "BODY"
    page.locator("#keys-summary").click()
    page.locator("#keys-toggle").check()
    page.locator("#text-toggle").check()
    expect(page.locator("#text-mode")).to_be_visible()
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("m")
    first = page.evaluate("() => document.activeElement.dataset.move || null")
    assert first is not None, "m did not reach the first move"

    # The focus stays on the same move through a try's swap: a wrong try keeps the table's
    # step, so the same move is there again.
    wrong = page.locator("#table button.move[data-move*='prepend']").first
    wrong_move = wrong.get_attribute("data-move")
    wrong.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#lesson-answer")).to_contain_text("Try again.")
    page.wait_for_function(
        "move => document.activeElement && document.activeElement.dataset.move === move",
        arg=wrong_move,
    )

    # Text mode: its moves, then a move typed makes it, like a click.
    page.keyboard.press("c")
    expect(page.locator("#text-command")).to_be_focused()
    page.keyboard.type("moves")
    page.keyboard.press("Enter")
    expect(page.locator("#text-output")).to_contain_text("Your moves:")
    command = page.locator(
        f"#table button.move[data-move='{move_json(moves[0])}']"
    ).first.get_attribute("data-command")
    assert command
    page.locator("#text-command").fill(command)
    page.keyboard.press("Enter")
    expect(page.locator("#table")).to_have_attribute("data-step", "1")
    expect(page.locator("#text-command")).to_be_focused()


def _finished(name: str = "ann") -> Match:
    ann, bea = factories.user_make(name), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=7)
    factories.play_random(match, random.Random(7))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def _frame_words(page: Page) -> list[str]:
    position = page.evaluate(WORDS_JS, "#replay-position")
    lines = page.evaluate(
        "() => [...document.querySelectorAll('#replay-lines li')]"
        ".map(li => li.textContent.replace(/\\s+/g, ' ').trim())"
    )
    return [position, *lines]


def test_a_replay_tells_each_frame_and_keeps_the_focus(live_server, make_context):
    match = _finished()
    base = live_server.url
    page = make_context().new_page()
    log_in(page, base, "ann")
    _open(page, f"{base}/matches/{match.pk}/replay/?ply=0&as=0")

    # Forward by keyboard on the control: the frame told, the focus kept on "Forward".
    page.locator("#replay-next").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay-frame")).to_have_attribute("data-ply", "1")
    expected = _frame_words(page)
    assert _wait_said(page, len(expected)) == expected
    page.wait_for_function("() => document.activeElement.id === 'replay-next'")
    page.keyboard.press("Enter")
    expect(page.locator("#replay-frame")).to_have_attribute("data-ply", "2")
    expected += _frame_words(page)
    assert _wait_said(page, len(expected)) == expected
    page.wait_for_function("() => document.activeElement.id === 'replay-next'")

    # A key: the frame it brings is told once.
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-frame")).to_have_attribute("data-ply", "1")
    expected += _frame_words(page)
    assert _wait_said(page, len(expected)) == expected
    assert len(told(page)) == min(len(expected), 20)

    # "Last" at the end goes out of the page's controls (it is off there): the focus lands on
    # a step still offered, never on nothing.
    page.locator("#replay-last").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay-frame")).to_have_attribute("data-ply", str(match.ply))
    page.wait_for_function(
        "() => document.activeElement.matches('#replay-frame .replay-controls a.step')"
    )

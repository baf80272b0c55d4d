"""The words the scripts write are the reader's (issue 37, item 4; docs/translation.md, "The
words JavaScript writes"): a German reader's table, whose words come from ``{% js_words %}``
through ``static/js/words.js``, shows and says them in German: the keys panel's state, the
move confirm bar (its name and buttons), text mode's answers and the tab's title; an English
reader's the same in English. A Gulliver card prints its gloss under the word for a German
reader, and none for an English one.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from accounts.services.language import language_store
from accounts.services.play_settings import play_settings_save
from games.models import Match
from tests import factories
from tests.functional.test_screenshots import PHONE, screenshot_path
from tests.functional.test_table_browser import _awaiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _reader(base: str, make_context: Any, user: Any, language: str, **context: Any) -> Page:
    """A signed-in page of ``user`` reading ``language`` (their stored choice, copied into the
    session at sign-in)."""
    language_store(user_id=user.pk, language=language)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    browser_context = make_context(**context)
    browser_context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}]
    )
    return browser_context.new_page()


def _table(page: Page, base: str, match: Match) -> None:
    page.goto(f"{base}/matches/{match.pk}/")
    expect(page.locator("#table")).to_be_visible()


def _answers(page: Page, name: str, typed: str) -> str:
    page.keyboard.type(typed)
    page.keyboard.press("Enter")
    answers = page.get_by_role("log", name=name)
    expect(answers).to_contain_text(typed)
    return answers.inner_text()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "de",
            {
                "keys_on": "Tastenkürzel sind an.",
                "bar": "Zug bestätigen",
                "question": "Vom Nachziehstapel ziehen?",
                "confirm": "Bestätigen",
                "cancel": "Abbrechen",
                "command": "Befehl",
                "answers": "Antworten des Textmodus",
                "unknown": "„fly away“ ist weder ein Zug",
                "moves": "Ihre Züge:",
                "title": "Sie sind am Zug · ",
            },
        ),
        (
            "en-gb",
            {
                "keys_on": "Keyboard shortcuts are on.",
                "bar": "Confirm your move",
                "question": "Draw from the pack?",
                "confirm": "Confirm",
                "cancel": "Cancel",
                "command": "Command",
                "answers": "Text mode answers",
                "unknown": "“fly away” is not a move you can make now",
                "moves": "Your moves:",
                "title": "Your turn · ",
            },
        ),
    ],
)
def test_the_scripts_write_in_the_readers_language(live_server, make_context, language, words):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = _awaiting(factories.match_make(game="faraway", players=[ann, bea], seed=5), ann)
    play_settings_save(
        user_id=ann.pk,
        confirm_moves="on",
        next_table_at_once=False,
        keyboard_shortcuts=True,
        text_mode=True,
    )
    page = _reader(live_server.url, make_context, ann, language)
    _table(page, live_server.url, match)
    assert page.title().startswith(words["title"]), page.title()
    # The panel's state is written by keys.js (the template says "off").
    expect(page.locator("#keys-state")).to_have_text(words["keys_on"])

    # The move confirm bar: a group named in the reader's language, its question and buttons.
    page.locator('#table button.move[data-move*="pack"]').first.click()
    bar = page.get_by_role("group", name=words["bar"])
    expect(bar).to_be_visible()
    expect(bar).to_contain_text(words["question"])
    expect(bar.get_by_role("button", name=words["confirm"])).to_be_focused()
    bar.get_by_role("button", name=words["cancel"]).click()
    expect(page.locator("#move-confirm")).to_have_count(0)

    # Text mode's answers (the command stays English in every language).
    page.get_by_role("textbox", name=words["command"]).focus()
    said = _answers(page, words["answers"], "fly away")
    assert words["unknown"] in said and words["moves"] in said, said


def test_a_gulliver_card_shows_its_gloss_to_a_german_reader(live_server, make_context, tmp_path):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="gulliver", players=[ann, bea], seed=3)
    german = _reader(live_server.url, make_context, ann, "de")
    _table(german, live_server.url, match)
    card = german.locator("#hand .card.gv").first
    gloss = card.locator(".gloss")
    expect(gloss).to_be_visible()
    assert gloss.inner_text().strip(), "an empty gloss"
    assert gloss.inner_text().strip() in (card.get_attribute("aria-label") or "")
    german.screenshot(path=str(screenshot_path("gulliver-gloss-de-desktop", tmp_path)))
    phone = _reader(live_server.url, make_context, ann, "de", viewport=PHONE)
    _table(phone, live_server.url, match)
    expect(phone.locator("#hand .card.gv .gloss").first).to_be_visible()
    phone.screenshot(path=str(screenshot_path("gulliver-gloss-de-phone", tmp_path)))

    english = _reader(live_server.url, make_context, bea, "en-gb")
    _table(english, live_server.url, match)
    expect(english.locator("#hand .card.gv").first).to_be_visible()
    expect(english.locator("#hand .card.gv .gloss")).to_have_count(0)

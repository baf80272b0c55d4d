"""Issue 37's German and French journeys in a real browser (docs/translation.md, "The journeys"):
a visitor whose browser asks for German (or French) registers (a form error first, in that
language), confirms the address from the mailed link, opens a match against the greedy bot,
plays moves, gets the turn mail in that language, and reads the rules page in it; the account
page's language section and the footer's switch name the language.

The assertions are on words translated today, each on its own element (the log's lines, the
form's error, the messages, the mails, the rules page, the language section and switch), never
on a whole page's English being absent: the page templates are being translated as this is
written, and a page more German than this test expects still passes.

With ``PARLOUR_SCREENSHOTS=1`` each step is photographed into ``docs/screenshots/`` as
``journey-<language>-<step>-desktop.png`` (1280x800) and ``...-phone.png`` (390x844).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from tests.factories import PASSWORD
from tests.functional.pages import TablePage
from tests.functional.test_screenshots import PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
LINK = re.compile(r"https?://[^/\s]+(/accounts/email/confirm/[^/\s]+/)")
BOT_SEAT = 1


@dataclass(frozen=True)
class Journey:
    locale: str  # the browser's (Playwright sends it as Accept-Language)
    username: str
    game: str
    password_mismatch: str  # Django's own catalogue
    mailed: str
    confirmation_subject: str
    dealt: re.Pattern[str]  # the first log line
    moved: re.Pattern[str]  # a line of a move
    bot_name: str
    turn_subject: str  # then the game's title and the match's number
    turn_words: str
    rules_heading: str
    rules_words: str
    language_name: str
    language_label: str
    save_language: str


JOURNEYS = {
    "de": Journey(
        locale="de-DE",
        username="dora",
        game="faraway",
        password_mismatch="Die beiden Passwörter sind nicht identisch.",
        mailed="Wir haben einen Link an dora@example.com geschickt",
        confirmation_subject="Bestätigen Sie Ihre E-Mail-Adresse für Parlour",
        dealt=re.compile(r"hat jeder Person 6 Karten gegeben\."),
        moved=re.compile(r"vom Nachziehstapel gezogen|von der Ablage genommen"),
        bot_name="Gieriger Bot",
        turn_subject="Sie sind am Zug in The Faraway Tree #",
        turn_words="wartet auf Ihren Zug.",
        rules_heading="So spielen Sie The Faraway Tree",
        rules_words="Jeder Zug besteht aus denselben vier Schritten.",
        language_name="Deutsch",
        language_label="Sprache",
        save_language="Sprache speichern",
    ),
    "fr": Journey(
        locale="fr-FR",
        username="elise",
        game="gulliver",
        password_mismatch="Les deux mots de passe ne correspondent pas.",
        mailed="Nous avons envoyé un lien à elise@example.com",
        confirmation_subject="Confirmez votre adresse e-mail pour Parlour",
        dealt=re.compile(r"Manche 1\s:\s.+ distribue, 4 cartes chacun"),
        moved=re.compile(r"a joué|a pioché dans la pile|a placé|a passé"),
        bot_name="Bot glouton",
        turn_subject="À vous de jouer dans Gulliver's Travels #",
        turn_words="attend votre coup.",
        rules_heading="Comment jouer à Gulliver's Travels",
        rules_words="Parlour vérifie la grammaire pour vous.",
        language_name="français",
        language_label="Langue",
        save_language="Enregistrer la langue",
    ),
}


@pytest.fixture(autouse=True)
def _mail_at_once(settings, live_server) -> None:
    """The turn mail checked as the turn begins (tasks run eagerly in tests, and a mail with a
    delay waits for a worker that is not there), and mails linking to the test's site."""
    settings.PARLOUR_TURN_MAIL_DELAY = 0
    settings.PARLOUR_SITE_URL = live_server.url


def _photograph(page: Page, name: str, tmp_path: Path, fits: bool = True) -> None:
    """The page at desktop and at phone size (full length); with ``fits``, it fits each width
    (the translated words are longer than the English ones)."""
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        assert not (fits and overflowing(page)), f"{name} scrolls sideways at {size} size"
        page.screenshot(
            path=str(screenshot_path(f"{name}-{size}", tmp_path)),
            full_page=True,
            animations="disabled",
        )
    page.set_viewport_size(DESKTOP)


def _register(page: Page, base_url: str, journey: Journey, shot: str, tmp_path: Path) -> None:
    """The registration form, in the browser's language: refused once (the passwords differ),
    then accepted; lands in the lobby."""
    page.goto(f"{base_url}/accounts/register/")
    expect(page.locator("html")).to_have_attribute("lang", journey.locale[:2])
    page.locator("#id_username").fill(journey.username)
    page.locator("#id_email").fill(f"{journey.username}@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD + "!")
    page.locator("#register-submit").click()
    expect(page.locator("#register-form")).to_contain_text(journey.password_mismatch)
    _photograph(page, f"{shot}-register", tmp_path)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("#register-submit").click()
    page.wait_for_url(f"{base_url}/matches/")
    expect(page.locator("#messages")).to_contain_text(journey.mailed)


def _play_until_the_bot_has_answered(table: TablePage, match: Match) -> None:
    """The person's moves (the first offered each time) until their turn has ended and the
    greedy bot has moved after it: the bot answers inside the move's request (tasks run
    eagerly), so the page comes back with the person's turn again."""
    played = 0
    bot_moves = None
    for _ in range(30):
        if bot_moves is not None and match.moves.filter(seat=BOT_SEAT).count() > bot_moves:
            return
        moves = table.snapshot().moves
        assert moves, "the person is offered no move"
        if bot_moves is None:
            bot_moves = match.moves.filter(seat=BOT_SEAT).count()
        table.play(moves[0])
        played += 1
    raise AssertionError(f"the bot never answered {played} moves")


@pytest.mark.parametrize("language", sorted(JOURNEYS))
def test_a_journey_in_the_readers_language(
    language: str, live_server, make_context, mailoutbox, tmp_path: Path
) -> None:
    journey = JOURNEYS[language]
    base = live_server.url
    shot = f"journey-{language}"
    page = make_context(locale=journey.locale, viewport=DESKTOP).new_page()

    # Registering, in the browser's language; the confirmation mail speaks it too.
    _register(page, base, journey, shot, tmp_path)
    [confirmation] = mailoutbox
    assert confirmation.subject == journey.confirmation_subject
    link = LINK.search(confirmation.body)
    assert link is not None
    page.goto(f"{base}{link.group(1)}")
    page.locator("#confirm-submit").click()
    expect(page.locator("#confirm-done")).to_contain_text(f"{journey.username}@example.com")

    # The account page's language section, and the footer's switch, name the language.
    page.goto(f"{base}/accounts/#account-language")
    expect(page.locator("#account-language-h")).to_have_text(journey.language_label)
    expect(page.locator("#account-language-current")).to_have_text(
        re.compile(journey.language_name, re.IGNORECASE)
    )
    expect(page.locator("#language-submit")).to_have_text(journey.save_language)
    expect(page.locator('label[for="language-switch-choice"]')).to_have_text(journey.language_label)
    expect(page.locator("#language-switch-choice")).to_have_value(language)
    _photograph(page, f"{shot}-account", tmp_path)

    # A match against the greedy bot: its log in the reader's language.
    page.goto(f"{base}/matches/new/")
    page.locator(f'input[name="game"][value="{journey.game}"]').check()
    page.locator("#id_num_players").fill("2")
    page.locator(f"#id_seat_{BOT_SEAT}").select_option("greedy")
    page.locator("#create-match").click()
    page.wait_for_url(re.compile(rf"{re.escape(base)}/matches/\d+/$"))
    match = Match.objects.get(created_by__username=journey.username)
    assert match.status == Match.Status.ACTIVE and match.game == journey.game
    expect(page.locator("#event-log")).to_contain_text(journey.dealt)
    expect(page.locator("#table")).to_contain_text(journey.bot_name)
    table = TablePage(page, journey.username)
    _play_until_the_bot_has_answered(table, match)
    expect(page.locator("#event-log")).to_contain_text(journey.moved)
    _photograph(page, f"{shot}-table", tmp_path)

    # The turn mail, in the language the person registered in.
    turn_mails = [m for m in mailoutbox if m.subject.startswith(journey.turn_subject)]
    assert turn_mails, [m.subject for m in mailoutbox]
    turn_mail = turn_mails[0]
    assert turn_mail.subject == f"{journey.turn_subject}{match.pk}"
    assert turn_mail.to == [f"{journey.username}@example.com"]
    assert journey.turn_words in turn_mail.body
    html, _kind = turn_mail.alternatives[0]
    assert f'<html lang="{language}">' in html
    mail_page = page.context.new_page()
    mail_page.set_content(html)
    _photograph(mail_page, f"{shot}-turn-mail", tmp_path, fits=False)  # a mail, not a page
    mail_page.close()

    # The rules, from the table's link, in the reader's language.
    page.locator(f'#match-links a[href="/rules/{journey.game}/"]').first.click()
    page.wait_for_url(f"{base}/rules/{journey.game}/")
    expect(page.locator("article.rules h1")).to_have_text(journey.rules_heading)
    expect(page.locator("#rules-translation")).to_be_visible()
    expect(page.locator("article.rules")).to_contain_text(journey.rules_words)
    expect(page.locator("article.rules h2#dealing")).to_be_visible()
    _photograph(page, f"{shot}-rules", tmp_path)

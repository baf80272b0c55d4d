"""Every word in the reader's language (docs/translation.md): the language chosen per person
(stored, copied into the session) or, for a visitor, from the switch's cookie or the browser;
mails and pushes in the recipient's language, never the sender's; the move POST's statements
unchanged by it."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import LanguageSetting
from accounts.selectors.language import SESSION_KEY
from games.models import Match
from games.push.turn import turn_push_message
from games.services.matches import match_create
from tests import factories

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9,en;q=0.5"}


@pytest.fixture(autouse=True)
def _mail_without_delay(settings) -> None:
    settings.PARLOUR_TURN_MAIL_DELAY = 0
    settings.PARLOUR_SITE_URL = "https://parlour.example"


def _speaks(user, language: str) -> None:
    LanguageSetting.objects.update_or_create(user=user, defaults={"language": language})


def _turn_play(match: Match, clients: dict[int, Client]) -> None:
    """The awaited person plays their whole turn through the move view."""
    match.refresh_from_db()
    seat = match.awaiting[0]
    user_id = match.seats.get(index=seat).user_id
    while match.status == Match.Status.ACTIVE and match.awaiting == [seat]:
        move = factories.legal_moves(match, seat)[0]
        response = factories.post_move(clients[user_id], match, move)
        assert response.status_code == 200, response.content.decode()[:300]
        match.refresh_from_db()


# --- Mails and pushes: the recipient's language ----------------------------------------------


def test_a_german_recipient_of_an_english_senders_move_gets_a_german_turn_mail(
    mailoutbox, django_capture_on_commit_callbacks
):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=4)
    match.refresh_from_db()
    mover = match.seats.get(index=match.awaiting[0]).user
    waiting = bea if mover == ann else ann
    _speaks(mover, "en-gb")
    _speaks(waiting, "de")
    # The sender reads English, in an English browser.
    clients = {mover.pk: factories.client_for(mover)}
    clients[mover.pk].defaults["HTTP_ACCEPT_LANGUAGE"] = "en-GB"
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)
    [sent] = [m for m in mailoutbox if m.to == [waiting.email]]
    assert sent.subject == f"Sie sind am Zug in The Faraway Tree #{match.pk}"
    assert f"Hallo {waiting.username}," in sent.body
    assert "wartet auf Ihren Zug" in sent.body and "Zum Tisch:" in sent.body
    html, _kind = sent.alternatives[0]
    assert '<html lang="de">' in html and "wartet auf Ihren Zug" in html
    assert "waiting for your move" not in sent.body


def test_an_invitation_mail_speaks_the_invited_persons_language(
    mailoutbox, django_capture_on_commit_callbacks
):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    _speaks(bea, "fr")
    client = factories.client_for(ann)  # ann reads English
    form = {
        "game": "faraway",
        "num_players": "2",
        "seat_0": "me",
        "visibility": "private",
        "seat_1": "challenge",
        "challenge_1": "bea",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/matches/new/", form)
    assert response.status_code == 302
    [sent] = mailoutbox
    assert sent.to == ["bea@example.com"] and sent.subject == "ann vous défie"
    assert "Bonjour bea," in sent.body
    assert "la place 2 sur 2 vous est réservée" in sent.body
    # The page the inviter sees next is still English.
    page = client.get(response["Location"]).content.decode()
    assert '<html lang="en-gb">' in page and "Waiting for players" in page


def test_mail_without_a_chosen_language_is_in_the_sites_and_a_push_in_the_recipients():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=4)
    assert turn_push_message(match, "de").title == f"Sie sind am Zug: The Faraway Tree #{match.pk}"
    assert turn_push_message(match, "fr").body == "Ouvrez la table pour jouer votre coup."
    assert turn_push_message(match, "en-gb").body == "Open the table to play your move."


def test_a_confirmation_mail_speaks_the_language_the_person_registered_in():
    client = Client(**GERMAN)
    response = client.post(
        "/accounts/register/",
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": "a-long-Passwort-2026",
            "password2": "a-long-Passwort-2026",
            "time_zone": "Europe/Berlin",
        },
    )
    assert response.status_code == 302
    assert LanguageSetting.objects.get(user__username="dora").language == "de"
    [sent] = mail.outbox
    assert sent.subject == "Bestätigen Sie Ihre E-Mail-Adresse für Parlour"
    assert "Der Link gilt 3 Tage." in sent.body


def test_a_password_reset_mail_speaks_the_accounts_language_not_the_askers():
    ann = factories.user_make("ann")
    _speaks(ann, "fr")
    response = Client(**GERMAN).post("/accounts/password_reset/", {"email": ann.email})
    assert response.status_code == 302
    [sent] = mail.outbox
    assert sent.subject == "Votre mot de passe Parlour"
    assert "Bonjour ann," in sent.body


# --- Pages: the person's choice, else the browser's --------------------------------------------


def test_a_german_browser_reads_python_words_in_german_log_lines_refusals_and_form_errors():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=4)
    match.refresh_from_db()
    awaited = match.seats.get(index=match.awaiting[0]).user
    other = bea if awaited == ann else ann
    client = factories.client_for(awaited)
    client.defaults.update(GERMAN)
    page = client.get(f"/matches/{match.pk}/")
    assert page["Content-Language"] == "de"
    assert '<html lang="de">' in page.content.decode()
    assert "Karten gegeben." in page.content.decode()
    assert "cards to each player" not in page.content.decode()
    # A move: its log line in German.
    move = factories.legal_moves(match, match.awaiting[0])[0]
    answer = factories.post_move(client, match, move).content.decode()
    assert "vom Nachziehstapel gezogen." in answer or "von der Ablage genommen" in answer
    # A refusal: the other seat, not awaited, is told so in German.
    other_client = factories.client_for(other)
    other_client.defaults.update(GERMAN)
    refused = factories.post_move(other_client, match, move)
    assert refused.status_code in {409, 422}
    assert "Sie sind nicht am Zug" in refused.content.decode() or (
        "Der Tisch hat sich geändert" in refused.content.decode()
    )
    # A form's error: a table of 5 for the Faraway Tree.
    form = client.post(
        "/matches/new/",
        {"game": "faraway", "num_players": "5", "seat_0": "me", "visibility": "public"},
    )
    assert form.status_code == 400
    assert "ist für 2 bis 4 Personen." in form.content.decode()


def test_a_persons_stored_choice_wins_over_the_browser():
    ann = factories.user_make("ann")
    _speaks(ann, "fr")
    client = factories.client_for(ann)  # signing in copies the choice into the session
    assert client.session[SESSION_KEY] == "fr"
    page = client.get("/accounts/", **GERMAN)
    assert page["Content-Language"] == "fr"
    assert "Enregistrer la langue" in page.content.decode()


def test_the_account_page_chooses_a_language_and_garbage_changes_nothing():
    ann = factories.user_make("ann")
    client = factories.client_for(ann)
    page = client.get("/accounts/").content.decode()
    assert 'id="language-form"' in page and "Your browser chose it" in page
    response = client.post("/accounts/language/", {"language": "de"})
    assert response.status_code == 302 and response["Location"] == "/accounts/#account-language"
    assert LanguageSetting.objects.get(user=ann).language == "de"
    assert client.session[SESSION_KEY] == "de"
    assert "Sprache speichern" in client.get("/accounts/").content.decode()
    for garbage in ({"language": "xx"}, {"language": "../../etc"}, {}, {"language": "de" * 200}):
        refused = client.post("/accounts/language/", garbage)
        assert refused.status_code == 400
        assert LanguageSetting.objects.get(user=ann).language == "de"
    assert client.get("/accounts/language/").status_code == 405


def test_the_footer_switch_serves_a_visitor_and_is_kept_for_a_person():
    visitor = Client(**GERMAN)
    home = visitor.get("/").content.decode()
    assert 'id="language-switch"' in home and 'lang="fr"' in home
    switched = visitor.post("/language/", {"language": "fr", "next": "/"})
    assert switched.status_code == 302 and switched["Location"] == "/"
    assert visitor.get("/")["Content-Language"] == "fr"
    # Another site's address as next is not followed.
    away = visitor.post("/language/", {"language": "de", "next": "https://evil.example/"})
    assert away.status_code == 302 and not away["Location"].startswith("https://evil")
    refused = visitor.post("/language/", {"language": "klingon"})
    assert refused.status_code == 400 and visitor.get("/")["Content-Language"] == "de"
    ann = factories.user_make("ann")
    client = factories.client_for(ann)
    assert client.post("/language/", {"language": "de", "next": "/"}).status_code == 302
    assert LanguageSetting.objects.get(user=ann).language == "de"
    assert client.get("/language/").status_code == 405


def test_a_records_names_are_the_sites_whoever_reads_it():
    ann = factories.user_make("ann")
    match = match_create(
        game="faraway", num_players=2, created_by=ann, bots={1: "greedy"}, seed=4, public=True
    )
    client = factories.client_for(ann)
    english = client.get(f"/matches/{match.pk}/record.json").content.decode()
    _speaks(ann, "de")
    german_client = factories.client_for(ann)
    german = german_client.get(f"/matches/{match.pk}/record.json").content.decode()
    assert "Greedy bot 2" in german and "Gieriger" not in german
    assert english == german


# --- The move POST: no statement more --------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_german_readers_move_costs_the_same_statements_as_an_english_readers():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    _speaks(ann, "de")
    clients = {ann.pk: factories.client_for(ann), bea.pk: factories.client_for(bea)}
    match = factories.match_make(players=[ann, bea], seed=4)
    counts: dict[str, int] = {}
    while len(counts) < 2:
        match.refresh_from_db()
        seat = match.awaiting[0]
        user_id = match.seats.get(index=seat).user_id
        move = factories.legal_moves(match, seat)[0]
        with CaptureQueriesContext(connection) as queries:
            response = factories.post_move(clients[user_id], match, move)
        assert response.status_code == 200
        language = "de" if user_id == ann.pk else "en"
        if move["type"] == "draw":
            counts.setdefault(language, len(queries))
            assert response["Content-Language"] == ("de" if language == "de" else "en-gb")
    assert counts["de"] == counts["en"] <= 8, counts

"""The site's own pages in the reader's language (docs/translation.md): the header and footer
every page has, the account page and the messages after its forms are saved, the models' field
names and choices a form shows, the error pages (rendered without a request), sign-in's
reasons, the ladder's and the leagues' words. English readers keep the words as they were."""

from __future__ import annotations

import pytest
from django.template import loader
from django.test import Client
from django.utils import translation

from accounts.models import LanguageSetting
from competitions.models import Event
from competitions.services.ladder import ladder_join
from tests import factories

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9,en;q=0.5"}
NBSP = "\u00a0"


def _reader(name: str, language: str) -> Client:
    """A signed-in person who chose ``language`` (copied into the session at sign-in)."""
    user = factories.user_make(name)
    LanguageSetting.objects.create(user=user, language=language)
    return factories.client_for(user)


def test_a_german_reader_sees_the_header_footer_and_account_page_in_german():
    page = _reader("ann", "de").get("/accounts/").content.decode()
    # The header and footer every page has.
    for words in ("Neue Partie", "Ligen", "Rangliste", "Abmelden", "Zum Inhalt springen"):
        assert words in page, words
    assert 'aria-label="Hauptmenü"' in page
    assert "Zeiten erscheinen in" in page and "Zug um Zug gespielt" in page
    # The account page's sections, with the models' field names and choices.
    for words in ("Ihr Konto", "Urlaub", "Spieleinstellungen speichern", "Blockierte Personen"):
        assert words in page, words
    assert "Jeden Zug bestätigen" in page and "Nur auf einem Touchscreen" in page
    assert "Wer mich herausfordern darf" in page and "Leute, mit denen ich gespielt habe" in page
    for english in ("New match", "Log out", "Your account", "Save the play settings", "Always"):
        assert english not in page, english


def test_an_english_reader_keeps_the_words_as_they_were():
    page = factories.client_for(factories.user_make("bea")).get("/accounts/").content.decode()
    for words in ("New match", "Log out", "Your account", "Save the play settings"):
        assert words in page, words
    assert "Confirm each move" in page and "On a touch screen only" in page
    assert "Times show in UTC (" in page


def test_the_messages_after_saving_speak_the_readers_language():
    client = _reader("cal", "fr")
    saved = client.post(
        "/accounts/play/", {"confirm_moves": "on", "keyboard_shortcuts": "on"}, follow=True
    )
    assert saved.status_code == 200
    said = saved.content.decode()
    assert f"Réglages de jeu enregistrés{NBSP}: toujours confirmer les coups" in said
    assert "raccourcis clavier activés ; " not in said  # a French space is a no-break one
    assert f"raccourcis clavier activés{NBSP}; mode texte désactivé" in said
    chosen = client.post("/accounts/challenges/", {"who": "nobody"}, follow=True)
    assert f"Qui peut vous défier{NBSP}: Personne." in chosen.content.decode()
    refused = client.post("/accounts/challenges/", {"who": "garbage"})
    assert refused.status_code == 400
    assert "Rien n’a changé" in refused.content.decode()


def test_the_play_settings_message_in_english_is_the_one_it_always_was():
    client = factories.client_for(factories.user_make("dan"))
    saved = client.post("/accounts/play/", {"confirm_moves": "auto"}, follow=True)
    assert (
        "Play settings saved: confirm moves on a touch screen only; the next table waiting for "
        "you opens by its link; keyboard shortcuts off; text mode off."
    ) in saved.content.decode()


def test_the_error_pages_speak_the_active_language_without_a_request():
    with translation.override("de"):
        missing = loader.render_to_string("404.html")
        assert "Diese Seite gibt es nicht" in missing and "Fehler 404" in missing
        assert '<html lang="de">' in missing
        assert "Regeln von" in missing  # the rules pages' links, the help every page has
    with translation.override("fr"):
        busy = loader.render_to_string("503.html", {"retry_after": 30})
        assert "Veuillez réessayer dans environ 30 secondes." in busy
        assert "environ 1 seconde." in loader.render_to_string("503.html", {"retry_after": 1})
    assert "in about 30 seconds." in loader.render_to_string("503.html", {"retry_after": 30})
    page = Client(**GERMAN).get("/no-such-page/")
    assert page.status_code == 404 and "Diese Seite gibt es nicht" in page.content.decode()


def test_the_sign_in_page_says_why_in_german():
    page = Client(**GERMAN).get("/accounts/login/?next=/accounts/").content.decode()
    assert "Melden Sie sich an, um diese Seite zu sehen." in page
    assert "Passwort vergessen?" in page


def test_the_ladder_speaks_german_its_rules_its_places_and_its_refusals():
    ann = factories.user_make("ann")
    LanguageSetting.objects.create(user=ann, language="de")
    ladder_join(game="faraway", user=ann)
    client = factories.client_for(ann)
    page = client.get("/ladder/faraway/").content.decode()
    assert "Rangliste von The Faraway Tree" in page
    assert "Sie stehen ganz oben, auf Platz 1 von 1." in page
    assert "Fordern Sie jeden heraus, der bis zu" in page
    assert "ann ist auf Platz 1 eingestiegen." in page
    # A refusal from the rules, worded by the reader's gettext.
    refused = client.post(
        "/ladder/faraway/challenge/", {"username": "nobody-here"}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 404
    assert "nobody-here ist nicht auf dieser Rangliste." in refused.content.decode()
    stranger = _reader("eve", "de")
    stranger_page = stranger.get("/ladder/faraway/").content.decode()
    assert "Sie sind nicht auf dieser Rangliste (1 Person darauf)." in stranger_page
    # Withdrawn from nothing: the left message in German.
    left = stranger.post("/ladder/faraway/leave/", follow=True)
    assert "Sie waren nicht auf dieser Rangliste." in left.content.decode()


def test_the_leagues_list_and_a_leagues_page_speak_french():
    client = _reader("fay", "fr")
    listed = client.get("/leagues/").content.decode()
    assert "Ligues" in listed and "Aucune ligue n’est en cours." in listed
    event = Event.objects.create(
        name="Ligue d’hiver",
        game="faraway",
        seats=2,
        circle_size=3,
        circles=1,
        deadline_days=1,
        holidays=True,
        open_tables_most=1,
        absences_most=2,
    )
    page = client.get(f"/leagues/{event.pk}/").content.decode()
    assert "Ouvertes aux inscriptions" in page  # the status's choice label
    assert "The Faraway Tree à des tables de 2, en poules de 3" in page
    assert "Un délai de 1 jour par tour, vacances permises." in page
    assert "S’inscrire à cette ligue" in page

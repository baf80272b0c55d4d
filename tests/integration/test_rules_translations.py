"""The rules pages in the reader's language (docs/translation.md, "The rules pages"): a German
reader gets the German page, a French reader the French one, a person's stored choice wins over
the browser, and a page not translated yet is the English one (marked ``lang``), never a 404.
The anchors and the lessons' link stay the same in every language."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.test import Client

from accounts.models import LanguageSetting
from tests import factories

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9,en;q=0.5"}
FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def _rules(client: Client, game: str, **headers: str) -> tuple[str, str]:
    response = client.get(f"/rules/{game}/", **headers)
    assert response.status_code == 200
    return response.content.decode(), response["Content-Language"]


def test_a_german_reader_gets_the_german_rules():
    page, language = _rules(Client(), "faraway", **GERMAN)
    assert language == "de" and '<html lang="de">' in page
    assert '<h1 id="how-to-play-the-faraway-tree">So spielen Sie The Faraway Tree</h1>' in page
    assert 'id="rules-translation"' in page and "Übersetzung der gedruckten Spielregeln" in page
    assert "Ist Ihre Hand zu Beginn Ihres Zuges" in page
    assert "The Saucepan Man" in page  # the names as printed
    assert "How to play the Faraway Tree" not in page and "Every turn has" not in page
    assert '<div lang="' not in page  # the page's own language: nothing to mark
    gulliver, _ = _rules(Client(), "gulliver", **GERMAN)
    assert "Loves (liebt)" in gulliver and "Wortkarten bleiben englisch" in gulliver


def test_a_french_reader_gets_the_french_rules():
    page, language = _rules(Client(), "gulliver", **FRENCH)
    assert language == "fr"
    assert "Comment jouer à Gulliver" in page and "Loves (aime)" in page
    assert "Ceci est une traduction de la règle imprimée." in page
    faraway, _ = _rules(Client(), "faraway", **FRENCH)
    assert "Votre tour" in faraway and "Land of Birthdays" in faraway


def test_an_english_reader_gets_the_english_rules():
    page, language = _rules(Client(), "faraway", **ENGLISH)
    assert language == "en-gb"
    assert "How to play the Faraway Tree" in page and 'id="rules-translation"' not in page


def test_a_persons_stored_language_wins_over_the_browser_on_the_rules():
    ann = factories.user_make("ann")
    LanguageSetting.objects.create(user=ann, language="fr")
    page, language = _rules(factories.client_for(ann), "faraway", **GERMAN)
    assert language == "fr" and "Comment jouer à The Faraway Tree" in page


@pytest.mark.parametrize("headers", [GERMAN, FRENCH, ENGLISH], ids=["de", "fr", "en"])
@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_every_language_keeps_the_anchors_and_the_lessons_link(game, headers):
    """The headings' ids are the English page's in every language (a link to
    ``/rules/<game>/#dealing`` lands the same), and the link to the game's lessons stays."""
    page, _ = _rules(Client(), game, **headers)
    for anchor in ("the-cards", "dealing", "your-turn", "winning"):
        assert f'id="{anchor}"' in page
    assert f'href="/learn/#learn-{game}"' in page
    assert "Accept-Language" in Client().get(f"/rules/{game}/", **headers)["Vary"]


def test_a_missing_translation_serves_the_english_page_marked_english(settings, tmp_path: Path):
    rules = Path(settings.PARLOUR_RULES_DIR)
    for name in ("faraway.md", "faraway.de.md", "gulliver.md"):
        shutil.copy(rules / name, tmp_path / name)
    settings.PARLOUR_RULES_DIR = tmp_path
    page, language = _rules(Client(), "gulliver", **GERMAN)
    assert language == "de"
    assert '<div lang="en-gb"><h1 id="how-to-play-gullivers-travels">' in page
    assert "How to play Gulliver" in page
    german, _ = _rules(Client(), "faraway", **GERMAN)
    assert "So spielen Sie" in german
    french, _ = _rules(Client(), "faraway", **FRENCH)
    assert '<div lang="en-gb">' in french and "How to play the Faraway Tree" in french
    # No page at all is still a 404.
    (tmp_path / "gulliver.md").unlink()
    assert Client().get("/rules/gulliver/", **GERMAN).status_code == 404

"""Gulliver's word cards stay English, each glossed in the reader's language
(docs/translation.md): every word has a gloss in every language the site speaks but English,
and the card's accessible name carries it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from games.engines import gulliver_words
from games.presentation import gulliver
from games.presentation.gulliver_glosses import GLOSSES, gloss

TRANSLATED = [code for code, _name in settings.LANGUAGES if not code.startswith("en")]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_word_card_has_a_gloss_in_every_language_but_english(language):
    words = set(gulliver_words.CLASS_OF)
    assert set(GLOSSES[language]) == words
    assert all(gloss(word, language).strip() for word in words)


def test_an_english_reader_gets_no_gloss_and_the_word_stays_english():
    with translation.override("en-gb"):
        face = gulliver.face("Loves")
        assert (face["word"], face["gloss"], face["aria_label"]) == ("Loves", "", "Loves, verb")


@pytest.mark.parametrize(
    ("language", "label"),
    [("de", "Loves, Verb (liebt)"), ("fr", "Loves, verbe (aime)")],
)
def test_the_card_names_its_word_in_english_and_its_gloss_in_the_readers_language(language, label):
    with translation.override(language):
        face = gulliver.face("Loves")
    assert face["word"] == "Loves" and face["aria_label"] == label


def test_a_language_without_glosses_gets_none_and_a_regional_code_finds_its_own():
    assert gloss("Loves", "nl") == ""
    assert gloss("Loves", "de-at") == "liebt"

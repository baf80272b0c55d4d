"""The rules pages players read (docs/translation.md, "The rules pages"): every English page in
``docs/rules`` has a German and a French translation beside it with the same structure (the same
headings with the same anchors, so a link to ``/rules/<game>/#dealing`` lands in any language,
the same tables' rows, the same list items), saying it is a translation; the names printed on
the cards stay as printed (the Faraway Tree's characters and places, Gulliver's English word
cards). And the renderer keeps only plain attributes: the attribute lists a translation uses
for its anchors ask for nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from games.engines import registered
from games.engines.faraway_cards import STORY_CARDS
from games.engines.gulliver_words import WORDS
from games.pages import page_translated, render_markdown_text
from games.presentation.gulliver_glosses import GLOSSES

RULES = Path(settings.BASE_DIR) / "docs" / "rules"
TRANSLATED = [code for code, _name in settings.LANGUAGES if not code.startswith("en")]
ORIGINALS = sorted(path for path in RULES.glob("*.md") if "." not in path.stem)

# What each game's cards print, kept as printed in every language.
PRINTED = {
    "faraway": [card.name for card in STORY_CARDS],
    "gulliver": [word for word, _class, _copies in WORDS],
}

HEADING = re.compile(r'<h([1-6]) id="([^"]+)"')


def _structure(html: str) -> dict[str, object]:
    return {
        "headings": HEADING.findall(html),
        "tables": html.count("<table"),
        "rows": html.count("<tr"),
        "list items": html.count("<li"),
        "ordered lists": html.count("<ol"),
    }


def _page(path: Path) -> str:
    return render_markdown_text(path.read_text(encoding="utf-8"))


def test_every_registered_game_has_an_english_rules_page_and_its_printed_names():
    assert {path.stem for path in ORIGINALS} == {engine.name for engine in registered()}
    assert set(PRINTED) == {engine.name for engine in registered()}


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("original", ORIGINALS, ids=lambda path: path.stem)
def test_each_translation_has_the_originals_structure_and_anchors(original, language):
    translation = original.with_name(f"{original.stem}.{language}.md")
    assert translation.is_file(), f"{translation.name} is missing"
    english, translated = _page(original), _page(translation)
    assert _structure(translated) == _structure(english)
    # It says it is a translation, where a reader starts.
    assert 'id="rules-translation"' in translated.split("<h2", 1)[0]
    # Every word is the translation's own: no heading left in English.
    english_headings = re.findall(r"<h[1-6][^>]*>(.*?)</h", english)
    translated_headings = re.findall(r"<h[1-6][^>]*>(.*?)</h", translated)
    assert not set(english_headings) & set(translated_headings)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("original", ORIGINALS, ids=lambda path: path.stem)
def test_the_names_printed_on_the_cards_stay_as_printed(original, language):
    english = original.read_text(encoding="utf-8")
    translated = original.with_name(f"{original.stem}.{language}.md").read_text(encoding="utf-8")
    for name in PRINTED[original.stem]:
        word = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        if word.search(english):
            assert word.search(translated), f"{name!r} is not kept as printed ({language})"


@pytest.mark.parametrize("language", TRANSLATED)
def test_gullivers_word_cards_carry_the_glosses_meaning_in_brackets(language):
    """Where the cards are listed, each English word is followed by its meaning, the one the
    table's cards carry (``games/presentation/gulliver_glosses.py``): one meaning a word."""
    page = (RULES / f"gulliver.{language}.md").read_text(encoding="utf-8")
    for word, _class, _copies in WORDS:
        gloss = GLOSSES[language][word]
        if gloss == word:
            continue  # Gulliver is Gulliver
        meaning = gloss.split(", ", 1)[-1]  # "Gabby, der Ausrufer": Gabby (der Ausrufer)
        assert re.search(rf"{re.escape(word)} \([^)]*{re.escape(meaning)}", page), (word, meaning)


def test_a_page_is_read_in_the_readers_language_else_in_english(tmp_path):
    (tmp_path / "faraway.md").write_text("# English\n", encoding="utf-8")
    (tmp_path / "faraway.de.md").write_text("# Deutsch\n", encoding="utf-8")
    original = (tmp_path / "faraway.md", "en-gb")
    assert page_translated(tmp_path, "faraway", "de", "en-gb") == (
        tmp_path / "faraway.de.md",
        "de",
    )
    assert page_translated(tmp_path, "faraway", "de-at", "en-gb") == (
        tmp_path / "faraway.de.md",
        "de",
    )
    assert page_translated(tmp_path, "faraway", "fr", "en-gb") == original
    assert page_translated(tmp_path, "faraway", "en-gb", "en-gb") == original
    # A code that is no language never reaches a file name.
    (tmp_path / "faraway.x.md").write_text("# x\n", encoding="utf-8")
    for garbage in ("../faraway", "x", "", "de/../../etc"):
        assert page_translated(tmp_path, "faraway", garbage, "en-gb") == original
    assert page_translated(tmp_path, "gulliver", "de", "en-gb") is None


def test_attribute_lists_name_ids_and_nothing_else():
    html = render_markdown_text(
        "## Die Karten {#the-cards}\n\n"
        "*Übersetzung*\n{: #rules-translation }\n\n"
        '## X {: onclick="x()" style="color: red" .loud }\n\n'
        "[a](/x){: onmouseover=y }\n\n[b](javascript:x()){: #b }\n\n3. c\n4. d\n"
    )
    assert '<h2 id="the-cards">Die Karten</h2>' in html
    assert '<p id="rules-translation"><em>Übersetzung</em></p>' in html
    for unsafe in ("onclick", "style", "class", "onmouseover", "javascript:"):
        assert unsafe not in html
    assert '<a href="/x">a</a>' in html and '<a id="b">b</a>' in html
    assert '<ol start="3">' in html

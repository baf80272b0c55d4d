"""Each language's catalogs tidied at start (``core.translation_lookups``): shorter lookups, and
every word, plural and context found exactly as Django's untouched catalogs find it."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

from core.translation_lookups import tidy

LANGUAGES = [code for code, _name in settings.LANGUAGES]
# Words no catalog holds, and one in a context no catalog knows: these walk every fallback.
MISSES = ["No such words in any catalogue", "no such context\x04Pack"]


def _chain(language: Any) -> list[Any]:
    nodes = []
    while language is not None:
        nodes.append(language)
        language = language._fallback
    return nodes


def _lists(language: Any) -> int:
    """How many dictionaries a lookup may try, over the whole fallback chain."""
    return sum(
        len(getattr(node._catalog, "_catalogs", [node._catalog])) for node in _chain(language)
    )


def _as_django_builds(code: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A translation of ``code`` built afresh, its fallbacks too, none of them tidied."""
    monkeypatch.setattr(trans_real, "_translations", {})
    return trans_real.DjangoTranslation(code)


def _keys(language: Any) -> tuple[set[str], set[str]]:
    singular, plural = set(), set()
    for node in _chain(language):
        for key in node._catalog.keys():  # noqa: SIM118 (a TranslationCatalog is no dict)
            if isinstance(key, tuple):
                plural.add(key[0])
            elif key:
                singular.add(key)
    return singular, plural


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_tidied_catalogs_find_every_word_as_before(code, monkeypatch):
    untouched = _as_django_builds(code, monkeypatch)
    tidied = _as_django_builds(code, monkeypatch)
    tidy(tidied)
    singular, plural = _keys(untouched)
    assert singular and len(singular) > 100  # the site's words and Django's, at least
    for msgid in sorted(singular) + MISSES:
        assert tidied.gettext(msgid) == untouched.gettext(msgid), msgid
    for msgid in sorted(plural) + MISSES:
        for n in (0, 1, 2, 5, 21, 101):
            assert tidied.ngettext(msgid, msgid + "s", n) == untouched.ngettext(
                msgid, msgid + "s", n
            ), (msgid, n)
    assert len(_chain(tidied)) < len(_chain(untouched))
    assert _lists(tidied) < _lists(untouched)


@pytest.mark.parametrize("code", [c for c in LANGUAGES if not c.startswith("en")])
def test_a_translated_language_still_says_its_words(code):
    with translation.override(code):
        assert translation.gettext("Pack") != "Pack"
        assert translation.gettext("No such words in any catalogue") == (
            "No such words in any catalogue"
        )


def test_the_site_s_languages_are_tidied_when_it_starts():
    """The translations every request uses (``core.apps``): no header-only fallback left, so a
    British English miss stops at its own catalogs."""
    for code in LANGUAGES:
        language = trans_real.translation(code)
        for node in _chain(language)[1:]:
            assert any(key != "" for key in node._catalog.keys()), code  # noqa: SIM118
    assert len(_chain(trans_real.translation(settings.LANGUAGE_CODE))) == 1

"""Shorter lookups for every ``gettext`` of a page: each language's catalogs tidied once, at start.

Django builds one translation object per language from every installed app's catalogs and the
project's (``django.utils.translation.trans_real``), and every ``gettext`` or ``{% translate %}``
of a request walks what it built. Two things make that walk longer than the words need:

- each catalog with a plural rule of its own is kept apart and tried in turn; Django means to
  merge catalogs whose rule is the same, but compares a rule's code with the rule itself, so
  none is ever merged (British English keeps 5 lists, German and French 7);
- Python's ``gettext`` adds, behind each ``en_GB`` catalog found, the ``en`` catalog beside it
  as a fallback: Django's, the admin's, auth's... each holding nothing but its header. British
  English being the site's own words, nearly every lookup misses and walks all five of them.

``tidy(translation)`` merges the neighbouring catalogs whose plural rules are the same function
(the first found still wins, as before) and takes out of the fallback chain each catalog that
holds only its header; ``tidy_languages()`` does it for every language of ``settings.LANGUAGES``
when the platform's app is ready (``core.apps``). Every word found is the one found before
(``tests/unit/test_translation_lookups.py`` compares them all). A language loaded afresh later
(tests changing ``LANGUAGES``, the dev server reloading a catalog) is left as Django builds it:
slower, never different.
"""

from __future__ import annotations

import gettext
from typing import Any

from django.conf import settings
from django.utils.translation import trans_real


def _same_rule(a: Any, b: Any) -> bool:
    """Whether two plural rules are the same function (gettext compiles each from its text)."""
    return a is b or (
        getattr(a, "__code__", None) is not None
        and a.__code__ == getattr(b, "__code__", None)
        and a.__defaults__ == b.__defaults__
        and a.__closure__ is None
        and b.__closure__ is None
    )


def _merge_catalogs(catalog: Any) -> None:
    """Merge the neighbouring lists of a ``TranslationCatalog`` that share a plural rule."""
    catalogs = getattr(catalog, "_catalogs", None)
    plurals = getattr(catalog, "_plurals", None)
    if not catalogs or plurals is None or len(catalogs) != len(plurals):
        return
    merged: list[dict[Any, Any]] = []
    rules: list[Any] = []
    for words, rule in zip(catalogs, plurals, strict=True):
        if rules and _same_rule(rules[-1], rule):
            # The earlier list wins a key both hold, as its lookup came first.
            merged[-1] = {**words, **merged[-1]}
        else:
            merged.append(dict(words))
            rules.append(rule)
    catalog._catalogs[:] = merged
    catalog._plurals[:] = rules


def _header_only(translation: gettext.NullTranslations) -> bool:
    """A catalog with nothing in it but its header (the entry under ``""``)."""
    words = getattr(translation, "_catalog", None)
    return (
        isinstance(translation, gettext.GNUTranslations)
        and isinstance(words, dict)
        and all(key == "" for key in words)
    )


def tidy(translation: gettext.NullTranslations) -> None:
    """Shorten ``translation``'s lookups in place, every answer unchanged."""
    seen: set[int] = set()
    node: Any = translation
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        _merge_catalogs(getattr(node, "_catalog", None))
        # Skip the header-only catalogs behind this one: a lookup there always moves on.
        after = node._fallback
        while after is not None and _header_only(after):
            after = after._fallback
        node._fallback = after
        node = after


def tidy_languages() -> None:
    """Load and tidy the translation of every language the site offers."""
    if not settings.USE_I18N:
        return
    for code, _name in settings.LANGUAGES:
        tidy(trans_real.translation(code))

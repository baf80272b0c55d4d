"""The German and French catalogues (docs/translation.md): complete, their placeholders the
English ones, and each committed ``.mo`` (what the site reads) saying exactly what its ``.po``
(what translators edit) says, so neither ``make run`` nor CI needs GNU gettext to compile them.
The ``.po`` is read here by a small reader of the format ``makemessages`` writes."""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if not code.startswith("en")]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|%%")


@dataclass
class Entry:
    msgid: str
    msgstr: list[str]
    context: str | None = None
    plural: str | None = None
    fuzzy: bool = False


def po_entries(path: Path) -> list[Entry]:
    """Every entry of a ``.po`` file but its header."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    fuzzy = False
    last = ""

    def flush() -> None:
        nonlocal fields, fuzzy
        if "msgid" in fields and fields["msgid"] != "":
            forms = [v for k, v in sorted(fields.items()) if k.startswith("msgstr")]
            entries.append(
                Entry(
                    fields["msgid"], forms, fields.get("msgctxt"), fields.get("msgid_plural"), fuzzy
                )
            )
        fields, fuzzy = {}, False

    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            flush()
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            fields[last] += ast.literal_eval(line)
        else:
            last, _, value = line.partition(" ")
            if (
                last in fields
                or (last == "msgctxt" and fields)
                or (last == "msgid" and "msgid" in fields)
            ):
                flush()
            fields[last] = ast.literal_eval(value)
    return entries


def _catalogue(language: str) -> tuple[list[Entry], gettext.GNUTranslations]:
    folder = LOCALE / language / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as compiled:
        return po_entries(folder / "django.po"), gettext.GNUTranslations(compiled)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_entry_is_translated_and_none_is_fuzzy(language):
    entries, _mo = _catalogue(language)
    assert len(entries) > 250
    untranslated = [e.msgid for e in entries if e.fuzzy or not all(e.msgstr)]
    assert untranslated == [], f"{language}: translate these (docs/translation.md)"


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_translation_keeps_the_english_placeholders(language):
    entries, _mo = _catalogue(language)
    for entry in entries:
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        for form in entry.msgstr:
            assert sorted(PLACEHOLDER.findall(form)) == wanted, (entry.msgid, form)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_committed_mo_says_what_the_po_says(language):
    entries, mo = _catalogue(language)
    for entry in entries:
        if entry.plural is None:
            got = (
                mo.pgettext(entry.context, entry.msgid)
                if entry.context
                else mo.gettext(entry.msgid)
            )
            assert got == entry.msgstr[0], f"{language}: run make compilemessages ({entry.msgid})"
        else:
            forms = [mo.ngettext(entry.msgid, entry.plural, n) for n in (1, 2)]
            assert forms == entry.msgstr, f"{language}: run make compilemessages ({entry.msgid})"
    # Nothing more in the .mo than in the .po (a stale compile of an entry since removed).
    assert len(mo._catalog) - 1 == sum(len(e.msgstr) if e.plural else 1 for e in entries)


def test_the_reader_reads_what_makemessages_writes(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: de\\n"\n\n'
        'msgctxt "word class"\nmsgid "verb"\nmsgstr "Verb"\n\n'
        'msgid "%(count)d card"\nmsgid_plural "%(count)d cards"\n'
        'msgstr[0] "%(count)d Karte"\nmsgstr[1] "%(count)d Karten"\n\n'
        '#, fuzzy\nmsgid "Long "\n"line"\nmsgstr ""\n',
        encoding="utf-8",
    )
    assert po_entries(po) == [
        Entry("verb", ["Verb"], "word class"),
        Entry("%(count)d card", ["%(count)d Karte", "%(count)d Karten"], None, "%(count)d cards"),
        Entry("Long line", [""], None, None, fuzzy=True),
    ]

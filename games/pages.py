"""The Markdown pages players read (the rules of each game), in the reader's language: which
file a language reads (a translation beside the English original, the original when there is
none), and its rendering, with raw HTML refused, unsafe links dropped and only plain attributes
kept.

(The rules themselves, as the engines play them, live in ``games/engines``; this module only
renders the player-facing pages in ``docs/rules``: ``<game>.md`` in English, and each
translation beside it as ``<game>.<language>.md``, docs/translation.md.)
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

import markdown
from django.utils.safestring import SafeString, mark_safe
from markdown.treeprocessors import Treeprocessor

SAFE_SCHEMES = {"", "http", "https", "mailto"}
# The attributes Markdown itself writes (links, images, the headings' ids, a list's start):
# anything else an attribute list ({: ...}) asks for, such as onclick or style, is dropped.
SAFE_ATTRIBUTES = frozenset({"href", "src", "alt", "title", "id", "start"})
# A language code as LANGUAGES spells them ("de", "en-gb"): nothing else reaches a file name.
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})?")


class _SafeAttributes(Treeprocessor):
    """Only the attributes of ``SAFE_ATTRIBUTES``; ``javascript:`` and other schemes in links
    or images are dropped, keeping the text."""

    def run(self, root):  # type: ignore[no-untyped-def]
        for element in root.iter():
            for attr in list(element.attrib):
                if attr not in SAFE_ATTRIBUTES:
                    del element.attrib[attr]
            for attr in ("href", "src"):
                value = element.get(attr)
                if value is not None and urlsplit(value.strip()).scheme.lower() not in SAFE_SCHEMES:
                    del element.attrib[attr]
        return None


def render_markdown_text(text: str) -> SafeString:
    """``text`` as HTML. A heading may name its id (``## Die Karten {#the-cards}``), so a
    translation keeps the original's anchors, and a paragraph its own (``{: #its-id }``)."""
    md = markdown.Markdown(
        extensions=["tables", "sane_lists", "attr_list", "toc"], output_format="html"
    )
    # Without these two, Markdown passes raw HTML through; removed, any tag is shown as text.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_SafeAttributes(md), "safe_attributes", 0)
    return mark_safe(md.convert(text))  # raw HTML escaped, unsafe attributes dropped above


@lru_cache(maxsize=32)
def _render_cached(path: Path, mtime: float) -> SafeString:
    return render_markdown_text(path.read_text(encoding="utf-8"))


def render_markdown(path: Path) -> SafeString:
    return _render_cached(path, path.stat().st_mtime)


def page_translated(
    directory: Path, name: str, language: str, original_language: str
) -> tuple[Path, str] | None:
    """The page ``name`` of ``directory`` for a reader of ``language``, and the language it is
    written in: ``<name>.<language>.md``, else ``<name>.<its base language>.md`` (``de-at``
    reads ``de``), else the original ``<name>.md``, in ``original_language``. None when not
    even the original exists. A translation missing is never a missing page."""
    code = language.lower()
    for candidate in dict.fromkeys((code, code.split("-")[0])):
        if LANGUAGE_CODE.fullmatch(candidate):
            path = directory / f"{name}.{candidate}.md"
            if path.is_file():
                return path, candidate
    path = directory / f"{name}.md"
    return (path, original_language) if path.is_file() else None

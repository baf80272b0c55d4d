"""The Markdown pages players read (the rules of each game): raw HTML refused, unsafe links dropped.

(The rules themselves, as the engines play them, live in ``games/engines``; this module only
renders the player-facing pages in ``docs/rules``.)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

import markdown
from django.utils.safestring import SafeString, mark_safe
from markdown.treeprocessors import Treeprocessor

SAFE_SCHEMES = {"", "http", "https", "mailto"}


class _DropUnsafeLinks(Treeprocessor):
    """``javascript:`` and other schemes in links or images are dropped, keeping the text."""

    def run(self, root):  # type: ignore[no-untyped-def]
        for element in root.iter():
            for attr in ("href", "src"):
                value = element.get(attr)
                if value is not None and urlsplit(value.strip()).scheme.lower() not in SAFE_SCHEMES:
                    del element.attrib[attr]
        return None


def render_markdown_text(text: str) -> SafeString:
    md = markdown.Markdown(extensions=["tables", "sane_lists", "toc"], output_format="html")
    # Without these two, Markdown passes raw HTML through; removed, any tag is shown as text.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_DropUnsafeLinks(md), "drop_unsafe_links", 0)
    return mark_safe(md.convert(text))  # raw HTML escaped, unsafe links dropped above


@lru_cache(maxsize=8)
def _render_cached(path: Path, mtime: float) -> SafeString:
    return render_markdown_text(path.read_text(encoding="utf-8"))


def render_markdown(path: Path) -> SafeString:
    return _render_cached(path, path.stat().st_mtime)

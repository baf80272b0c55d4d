"""``{% card face %}``: a card face, rendered from its template once per process and kept.

A table shows dozens of faces and a face is the same markup wherever it appears (it holds only
the card's own words, never a seat's secret), so each distinct face renders once from the
template presentation names for it (``face["template"]``) instead of once per ``include``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString

register = template.Library()


@lru_cache(maxsize=1024)
def _rendered(name: str, items: tuple[tuple[str, Any], ...], small: bool) -> SafeString:
    return get_template(name).render({"face": dict(items), "small": small})


@register.simple_tag
def card(face: dict[str, Any], small: bool = False) -> SafeString:
    return _rendered(face["template"], tuple(sorted(face.items())), bool(small))

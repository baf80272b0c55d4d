"""Django's ``{% translate %}`` and ``{% blocktranslate %}`` made cheaper, for every template.

When the platform's app is ready (``core.apps``), ``install()`` points the four translating tags
of Django's own ``i18n`` library at the functions below, so every ``{% load i18n %}`` compiles
them to these nodes with no template changed (a library of the same name in the settings would
do it too, but Django's checks warn of two libraries with one name, templates.W003). They do
less work a render (issue 35: the table partial's ~30 tags cost ~0.3 ms of a 7-8 ms poll):

- ``{% translate "words" %}`` with a plain string (no filter, no ``context``, not ``noop``)
  looks its words up with ``gettext`` at once, where Django's makes a lazy string first and
  then reads it: 6.8 us -> 3.7 us a tag;
- ``{% blocktranslate %}`` keeps the message ids it builds from its text (and, with
  ``trimmed``, the trimming) once made, where Django's builds and trims them each render.

What either says is what Django's says, word for word, in every language, escaped alike
(``tests/unit/test_translate_tags.py`` renders each form of both tags with both).
"""

from __future__ import annotations

from typing import Any

from django.template.base import Variable
from django.templatetags import i18n as django_i18n
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import gettext


class KeptTranslateNode(django_i18n.TranslateNode):
    """``{% translate %}``: a plain string's words looked up at once, not through a lazy string."""

    def __init__(self, node: django_i18n.TranslateNode) -> None:
        super().__init__(node.filter_expression, node.noop, node.asvar, node.message_context)
        var = self.filter_expression.var
        plain = (
            not self.noop
            and self.message_context is None
            and not self.filter_expression.filters
            and isinstance(var, Variable)
            and isinstance(var.literal, str)
        )
        # As Django's ``Variable.resolve`` asks: percent signs doubled, the literal's safety kept.
        self.msgid: str | None = None
        if plain:
            msgid = var.literal.replace("%", "%%")
            self.msgid = mark_safe(msgid) if isinstance(var.literal, SafeData) else msgid

    def render(self, context: Any) -> str:
        if self.msgid is None:
            return super().render(context)
        value = gettext(self.msgid)
        if not isinstance(value, SafeData):  # as Django renders a string that is not safe
            value = django_i18n.render_value_in_context(value, context)
        if "%%" in value:  # the percent signs doubled in the template's text, restored
            is_safe = isinstance(value, SafeData)
            value = value.replace("%%", "%")
            value = mark_safe(value) if is_safe else value
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value


class KeptBlockTranslateNode(django_i18n.BlockTranslateNode):
    """``{% blocktranslate %}``: its message ids built (and trimmed) once, then kept."""

    def render_token_list(self, tokens: list[Any]) -> tuple[str, list[str]]:
        kept = self.__dict__.setdefault("_kept_ids", {})
        hit = kept.get(id(tokens))
        if hit is None or hit[0] is not tokens:
            message, names = super().render_token_list(tokens)
            hit = kept[id(tokens)] = (tokens, message, tuple(names))
        return hit[1], list(hit[2])


def _kept_translate(parser: Any, token: Any) -> Any:
    node = django_i18n.do_translate(parser, token)
    return KeptTranslateNode(node) if type(node) is django_i18n.TranslateNode else node


def _kept_block_translate(parser: Any, token: Any) -> Any:
    node = django_i18n.do_block_translate(parser, token)
    if type(node) is django_i18n.BlockTranslateNode:
        node.__class__ = KeptBlockTranslateNode  # the same node, its ids kept once built
    return node


def install() -> None:
    """Have Django's ``i18n`` library compile its translating tags to the kept nodes."""
    tags = django_i18n.register.tags
    for name in ("translate", "trans"):
        tags[name] = _kept_translate
    for name in ("blocktranslate", "blocktrans"):
        tags[name] = _kept_block_translate

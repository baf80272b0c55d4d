"""``{% theme_colour "felt" %}``: a colour of the stylesheet, for the page's ``theme-color``
(the same colour the web app manifest names: ``games.push.app_shell``)."""

from __future__ import annotations

from django import template

from games.push.app_shell import theme_colours

register = template.Library()


@register.simple_tag
def theme_colour(name: str) -> str:
    return theme_colours()[name]

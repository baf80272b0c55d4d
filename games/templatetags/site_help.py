"""``{% rules_games as games %}``: the games whose rules pages are the site's help, in the
site's order, for the error pages' header (templates/errors/_base.html), which have no context
processors (``parlour_games`` gives the same list to every other page). No query."""

from __future__ import annotations

from django import template

from games.engines import Engine, registered

register = template.Library()


@register.simple_tag
def rules_games() -> list[Engine]:
    return registered()

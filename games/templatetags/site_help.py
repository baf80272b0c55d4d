"""``{% rules_links as links %}``: the rules pages (the site's help) of the registered games, in
the site's order, each with its address and words, for the error pages' header
(templates/errors/_base.html), which run no context processor. No query; under a URLconf
without the rules pages (a test's own), none, so an error page never fails for them."""

from __future__ import annotations

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from games.engines import registered

register = template.Library()


@register.simple_tag
def rules_links() -> list[dict[str, str]]:
    links = []
    for engine in registered():
        try:
            url = reverse("rules", args=[engine.name])
        except NoReverseMatch:
            continue
        links.append({"url": url, "words": _("%(game)s rules") % {"game": engine.short_title}})
    return links

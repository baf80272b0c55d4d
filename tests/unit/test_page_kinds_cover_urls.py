"""Every named URL pattern is a page kind the WCAG walk shows or is listed as no page, with
why (tests/functional/page_kinds.py: ``PAGE_URLS``, ``NOT_PAGES``; issue 37, item 3). So a new
page cannot be missed by the axe scans and measures: its name fails here until it is listed,
and once in ``PAGE_URLS`` the walk must show it (test_wcag_axe_browser.py)."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import URLPattern, URLResolver, get_resolver

from tests.functional.page_kinds import NOT_PAGES, PAGE_URLS


def named_patterns(patterns: Iterable[object] | None = None, namespace: str = "") -> set[str]:
    """Every URL pattern's name, with its namespaces ("admin:index")."""
    found: set[str] = set()
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            found |= named_patterns(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            found.add(namespace + pattern.name)
    return found


def _listed(name: str) -> bool:
    space = name.split(":", 1)[0] + ":" if ":" in name else None
    return name in PAGE_URLS or name in NOT_PAGES or space in NOT_PAGES


def test_every_named_url_is_a_page_kind_or_listed_as_no_page():
    missing = sorted(name for name in named_patterns() if not _listed(name))
    assert missing == [], (
        "add each to tests/functional/page_kinds.py: PAGE_URLS (and a page kind that shows it) "
        "or NOT_PAGES with why it is no page"
    )


def test_the_lists_name_only_urls_there_are_and_each_once():
    names = named_patterns()
    spaces = {name.split(":", 1)[0] + ":" for name in names if ":" in name}
    assert sorted(PAGE_URLS - names) == []
    assert sorted(set(NOT_PAGES) - names - spaces) == []
    assert sorted(PAGE_URLS & set(NOT_PAGES)) == []
    assert all(why.strip() for why in NOT_PAGES.values())

"""Every kind of page scanned by axe-core with the WCAG 2.0, 2.1 and 2.2 A and AA rules and the
best-practice rules, in a real Chromium, at 1280 px, 390 px and 320 px wide (issue 37, item 3;
docs/accessibility.md, "WCAG 2.2 AA").

The page list is tests/functional/page_kinds.py. axe-core comes bundled in
``axe-playwright-python`` (requirements-dev.txt). Only violations fail; what axe cannot decide
alone ("incomplete": text over a card face's gradient, say) is not judged here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page

from tests.functional.page_kinds import PAGE_URLS
from tests.functional.wcag_walk import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page kinds each walk shows at least (tests/functional/page_kinds.py).
KINDS_AT_LEAST = 75


def violations(page: Page, kind: str) -> list[str]:
    """One line per element breaking a rule: the page kind, the rule, where, and axe's words."""
    return [line for _, line in axe_violations(page, kind)]


def test_the_scan_sees_a_violation(live_server, make_context):
    """The detector itself: a served page with an unlabelled field and an image without a text
    alternative fails."""
    page = make_context().new_page()
    page.goto(f"{live_server.url}/")
    assert violations(page, "home") == []
    page.evaluate(
        """() => {
      const main = document.querySelector('main');
      const field = document.createElement('input');
      field.id = 'nameless';
      main.appendChild(field);
      const img = document.createElement('img');
      img.id = 'wordless';
      img.src = '/static/favicon.svg';
      main.appendChild(img);
    }"""
    )
    found = "\n".join(violations(page, "home"))
    assert "[label] #nameless" in found, found
    assert "[image-alt] #wordless" in found, found


@pytest.mark.parametrize("viewport", ["desktop", "phone", "narrow"])
def test_every_page_kind_passes_wcag_22_aa(
    live_server, make_context: Callable[..., BrowserContext], viewport: str, settings, wcag_walks
):
    walked = wcag_walks.of(viewport, make_context, live_server, settings)
    assert len(walked.kinds) >= KINDS_AT_LEAST, walked.kinds
    assert len(set(walked.kinds)) == len(walked.kinds), walked.kinds
    # Every URL that serves a page showed one (a new page cannot be missed: its name must be
    # in page_kinds.PAGE_URLS, tests/unit/test_page_kinds_cover_urls.py).
    assert sorted(PAGE_URLS - walked.seen_url_names) == []
    found = walked.lines["axe"]
    assert found == [], f"{len(found)} WCAG 2.2 AA violations:\n" + "\n".join(found)

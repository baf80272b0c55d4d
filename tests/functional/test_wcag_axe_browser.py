"""Every kind of page scanned by axe-core with the WCAG 2.0, 2.1 and 2.2 A and AA rules and the
best-practice rules, in a real Chromium, at 1280 px, 390 px and 320 px wide (issue 37, item 3;
docs/accessibility.md, "WCAG 2.2 AA").

The page list is tests/functional/page_kinds.py. axe-core comes bundled in
``axe-playwright-python`` (requirements-dev.txt). Only violations fail; what axe cannot decide
alone ("incomplete": text over a card face's gradient, say) is not judged here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page

from tests.functional.page_kinds import walk_every_page
from tests.functional.test_screenshots import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Axe()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
# Rules turned off, each with its reason. Nothing else is.
DISABLED: dict[str, str] = {}
OPTIONS = {
    "runOnly": {"type": "tag", "values": TAGS},
    "rules": {rule: {"enabled": False} for rule in DISABLED},
    "resultTypes": ["violations"],
}
NARROW = {"width": 320, "height": 640}


def violations(page: Page, kind: str) -> list[str]:
    """One line per element breaking a rule: the page kind, the rule, where, and axe's words."""
    results = AXE.run(page, options=OPTIONS)
    lines = []
    for violation in results.response["violations"]:
        for node in violation["nodes"]:
            why = "; ".join(
                check["message"] for part in ("any", "all", "none") for check in node.get(part, [])
            )
            where = ", ".join(str(t) for t in node["target"])
            lines.append(f"{kind}: [{violation['id']}] {where}: {why}")
    return lines


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


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE, NARROW], ids=["desktop", "phone", "narrow"])
def test_every_page_kind_passes_wcag_22_aa(
    live_server, make_context: Callable[..., BrowserContext], viewport: dict[str, Any], settings
):
    settings.PARLOUR_ANALYSIS_ITERATIONS = 6
    settings.PARLOUR_ANALYSIS_SLICE_S = 600
    found: list[str] = []
    kinds: list[str] = []

    def scan(page: Page, kind: str) -> None:
        kinds.append(kind)
        found.extend(violations(page, kind))

    walk_every_page(make_context, live_server.url, scan, viewport=viewport)
    assert len(kinds) >= 50, kinds
    assert found == [], f"{len(found)} WCAG 2.2 AA violations:\n" + "\n".join(found)

"""Every kind of page read by axe-core's ``color-contrast`` rule in a real Chromium, at desktop
(1280 px) and phone (390 px) width: no text falls short of WCAG AA contrast (4.5:1, or 3:1 for
large text).

Issue 26 (5): the "now 927" rating chip on a finished table was light green on white. axe-core
comes bundled in ``axe-playwright-python`` (pinned in requirements-dev.txt), so nothing is
downloaded at run time; it is injected through the browser tooling (``page.evaluate``), which
the page's Content Security Policy does not govern, so no context here needs ``bypass_csp``.

The pages are the one list of page kinds (tests/functional/page_kinds.py), with what the
scripts show on them (a link copied, a replay playing, a lesson's "try again"), walked once a
viewport for this and the WCAG tests (tests/functional/wcag_walk.py): the walk's axe scan runs
the ``color-contrast`` rule with the others, and this test reads its findings.

Only the rule's violations fail the test. What axe cannot decide alone (text over a gradient or
an image, such as the card faces' backgrounds) it reports as "incomplete", which is not judged.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page

from tests.functional.wcag_walk import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Axe()
CONTRAST_ONLY = {"runOnly": ["color-contrast"], "resultTypes": ["violations"]}


def _violations(page: Page, kind: str) -> list[str]:
    """One line per element whose text lacks contrast: the page kind, where, and axe's words
    (the colours and the ratio found)."""
    results = AXE.run(page, options=CONTRAST_ONLY)
    lines = []
    for violation in results.response["violations"]:
        for node in violation["nodes"]:
            why = "; ".join(check["message"] for check in node.get("any", []))
            lines.append(f"{kind} ({page.url}): {', '.join(node['target'])}: {why}")
    return lines


def test_the_check_sees_low_contrast(live_server, make_context):
    """The detector itself: grey text on a light grey ground, put into a served page, fails."""
    page = make_context().new_page()
    page.goto(f"{live_server.url}/")
    assert _violations(page, "home") == []
    page.evaluate(
        """() => {
      const p = document.createElement('p');
      p.className = 'muted';
      p.textContent = 'Hardly readable';
      p.id = 'faint';
      document.querySelector('main').appendChild(p);
      document.documentElement.style.setProperty('--muted', '#d0d0d0');
    }"""
    )
    found = _violations(page, "home")
    assert any("#faint" in line for line in found), found
    # The walk's scan (every tag's rules at once) finds it as the contrast rule's too.
    scanned = [line for rule, line in axe_violations(page, "home") if rule == "color-contrast"]
    assert any("#faint" in line for line in scanned), scanned


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_every_page_kind_has_readable_text(
    live_server,
    make_context: Callable[..., BrowserContext],
    viewport: str,
    settings,
    wcag_walks,
):
    walked = wcag_walks.of(viewport, make_context, live_server, settings)
    for kind in ("lesson, try again", "table waiting, link copied (faraway)", "staff figures"):
        assert kind in walked.kinds, walked.kinds
    found = walked.lines["contrast"]
    assert found == [], "text below WCAG AA contrast:\n" + "\n".join(found)

"""One walk of every page kind (tests/functional/page_kinds.py) a viewport, for every WCAG test
at once: each page is opened once and everything asked of it at that width is taken in the
same visit (an axe scan, whose ``color-contrast`` findings the contrast test reads, and the
measures of tests/functional/wcag_measures.js), then the focus walk, which moves the page.

A walk builds its site and runs inside the first test that asks for its viewport (in that
test's database); what it found is kept for the session (``Walks``, the ``wcag_walks`` fixture of
tests/functional/conftest.py), so the other tests at that width read it without walking again.
Each test still asserts its own part. A walk that failed fails each test that asks for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from tests.functional.page_kinds import walk_every_page
from tests.functional.test_screenshots import DESKTOP, PHONE

NARROW = {"width": 320, "height": 640}
VIEWPORTS: dict[str, dict[str, int]] = {"desktop": DESKTOP, "phone": PHONE, "narrow": NARROW}
# What each walk takes on every page (the tests that read each: test_wcag_*_browser.py,
# test_contrast_browser.py). "axe" gives "contrast" too.
CHECKS: dict[str, tuple[str, ...]] = {
    "desktop": ("axe", "targets", "nav", "focus"),
    "phone": ("axe", "targets", "motion", "focus"),
    "narrow": ("axe", "overflow"),
}
# Page kinds the Tab walk leaves out, each with its reason.
NOT_TABBED = {
    "replay, copied and playing (faraway)": "autoplay swaps the frame under the Tab walk; the "
    "same page is tabbed through still (the replays before it)",
    "replay, copied and playing (gulliver)": "as above",
}

AXE = Axe()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
# Rules turned off, each with its reason. Nothing else is.
DISABLED: dict[str, str] = {}
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": TAGS},
    "rules": {rule: {"enabled": False} for rule in DISABLED},
    "resultTypes": ["violations"],
}
MEASURES = (Path(__file__).parent / "wcag_measures.js").read_text()
# The most Tab presses a page is given before its walk stops (the longest page has fewer stops).
MOST_TABS = 300


def measure(page: Page, name: str) -> Any:
    """One of tests/functional/wcag_measures.js's measures, taken in the page."""
    return page.evaluate(f"{MEASURES}.{name}()")


def axe_violations(page: Page, kind: str) -> list[tuple[str, str]]:
    """One (rule, line) per element breaking a rule; the line says the page kind, the rule,
    where, and axe's words."""
    results = AXE.run(page, options=AXE_OPTIONS)
    lines = []
    for violation in results.response["violations"]:
        for node in violation["nodes"]:
            why = "; ".join(
                check["message"] for part in ("any", "all", "none") for check in node.get(part, [])
            )
            where = ", ".join(str(t) for t in node["target"])
            lines.append(
                (violation["id"], f"{kind} ({page.url}): [{violation['id']}] {where}: {why}")
            )
    return lines


def show_request_error(page: Page) -> None:
    """The request-error notice as a failed htmx request shows it (static/js/request_errors.js)."""
    page.evaluate("() => htmx.ajax('GET', '/no/such/page/', {source: document.body, swap: 'none'})")
    expect(page.locator("#request-error")).to_be_visible()


def focus_hidden(page: Page, kind: str) -> list[str]:
    """Tabbing through the page with the request-error notice showing: each focused control
    that is wholly hidden."""
    if page.locator("#request-error").count() == 0:
        return []  # the error pages have no scripts and no notice
    show_request_error(page)
    measure(page, "focusReset")
    found = []
    for _ in range(MOST_TABS):
        page.keyboard.press("Tab")
        where = measure(page, "focused")
        if where is None:
            break
        if not where["seen"]:
            found.append(f"{kind}: {where['name']} hidden when focused")
    page.evaluate("() => { document.getElementById('request-error').hidden = true; }")
    return found


@dataclass
class Found:
    """What one walk found: the kinds shown, their pages' URL names, each check's lines."""

    kinds: list[str] = field(default_factory=list)
    seen_url_names: set[str] = field(default_factory=set)
    lines: dict[str, list[str]] = field(default_factory=dict)
    nav: dict[str, list[str]] = field(default_factory=dict)


def _walk(viewport: str, make_context: Callable[..., BrowserContext], base: str) -> Found:
    checks = CHECKS[viewport]
    found = Found(lines={name: [] for name in (*checks, "contrast") if name != "nav"})

    def check(page: Page, kind: str) -> None:
        if "axe" in checks:
            for rule, line in axe_violations(page, kind):
                found.lines["axe"].append(line)
                if rule == "color-contrast":
                    found.lines["contrast"].append(line)
        for name in ("overflow", "targets"):
            if name in checks:
                found.lines[name].extend(f"{kind}: {line}" for line in measure(page, name))
        if "nav" in checks:
            found.nav[kind] = measure(page, "nav")
        if "motion" in checks:
            page.emulate_media(reduced_motion="reduce")
            found.lines["motion"].extend(f"{kind}: {line}" for line in measure(page, "motion"))
            page.emulate_media(reduced_motion="no-preference")
        if "focus" in checks and kind not in NOT_TABBED:
            found.lines["focus"].extend(focus_hidden(page, kind))

    walked = walk_every_page(make_context, base, check, viewport=VIEWPORTS[viewport])
    found.kinds, found.seen_url_names = walked.kinds, walked.seen_url_names
    return found


class Walks:
    """Each viewport's walk, taken the first time a test asks for it and kept."""

    def __init__(self) -> None:
        self._done: dict[str, Found | BaseException] = {}

    def of(
        self,
        viewport: str,
        make_context: Callable[..., BrowserContext],
        live_server: Any,
        settings: Any,
    ) -> Found:
        if viewport not in self._done:
            settings.PARLOUR_ANALYSIS_ITERATIONS = 6
            settings.PARLOUR_ANALYSIS_SLICE_S = 600
            try:
                self._done[viewport] = _walk(viewport, make_context, live_server.url)
            except Exception as exc:
                self._done[viewport] = exc
                raise
        done = self._done[viewport]
        if isinstance(done, BaseException):
            raise AssertionError(f"the {viewport} walk failed in an earlier test") from done
        return done

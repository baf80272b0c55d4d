"""The WCAG 2.2 AA criteria axe cannot judge alone, measured in a real Chromium on every kind of
page (tests/functional/page_kinds.py; docs/accessibility.md, "WCAG 2.2 AA"):

- 1.4.10 reflow: nothing scrolls sideways at 320 CSS px (a wide table scrolls inside its own
  focusable region, never the page);
- 2.5.8 target size: every control at least 24 x 24 px, or spaced so that a 24 px circle on it
  touches no other control, or a link inside a sentence;
- 2.4.11 focus not obscured: tabbing through each page with the request-error notice showing
  (fixed at the viewport's foot), the focused control is never wholly hidden;
- 2.3.3 reduced motion: with ``prefers-reduced-motion: reduce``, no element transitions,
  animates or scrolls smoothly;
- 3.2.6 consistent help: the rules pages' links in the same place, in the same order, on every
  page.

The sign-in forms (3.3.8), the table's marks (1.4.1) and the status messages (4.1.3) have
tests of their own: tests/functional/test_wcag_forms_browser.py.

Every page kind is walked once a viewport for all these tests and the axe scans
(tests/functional/wcag_walk.py): each test asserts its part of what that walk found.
"""

from __future__ import annotations

import pytest

from tests.functional.wcag_walk import measure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _found(wcag_walks, viewport, make_context, live_server, settings, check: str) -> list[str]:
    return wcag_walks.of(viewport, make_context, live_server, settings).lines[check]


def test_nothing_scrolls_sideways_at_320_px(live_server, make_context, settings, wcag_walks):
    found = _found(wcag_walks, "narrow", make_context, live_server, settings, "overflow")
    assert found == [], "pages wider than 320 px:\n" + "\n".join(found)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_every_target_is_24_px_or_spaced(live_server, make_context, settings, viewport, wcag_walks):
    found = _found(wcag_walks, viewport, make_context, live_server, settings, "targets")
    assert found == [], "controls under 24 x 24 px and crowded:\n" + "\n".join(found)


def test_the_target_check_sees_a_small_crowded_control(live_server, make_context):
    page = make_context().new_page()
    page.goto(f"{live_server.url}/")
    assert measure(page, "targets") == []
    page.evaluate(
        """() => {
      const p = document.createElement('p');
      p.innerHTML = '<button id="tiny-a" class="link-button">a</button>'
        + '<button id="tiny-b" class="link-button">b</button>';
      document.querySelector('main').appendChild(p);
    }"""
    )
    assert any("#tiny-a" in line for line in measure(page, "targets"))


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_focus_is_never_hidden_under_the_notices(
    live_server, make_context, settings, viewport, wcag_walks
):
    found = _found(wcag_walks, viewport, make_context, live_server, settings, "focus")
    assert found == [], "focused controls hidden:\n" + "\n".join(found)


def test_reduced_motion_stops_every_transition(live_server, make_context, settings, wcag_walks):
    found = _found(wcag_walks, "phone", make_context, live_server, settings, "motion")
    assert found == [], "motion with prefers-reduced-motion: reduce:\n" + "\n".join(found)


def test_help_keeps_its_place_on_every_page(live_server, make_context, settings, wcag_walks):
    """The rules pages' links (the site's help) come in the header, in the same order and just
    after the same link, on every page, signed in or out; the error pages too."""
    seen = wcag_walks.of("desktop", make_context, live_server, settings).nav
    for kind, links in seen.items():
        helps = [i for i, name in enumerate(links) if name.endswith(" rules")]
        assert [links[i] for i in helps] == ["Faraway rules", "Gulliver rules"], (kind, links)
        assert helps[1] == helps[0] + 1, (kind, links)
    # Whatever the page, the links before the help are the same for the same reader: a
    # member's menu, a visitor's brand alone, an error page's brand alone.
    places: dict[bool, set[tuple[str, ...]]] = {True: set(), False: set()}
    for links in seen.values():
        before = tuple(links[: links.index("Faraway rules")])
        # The notices badge says its count ("Notices 2"): the count is not the link.
        places["Account" in links].add(tuple(n.rstrip("0123456789 ") for n in before))
    assert places[False] == {("Parlour",)}, places
    assert len(places[True]) == 1, places
    assert sum("Account" in links for links in seen.values()) > 30, seen

"""Every kind of page read by axe-core's ``color-contrast`` rule in a real Chromium, at desktop
(1280 px) and phone (390 px) width: no text falls short of WCAG AA contrast (4.5:1, or 3:1 for
large text).

Issue 26 (5): the "now 927" rating chip on a finished table was light green on white. axe-core
comes bundled in ``axe-playwright-python`` (pinned in requirements-dev.txt), so nothing is
downloaded at run time; it is injected through the browser tooling (``page.evaluate``), which
the page's Content Security Policy does not govern, so no context here needs ``bypass_csp``.

Only the rule's violations fail the test. What axe cannot decide alone (text over a gradient or
an image, such as the card faces' backgrounds) it reports as "incomplete", which is not judged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from games import tasks
from games.lessons import lessons_for
from games.models import AnalysisStatus, Match, MatchAnalysis
from games.presentation.common import move_json
from games.services import match_cancel, match_create, match_join, match_resign
from games.services.analysis import analysis_request
from tests import factories
from tests.analysis_matches import play_greedy
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Axe()
CONTRAST_ONLY = {"runOnly": ["color-contrast"], "resultTypes": ["violations"]}


@dataclass
class Site:
    """The matches every page kind is shown with."""

    waiting: dict[str, Match]
    running: dict[str, Match]
    finished: dict[str, Match]
    analysed: Match
    resigned: Match
    cancelled: Match
    joined: Match


def _build_site() -> Site:
    """Ann and Bea: a waiting, a running and a finished rated match of each game (the finished
    tables carry the rating chips and the result), an analysed finished match, a running match
    cal resigned from, a waiting match ann cancelled (their tables' notes) and a waiting match of
    bea's where ann took a seat (she may leave it)."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    cal = factories.user_make("cal")
    waiting, running, finished = {}, {}, {}
    for n, game in enumerate(("faraway", "gulliver")):
        waiting[game] = match_create(
            game=game, num_players=3, created_by=ann, seed=40 + n, public=False
        )
        running[game] = play_greedy(
            factories.match_make(game=game, players=[ann, bea], seed=50 + n), until_ply=6
        )
        # No chosen seed: a match with a known deal is not rated, and the chips are wanted.
        done = play_greedy(factories.match_make(game=game, players=[ann, bea]))
        assert done.status == Match.Status.FINISHED
        finished[game] = done
    analysed = play_greedy(factories.match_make(game="faraway", players=[ann, bea], seed=11))
    analysis_request(match=analysed, seats=list(analysed.seats.all()), user=ann)
    if MatchAnalysis.objects.get(match=analysed).status != AnalysisStatus.DONE:
        tasks.match_analyse.apply((analysed.pk, analysed.version), throw=True)
    assert MatchAnalysis.objects.get(match=analysed).status == AnalysisStatus.DONE
    resigned = factories.match_make(game="faraway", players=[ann, bea, cal], seed=60)
    match_resign(match_id=resigned.pk, user=cal)
    cancelled = match_create(game="gulliver", num_players=3, created_by=ann, seed=61)
    match_cancel(match_id=cancelled.pk, user=ann)
    joined = match_create(game="faraway", num_players=3, created_by=bea, seed=62, public=True)
    match_join(match=joined, user=ann)
    return Site(
        waiting=waiting,
        running=running,
        finished=finished,
        analysed=analysed,
        resigned=resigned,
        cancelled=cancelled,
        joined=joined,
    )


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


def _check(page: Page, kind: str, url: str, found: list[str], status: int = 200) -> None:
    response = page.goto(url)
    assert response is not None and response.status == status, f"{kind}: {url}"
    page.wait_for_load_state("load")
    found.extend(_violations(page, kind))


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


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_page_kind_has_readable_text(
    live_server, make_context: Callable[..., BrowserContext], viewport: dict[str, Any], settings
):
    settings.PARLOUR_ANALYSIS_ITERATIONS = 6
    settings.PARLOUR_ANALYSIS_SLICE_S = 600
    site = _build_site()
    base = live_server.url
    found: list[str] = []

    context = make_context(viewport=viewport)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = context.new_page()
    _check(page, "home, signed out", f"{base}/", found)
    _check(page, "login", f"{base}/accounts/login/?next=/matches/1/", found)  # with its reason
    _check(page, "register", f"{base}/accounts/register/", found)
    _check(page, "password reset", f"{base}/accounts/password_reset/", found)
    page.get_by_label("Email").fill("ann@example.com")
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_url("**/password_reset/done/")
    found.extend(_violations(page, "password reset sent"))
    for game in ("faraway", "gulliver"):
        _check(page, f"rules ({game})", f"{base}/rules/{game}/", found)
    _check(page, "404", f"{base}/no/such/page/", found, status=404)
    # A form posted without its CSRF cookie: the 403 page.
    page.goto(f"{base}/accounts/login/")
    page.context.clear_cookies()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(factories.PASSWORD)
    with page.expect_response(lambda r: r.url.endswith("/accounts/login/")) as answer:
        page.get_by_role("button", name="Log in").click()
    assert answer.value.status == 403
    page.wait_for_load_state("load")
    found.extend(_violations(page, "403 (CSRF)"))

    log_in(page, base, "ann")
    _check(page, "home, signed in", f"{base}/", found)
    _check(page, "lobby", f"{base}/matches/", found)
    _check(page, "new match", f"{base}/matches/new/", found)
    for game in ("faraway", "gulliver"):
        _check(page, f"table waiting ({game})", f"{base}/matches/{site.waiting[game].pk}/", found)
        page.get_by_role("button", name="Copy the invite link").click()
        expect(page.locator("#invite-link ~ [role=status]")).to_have_text("Copied")
        found.extend(_violations(page, f"table waiting, link copied ({game})"))
        _check(page, f"table in play ({game})", f"{base}/matches/{site.running[game].pk}/", found)
        finished = f"{base}/matches/{site.finished[game].pk}/"
        page.goto(finished)
        expect(page.locator("#outcome")).to_be_visible()
        expect(page.locator(".rc-rating").first).to_contain_text("now ")
        _check(page, f"table finished ({game})", finished, found)
        replay = f"{base}/matches/{site.finished[game].pk}/replay/"
        # The deal (the backward controls off), a move, and the end (the forward ones off).
        last = site.finished[game].ply
        _check(page, f"replay at the deal ({game})", f"{replay}?ply=0&as=all", found)
        _check(page, f"replay ({game})", f"{replay}?ply=5&as=0", found)
        _check(page, f"replay at the end ({game})", f"{replay}?ply={last}&as=all", found)
        # What the scripts show: the copy button's "Copied", autoplay's "Pause".
        page.get_by_role("button", name="Copy link to this position").click()
        expect(page.locator("#replay-share [role=status]")).to_have_text("Copied")
        page.locator("#replay-play").click()
        expect(page.locator("#replay-play")).to_have_text("Pause")
        found.extend(_violations(page, f"replay, copied and playing ({game})"))
        page.locator("#replay-play").click()
    _check(page, "analysis", f"{base}/matches/{site.analysed.pk}/replay/?ply=3&as=all", found)
    expect(page.locator("#analysis")).to_have_attribute("data-status", "done")
    _check(
        page,
        "403 (replay refused)",
        f"{base}/matches/{site.running['faraway'].pk}/replay/?as=all",
        found,
        status=403,
    )
    # Leaving (issue 26, item 13): the confirmation pages and the tables' notes after it.
    _check(page, "resign page", f"{base}/matches/{site.running['faraway'].pk}/resign/", found)
    expect(page.get_by_role("button", name="Yes, resign")).to_be_visible()
    _check(page, "cancel page", f"{base}/matches/{site.waiting['gulliver'].pk}/cancel/", found)
    expect(page.get_by_role("button", name="Yes, cancel the match")).to_be_visible()
    _check(page, "leave page", f"{base}/matches/{site.joined.pk}/leave/", found)
    expect(page.get_by_role("button", name="Yes, leave")).to_be_visible()
    _check(page, "table with a resignation", f"{base}/matches/{site.resigned.pk}/", found)
    expect(page.locator("#resigned-notes")).to_be_visible()
    _check(page, "table cancelled", f"{base}/matches/{site.cancelled.pk}/", found)
    expect(page.locator("#cancelled-note")).to_be_visible()
    _check(page, "history", f"{base}/history/", found)
    _check(page, "notices", f"{base}/notices/", found)
    _check(page, "account", f"{base}/accounts/", found)
    _check(page, "profile", f"{base}/players/ann/", found)
    _check(page, "another's profile", f"{base}/players/bea/", found)
    _check(page, "friends", f"{base}/friends/", found)
    for game in ("faraway", "gulliver"):
        _check(page, f"leaderboard ({game})", f"{base}/leaderboard/{game}/", found)
    _check(page, "notification settings", f"{base}/accounts/notifications/", found)
    _check(page, "404, signed in", f"{base}/matches/999999/", found, status=404)

    invited = make_context(viewport=viewport).new_page()
    log_in(invited, base, "cal")
    token = site.waiting["faraway"].invite_token
    _check(invited, "invite", f"{base}/matches/join/{token}/", found)
    _check(invited, "table as a spectator", f"{base}/matches/{site.running['gulliver'].pk}/", found)

    assert found == [], "text below WCAG AA contrast:\n" + "\n".join(found)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lesson_pages_have_readable_text(live_server, make_context, viewport):
    """The Learn page, a lesson's step, a wrong try's "try again", a lesson's end with its
    stars (signed out), and the staff's figures (docs/lessons.md)."""
    base = live_server.url
    found: list[str] = []
    page = make_context(viewport=viewport).new_page()
    _check(page, "learn, signed out", f"{base}/learn/", found)
    _check(page, "lesson step", f"{base}/learn/gulliver/build/", found)
    moves = factories.lesson_moves(lessons_for("gulliver")[1])
    page.locator("#table button.move[data-move*='prepend']").first.click()  # not this step's
    expect(page.locator("#lesson-answer")).to_contain_text("Try again.")
    found.extend(_violations(page, "lesson, try again"))
    for step, move in enumerate(moves, start=1):
        page.locator(f"#table button.move[data-move='{move_json(move)}']").first.click()
        expect(page.locator("#table")).to_have_attribute("data-step", str(step))
    expect(page.locator("#lesson-stars")).to_be_visible()
    found.extend(_violations(page, "lesson finished"))
    factories.staff_make("sam")
    log_in(page, base, "sam")
    _check(page, "learn, signed in", f"{base}/learn/", found)
    _check(page, "staff figures", f"{base}/staff/figures/", found)
    assert found == [], "\n".join(found)

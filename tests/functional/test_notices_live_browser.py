"""Invitations and offers reach open pages as moves do (issue 33): a rematch offer or a challenge
made elsewhere shows on the invited person's nav badge and on their open notices page without a
reload, on the full stack (the stream's badge event, Redis) and on the embedded default (no
stream: the badge's poll, every 5 s there); the notices page keeps the focused button when its
lists change, and a hidden notices tab asks nothing.

Each test measures the time from the offer (or challenge) being committed to the page showing it
and prints it (``-s``); docs/live.md, "The notices page", holds the figures.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, Request, expect

from games.services.invitations import match_challenge_create, rematch_offer
from games.services.leaving import match_cancel
from tests import factories
from tests.functional.pages import log_in, tab_visibility_set
from tests.live.server import asgi_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STREAMING_JS = "() => !!window.parlourLive && window.parlourLive.streaming()"
POLLING_JS = "() => !!window.parlourLive && window.parlourLive.polling()"
# The moment (Date.now(): the test's own clock) the badge's count and the notices' offers changed.
WATCH_JS = """() => {
  window.__badgeAt = null; window.__listAt = null;
  const count = () => document.querySelectorAll('#invitation-notices li').length;
  const before = count();
  new MutationObserver(() => {
    const badge = document.getElementById('turn-badge');
    if (window.__badgeAt === null && badge && badge.dataset.count !== window.__badgeWas)
      window.__badgeAt = Date.now();
    if (window.__listAt === null && count() !== before) window.__listAt = Date.now();
  }).observe(document.body, {childList: true, subtree: true, attributes: true});
  window.__badgeWas = document.getElementById('turn-badge').dataset.count;
}"""


@pytest.fixture
def embedded_site(settings) -> Iterator[str]:
    """The embedded default: live changes off (no Redis), so pages have no stream and poll."""
    settings.PARLOUR_LIVE = False
    with asgi_server() as url:
        yield url


def _requests(page: Page) -> list[str]:
    seen: list[str] = []

    def note(request: Request) -> None:
        seen.append(request.url)

    page.on("request", note)
    return seen


def _people_and_a_finished_match():
    ann, bea, cal = (factories.user_make(name) for name in ("ann", "bea", "cal"))
    finished = factories.play_random(
        factories.match_make(players=[ann, bea], seed=9), random.Random(3)
    )
    return ann, bea, cal, finished


def _timed(page: Page, act, *, timeout: float) -> tuple[float, float]:
    """Do ``act`` (an offer committed); seconds until the badge, and until the notices' list,
    showed it on ``page``."""
    page.evaluate(WATCH_JS)
    start = time.time() * 1000
    act()
    page.wait_for_function("() => window.__badgeAt !== null", timeout=timeout * 1000)
    page.wait_for_function("() => window.__listAt !== null", timeout=timeout * 1000)
    badge_at, list_at = page.evaluate("() => [window.__badgeAt, window.__listAt]")
    return (badge_at - start) / 1000, (list_at - start) / 1000


@pytest.mark.services("redis")
def test_an_offer_and_a_challenge_reach_the_open_notices_page_by_the_stream(
    live_site, make_context
):
    ann, bea, cal, finished = _people_and_a_finished_match()
    match_challenge_create(created_by=cal, challenges={1: bea}, game="faraway", num_players=2)
    page = make_context().new_page()
    log_in(page, live_site, "bea")
    page.goto(f"{live_site}/notices/")
    page.wait_for_function(STREAMING_JS)
    page.evaluate("window.__noReload = true")
    offers = page.locator("#invitation-notices li")
    expect(offers).to_have_count(1)
    # bea has put the focus on the challenge's Decline, about to press it.
    decline = page.locator("#invitation-notices .invitation-decline").first
    decline.focus()
    focused = page.evaluate("document.activeElement.id")

    badge_s, list_s = _timed(page, lambda: rematch_offer(match_id=finished.pk, user=ann), timeout=5)
    print(f"\nstream: rematch offer -> badge {badge_s:.2f} s, notices list {list_s:.2f} s")
    expect(offers).to_have_count(2)
    expect(offers.filter(has_text=f"ann offers a rematch of The Faraway Tree #{finished.pk}"))
    # The challenge, the offer and the finished match bea has not opened since.
    expect(page.locator("#turn-badge")).to_have_attribute("data-count", "3")
    assert page.evaluate("document.activeElement.id") == focused  # the focus stayed
    assert badge_s < 2 and list_s < 2

    # A second challenge, from ann: the same way.
    badge_s, list_s = _timed(
        page,
        lambda: match_challenge_create(
            created_by=ann, challenges={1: bea}, game="gulliver", num_players=2
        ),
        timeout=5,
    )
    print(f"stream: challenge -> badge {badge_s:.2f} s, notices list {list_s:.2f} s")
    expect(offers).to_have_count(3)
    assert badge_s < 2 and list_s < 2
    assert page.evaluate("window.__noReload") is True  # the same page throughout
    assert not page.evaluate(POLLING_JS)


@pytest.mark.services("redis")
def test_a_page_without_a_table_shows_a_rematch_offer_on_its_badge_by_the_stream(
    live_site, make_context
):
    """The issue's 28.7 s: the lobby (no table) has its stream, and the offer's badge event."""
    ann, _, _, finished = _people_and_a_finished_match()
    page = make_context().new_page()
    log_in(page, live_site, "bea")
    page.goto(f"{live_site}/matches/")
    page.wait_for_function(STREAMING_JS)
    page.evaluate(WATCH_JS)
    start = time.time() * 1000
    rematch_offer(match_id=finished.pk, user=ann)
    page.wait_for_function("() => window.__badgeAt !== null", timeout=5_000)
    badge_s = (page.evaluate("window.__badgeAt") - start) / 1000
    print(f"\nstream: rematch offer -> lobby's badge {badge_s:.2f} s")
    expect(page.locator("#turn-badge")).to_have_attribute("data-count", "2")  # and the finish
    assert badge_s < 2


def test_without_a_stream_the_badge_and_the_notices_follow_within_the_poll(
    embedded_site, make_context
):
    ann, bea, cal, finished = _people_and_a_finished_match()
    page = make_context().new_page()
    log_in(page, embedded_site, "bea")
    page.goto(f"{embedded_site}/notices/")
    assert page.evaluate("document.body.dataset.live") is None
    page.wait_for_function(POLLING_JS)
    page.evaluate("window.__noReload = true")
    badge_s, list_s = _timed(page, lambda: rematch_offer(match_id=finished.pk, user=ann), timeout=8)
    print(f"\npolling: rematch offer -> badge {badge_s:.2f} s, notices list {list_s:.2f} s")
    assert badge_s < 7 and list_s < 7  # the 5 s poll, and the time to answer it (a busy box)
    badge_s, list_s = _timed(
        page,
        lambda: match_challenge_create(
            created_by=cal, challenges={1: bea}, game="gulliver", num_players=2
        ),
        timeout=8,
    )
    print(f"polling: challenge -> badge {badge_s:.2f} s, notices list {list_s:.2f} s")
    assert badge_s < 7 and list_s < 7
    expect(page.locator("#invitation-notices li")).to_have_count(2)
    assert page.evaluate("window.__noReload") is True


def test_a_hidden_notices_tab_asks_nothing_and_catches_up_when_shown(embedded_site, make_context):
    ann, _, _, finished = _people_and_a_finished_match()
    page = make_context().new_page()
    log_in(page, embedded_site, "bea")
    page.goto(f"{embedded_site}/notices/")
    page.wait_for_function(POLLING_JS)
    tab_visibility_set(page, "hidden")
    asked = _requests(page)
    rematch_offer(match_id=finished.pk, user=ann)
    page.wait_for_timeout(6_500)  # longer than the badge's poll
    assert asked == []
    tab_visibility_set(page, "visible")
    expect(page.locator("#invitation-notices li")).to_have_count(1, timeout=3_000)
    expect(page.locator("#turn-badge")).to_have_attribute("data-count", "2")  # and the finish


def test_a_refusal_in_place_is_left_to_be_read_then_the_lists_catch_up(embedded_site, make_context):
    """The lists' refresh would take away the line of an offer answered with a refusal (the
    match cancelled meanwhile): it waits 15 s after the refusal came, then brings the lists."""
    ann, bea, _ = (factories.user_make(name) for name in ("ann", "bea", "cal"))
    match = match_challenge_create(
        created_by=ann, challenges={1: bea}, game="faraway", num_players=2
    )
    page = make_context().new_page()
    log_in(page, embedded_site, "bea")
    page.goto(f"{embedded_site}/notices/")
    page.wait_for_function(POLLING_JS)
    match_cancel(match_id=match.pk, user=ann)
    page.locator("#invitation-notices .invitation-accept").click()
    refusal = page.locator("#notice-lists #invitation-error")
    expect(refusal).to_contain_text("This match was cancelled by its creator.")
    page.wait_for_timeout(7_000)  # past the 5 s poll, which would have taken the line away
    expect(refusal).to_be_visible()
    expect(page.locator("#notices-invitations")).to_contain_text(
        "No challenge or rematch offer waits for you.", timeout=15_000
    )

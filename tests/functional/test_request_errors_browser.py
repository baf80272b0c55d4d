"""A failed htmx request says so on the page (static/js/request_errors.js), and changes nothing.

htmx swaps nothing for a 403, a 5xx or a request that never reached the site, so without the
notice a click on a move would seem to do nothing at all.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Move
from tests import factories
from tests.functional.pages import TablePage, log_in
from tests.functional.test_screenshots import PHONE, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_or_lost_move_is_reported_and_a_good_one_clears_the_notice(
    live_server, make_context, tmp_path
):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    table = TablePage(page, "ann")
    notice = page.locator("#request-error")
    expect(notice).to_be_hidden()
    moves_before = Move.objects.filter(match=match).count()
    move_button = page.locator("#table button.move[data-move]").first

    # The page's CSRF token gone stale (the cookie changed since it was served, as after signing
    # in again elsewhere): the site answers 403, htmx swaps nothing, the notice says why.
    context = page.context
    real_cookie = next(c for c in context.cookies() if c["name"] == "csrftoken")
    context.add_cookies([{**real_cookie, "value": "x" * 32}])
    move_button.click()
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("This page has expired")
    page.screenshot(path=str(screenshot_path("request-error", tmp_path)))
    assert Move.objects.filter(match=match).count() == moves_before

    # The site out of reach: the request never arrives.
    context.set_offline(True)
    move_button.click()
    expect(notice).to_contain_text("Parlour cannot be reached")
    context.set_offline(False)
    assert Move.objects.filter(match=match).count() == moves_before

    # The real token back, a move that lands: the table swaps in and the notice goes.
    context.add_cookies([real_cookie])
    table.play(table.snapshot().moves[0])
    expect(notice).to_be_hidden()
    assert Move.objects.filter(match=match).count() == moves_before + 1


@pytest.mark.parametrize("control", ["phrase", "move"])
def test_an_ended_session_is_told_in_view_on_a_phone(live_server, make_context, control):
    """Issue 33 bug 4: signed out elsewhere (the session cookie gone, the CSRF cookie rotated),
    a press on a phone answered 403 and the notice appeared under the header, ~680 px above the
    pressed control. The notice is now fixed at the viewport's foot: in view, announced."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    page = make_context(viewport=PHONE).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    context = page.context
    kept = [c for c in context.cookies() if c["name"] not in ("sessionid", "csrftoken")]
    token = next(c for c in context.cookies() if c["name"] == "csrftoken")
    context.clear_cookies()
    context.add_cookies([*kept, {**token, "value": "y" * 32}])
    moves_before = Move.objects.filter(match=match).count()
    if control == "phrase":
        page.locator("#phrase-key").select_option(label="Good luck")
        page.locator("#phrase-say").click()
    else:
        page.locator("#table button.move[data-move]").last.click()
    notice = page.locator("#request-error")
    expect(notice).to_contain_text("signed out")
    box, size = notice.bounding_box(), page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    assert Move.objects.filter(match=match).count() == moves_before

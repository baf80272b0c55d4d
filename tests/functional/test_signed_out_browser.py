"""Signed out elsewhere, in a real browser (issue 33: bug 4's expired session, and the rough edge
"Signed out elsewhere"; docs/accounts.md, "Signed out").

The session row is deleted while the page is open (as signing out in another tab, or the
session running out, does; the CSRF cookie stays as it was):

- a move click answers a worded 401: the notice, in the viewport, says so and links to the
  sign-in page with ``next=`` the table; the table is as it was, the page's polls stop asking,
  and signing in through the link comes back to the table, where the move then plays;
- a filled new-match form sent signed out comes back filled after signing in;
- a signed-out visitor following a match link is told "Sign in to see this match".

With ``PARLOUR_SCREENSHOTS=1`` the sign-in page reached by a match link is photographed into
``docs/screenshots/`` (``login``, ``login-phone``), and the table's notice after a move click
signed out (``signed-out``, ``signed-out-phone``), and the new-match form back after signing in
(``match-new-kept``).
"""

from __future__ import annotations

import time

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import Page, expect

from accounts.services.rename import name_change
from accounts.sign_in import NEW_MATCH, SEE_MATCH
from games.engines import registered
from games.models import Match, Move
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _sign_in_here(page: Page, username: str) -> None:
    """The sign-in form of the page shown (no navigation first)."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()


def _in_viewport(page: Page, selector: str) -> None:
    box, size = page.locator(selector).bounding_box(), page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_move_click_signed_out_is_told_in_view_and_the_table_stays(
    live_server, make_context, viewport, tmp_path
):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "ann")
    polls: list[float] = []
    page.on("request", lambda r: "/table/" in r.url and polls.append(time.monotonic()))
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    table_before = page.locator("#table").inner_html()
    moves_before = Move.objects.filter(match=match).count()

    Session.objects.all().delete()  # signed out elsewhere: the session is gone
    page.locator("#table button.move[data-move]").last.click()

    notice = page.locator("#request-error")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("You are signed out: nothing here was changed.")
    link = notice.get_by_role("link", name="Sign in again")
    expect(link).to_have_attribute("href", f"/accounts/login/?next=/matches/{match.pk}/")
    _in_viewport(page, "#request-error")
    assert page.url == f"{live_server.url}/matches/{match.pk}/"  # the page was not thrown away
    assert page.locator("#table").inner_html() == table_before
    assert Move.objects.filter(match=match).count() == moves_before
    suffix = "" if viewport is DESKTOP else "-phone"
    page.screenshot(path=str(screenshot_path(f"signed-out{suffix}", tmp_path)))

    # The page's background requests stop asking once told (the notice is not repeated every
    # two seconds, and no request goes for it): no table poll leaves in the next 5 s.
    told = time.monotonic()
    page.wait_for_timeout(5000)
    assert [t for t in polls if t > told + 0.5] == []
    expect(notice).to_be_visible()

    # The link signs in and comes back to the table, where the move now plays.
    link.click()
    expect(page.locator("#sign-in-reason")).to_have_text(str(SEE_MATCH))
    _sign_in_here(page, "ann")
    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/")
    expect(page.locator("#request-error")).to_be_hidden()
    page.locator("#table button.move[data-move]").last.click()
    expect(page.locator("#table")).not_to_have_attribute("data-version", str(match.version))
    assert Move.objects.filter(match=match).count() == moves_before + 1


def test_a_new_match_form_sent_signed_out_comes_back_filled(live_server, make_context, tmp_path):
    factories.user_make("ann")
    engines = registered()
    chosen = engines[-1]
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/new/")
    page.get_by_label(chosen.title, exact=True).check()
    page.locator("#id_num_players").fill("3")
    page.locator("#id_seat_1").select_option("greedy")
    page.locator("#id_seat_2").select_option("challenge")
    page.locator("#id_challenge_2").fill("someone")
    page.locator("#id_deadline_days").select_option("7")
    filled = {
        "#id_num_players": "3",
        "#id_seat_1": "greedy",
        "#id_seat_2": "challenge",
        "#id_challenge_2": "someone",
        "#id_deadline_days": "7",
    }

    Session.objects.all().delete()
    page.locator("#create-match").click()
    expect(page.locator("#sign-in-reason")).to_have_text(str(NEW_MATCH))
    assert not Match.objects.exists()
    _sign_in_here(page, "ann")

    # Back at the form, as it was filled, said so; the address no longer asks for it.
    expect(page.locator("#new-match-kept")).to_be_visible()
    expect(page).to_have_url(f"{live_server.url}/matches/new/")
    expect(page.get_by_label(chosen.title, exact=True)).to_be_checked()
    for selector, value in filled.items():
        expect(page.locator(selector)).to_have_value(value)
    expect(page.locator("#id_challenge_2")).to_be_visible()
    page.screenshot(path=str(screenshot_path("match-new-kept", tmp_path)))
    # A later visit to the form starts afresh.
    page.goto(f"{live_server.url}/matches/new/")
    expect(page.locator("#new-match-kept")).to_have_count(0)
    expect(page.locator("#id_seat_2")).not_to_have_value("challenge")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_signed_out_visitor_following_a_match_link_is_told_why(
    live_server, make_context, viewport, tmp_path
):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    factories.user_make("cal")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5, public=False)
    page = make_context(viewport=viewport).new_page()
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.locator("#sign-in-reason")).to_have_text(str(SEE_MATCH))
    # Nothing of the private match: not its game, not its players.
    body = page.locator("main").inner_text()
    assert "ann" not in body and "bea" not in body and "Faraway" not in body
    assert overflowing(page) == []
    suffix = "" if viewport is DESKTOP else "-phone"
    page.screenshot(path=str(screenshot_path(f"login{suffix}", tmp_path)))
    # cal signs in and, not being a member, is told there is no such match, as before.
    _sign_in_here(page, "cal")
    expect(page.get_by_role("heading", name="There is no such page")).to_be_visible()


def test_signing_in_with_an_old_name_says_it_was_changed(live_server, make_context):
    ann = factories.user_make("ann")
    name_change(ann, name="annabel", current="ann")
    page = make_context().new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    _sign_in_here(page, "ann")
    expect(page.get_by_text("The name \u201cann\u201d was changed")).to_be_visible()
    expect(page.get_by_text("Please enter a correct username")).to_have_count(0)
    page.get_by_label("Username").fill("annabel")
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="annabel")).to_be_visible()

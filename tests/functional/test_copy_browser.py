"""Copy buttons in a real browser (static/js/copy.js): the invite link of a waiting table and
the link to a replay's position copy to the clipboard and say so; the copied replay link opens
that exact position; a refused clipboard selects the text instead; without JavaScript the
buttons stay hidden and the text is there to copy by hand.

Issue 26 (14): there was no way to copy either link but selecting it by hand.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from games.services import match_create
from tests import factories
from tests.functional.pages import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FRAME_PLY = "() => Number(document.querySelector('#replay-frame').dataset.ply)"
CLIPBOARD = ["clipboard-read", "clipboard-write"]
# The clipboard refuses every write, as a browser without the permission would.
REFUSING_CLIPBOARD_JS = """
Object.defineProperty(navigator, 'clipboard', {value: {
  writeText: () => Promise.reject(new DOMException('refused', 'NotAllowedError')),
}});
"""


def _finished() -> Match:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=7)
    factories.play_random(match, random.Random(7))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.ply > 10
    return match


def _waiting() -> Match:
    ann = factories.user_make("ann")
    factories.user_make("bea")
    return match_create(game="gulliver", num_players=2, created_by=ann, seed=3, public=False)


def _clipboard(page: Page) -> str:
    return page.evaluate("navigator.clipboard.readText()")


def test_the_invite_link_copies_and_lets_a_friend_in(live_server, make_context):
    match = _waiting()
    context = make_context()
    context.grant_permissions(CLIPBOARD, origin=live_server.url)
    page = context.new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    invite = page.locator("#invite-link").input_value()
    assert invite.startswith(f"{live_server.url}/matches/join/")
    button = page.get_by_role("button", name="Copy the invite link")
    button.click()
    expect(button.locator("xpath=following-sibling::*[@role='status'][1]")).to_have_text("Copied")
    assert _clipboard(page) == invite

    friend = make_context().new_page()
    log_in(friend, live_server.url, "bea")
    friend.goto(_clipboard(page))
    assert friend.url.endswith(f"/matches/join/{match.invite_token}/")
    friend.get_by_role("button", name="Take a seat").click()
    friend.wait_for_url(f"**/matches/{match.pk}/")
    expect(friend.locator("#table")).to_have_attribute("data-status", "active")


def test_the_replay_link_copies_the_position_shown(live_server, make_context):
    match = _finished()
    context = make_context()
    context.grant_permissions(CLIPBOARD, origin=live_server.url)
    page = context.new_page()
    log_in(page, live_server.url, "ann")
    base = f"{live_server.url}/matches/{match.pk}/replay/"
    page.goto(f"{base}?ply=5&as=all")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({FRAME_PLY})() === 7")
    page.get_by_role("button", name="Copy link to this position").click()
    expect(page.locator("#replay-share [role=status]")).to_have_text("Copied")
    assert _clipboard(page) == f"{base}?ply=7&as=all"

    # As a seat saw it, after stepping back: the copied link follows the frame shown.
    page.locator('#replay-perspectives a[data-as="1"]').click()
    page.wait_for_url("**as=1")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => ({FRAME_PLY})() === 6")
    page.get_by_role("button", name="Copy link to this position").click()
    expect(page.locator("#replay-share [role=status]")).to_have_text("Copied")
    copied = _clipboard(page)
    assert copied == f"{base}?ply=6&as=1"
    seen = [page.locator(part).inner_text() for part in ("#replay-now", "#replay-board")]

    other = make_context().new_page()
    log_in(other, live_server.url, "bea")
    other.goto(copied)
    assert other.evaluate(FRAME_PLY) == 6
    expect(other.locator("#replay-perspectives [aria-current]")).to_have_attribute("data-as", "1")
    assert [other.locator(part).inner_text() for part in ("#replay-now", "#replay-board")] == seen


def test_a_refused_clipboard_selects_the_text(live_server, make_context):
    match = _finished()
    waiting = match_create(
        game="faraway", num_players=3, created_by=match.created_by, seed=5, public=True
    )
    context = make_context()
    context.add_init_script(REFUSING_CLIPBOARD_JS)
    page = context.new_page()
    log_in(page, live_server.url, "ann")

    page.goto(f"{live_server.url}/matches/{waiting.pk}/")
    page.get_by_role("button", name="Copy the invite link").click()
    status = page.locator("#invite-link ~ [role=status]")
    expect(status).to_contain_text("Ctrl+C")
    invite = page.locator("#invite-link").input_value()
    selected = page.evaluate(
        "() => { const e = document.activeElement;"
        " return e.id === 'invite-link' ? e.value.slice(e.selectionStart, e.selectionEnd) : null; }"
    )
    assert selected == invite

    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?ply=4&as=all")
    page.get_by_role("button", name="Copy link to this position").click()
    expect(page.locator("#replay-share [role=status]")).to_contain_text("Ctrl+C")
    assert page.evaluate("window.getSelection().toString()") == (
        f"{live_server.url}/matches/{match.pk}/replay/?ply=4&as=all"
    )


def test_without_javascript_the_links_are_text_to_copy(live_server, make_context):
    match = _finished()
    waiting = match_create(
        game="faraway", num_players=3, created_by=match.created_by, seed=5, public=True
    )
    page = make_context(java_script_enabled=False).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{waiting.pk}/")
    expect(page.locator("#invite-link")).to_be_visible()
    expect(page.locator("button[data-copy]")).to_be_hidden()
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?ply=4&as=all")
    link = page.locator("#replay-position-link")
    expect(link).to_have_text(f"{live_server.url}/matches/{match.pk}/replay/?ply=4&as=all")
    expect(page.locator("button[data-copy]")).to_be_hidden()
    link.click()
    page.wait_for_url("**?ply=4&as=all")
    expect(page.locator("#replay-position")).to_contain_text("Move 4 of")

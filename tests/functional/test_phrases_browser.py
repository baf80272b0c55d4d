"""Table phrases in a real browser (docs/phrases.md): a seat picks a phrase, both tables show
it in their logs (the other by its poll), a repeat is refused in place, and the form works
without JavaScript; the table fits a phone (390 px) and a desktop (1280 px).

With ``PARLOUR_SCREENSHOTS=1`` the table is photographed into ``docs/screenshots/``
(``phrases.png``, ``phrases-phone.png``).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import TablePhrase
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, reset_sequences=True)]


def _say(page, words: str) -> None:
    page.locator("#phrase-key").select_option(label=words)
    page.locator("#phrase-say").click()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_phrase_reaches_the_other_seats_table(live_server, make_context, viewport, tmp_path):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=3)
    url = f"{live_server.url}/matches/{match.pk}/"
    pages = {}
    for user in ("ann", "bea"):
        pages[user] = make_context(viewport=viewport).new_page()
        log_in(pages[user], live_server.url, user)
        pages[user].goto(url)
    _say(pages["ann"], "Good luck")
    expect(pages["ann"].locator("#event-log li").first).to_have_text("ann: “Good luck”")
    expect(pages["bea"].locator("#event-log li").first).to_have_text("ann: “Good luck”")
    _say(pages["bea"], "What a story!")  # a phrase of the Faraway Tree's own
    expect(pages["ann"].locator("#event-log li").first).to_have_text("bea: “What a story!”")
    _say(pages["ann"], "Good luck")  # no repeat in a row
    expect(pages["ann"].locator("#move-error")).to_have_text(
        "You said that just now: say something else first."
    )
    assert TablePhrase.objects.filter(match=match).count() == 2
    assert overflowing(pages["bea"]) == []
    name = "phrases" if viewport is DESKTOP else "phrases-phone"
    pages["bea"].screenshot(path=str(screenshot_path(name, tmp_path)), full_page=True)


def test_the_phrase_form_works_without_javascript(live_server, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=3)
    page = make_context(java_script_enabled=False).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    _say(page, "Well played")
    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/")
    expect(page.locator("#event-log li").first).to_have_text("ann: “Well played”")


def _in_viewport(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return (
        box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


def test_a_fourth_phrase_in_a_minute_is_refused_in_words_where_the_phone_shows(
    live_server, make_context
):
    """Issue 33 bug 4: the 429 was not swapped, so a generic "Too many requests" appeared under
    the header, ~680 px above a phone's view of the picker; the documented words never did."""
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=3)
    page = make_context(viewport=PHONE).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    for words in ("Good luck", "Well played", "Thanks"):
        _say(page, words)
        expect(page.locator("#event-log li").first).to_have_text(f"ann: “{words}”")
    _say(page, "Oops")
    refusal = page.locator("#move-error")
    expect(refusal).to_have_text("At most 3 phrases a minute: wait a moment.")
    assert _in_viewport(page, refusal)
    expect(page.locator("#request-error")).to_be_hidden()
    assert TablePhrase.objects.filter(match=match).count() == 3

"""The notifications page in a real browser: each box sits beside its own words, on one line,
close together (not the label above and the box below, as the stacked form first put them);
the address can be added on the same page (it then waits for its link)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each checkbox's box and the box of its label's words (a Range over the label's text).
BOXES_JS = """
() => [...document.querySelectorAll('#notification-form input[type=checkbox]')].map(box => {
  const label = box.closest('label') || document.querySelector(`label[for="${box.id}"]`);
  const words = [...label.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim());
  const range = document.createRange();
  range.setStartBefore(words[0]);
  range.setEndAfter(words[words.length - 1]);
  const b = box.getBoundingClientRect(), t = range.getBoundingClientRect();
  return {name: box.name, text: label.innerText.trim(),
          box: [b.left, b.top, b.right, b.bottom], words: [t.left, t.top, t.right, t.bottom]};
})
"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_each_box_sits_beside_its_label(live_server, make_context, viewport):
    factories.user_make("ann")
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/notifications/")
    found = page.evaluate(BOXES_JS)
    assert [f["name"] for f in found] == [
        "email_turn",
        "email_deadline",
        "email_invitations",
        "email_events",
        "push_turn",
        "push_events",
        "notice_invitations",
        "notice_turns",
        "notice_finished",
        "notice_ladder",
        "notice_events",
        "mute_phrases",
    ]
    for item in found:
        _, box_top, box_right, box_bottom = item["box"]
        words_left, words_top, _, _ = item["words"]
        box_middle = (box_top + box_bottom) / 2
        # One line: the box's middle within the first line of its words.
        assert words_top <= box_middle <= words_top + 1.6 * (box_bottom - box_top) + 4, item
        # Close together: the words start just right of the box.
        assert 0 <= words_left - box_right <= 16, item
    # Clicking the words ticks the box.
    box = page.locator('input[name="email_turn"]')
    expect(box).to_be_checked()
    page.get_by_text(found[0]["text"]).click()
    expect(box).not_to_be_checked()


def test_an_address_is_added_on_the_same_page(live_server, make_context):
    ann = factories.user_make("ann")
    get_user_model().objects.filter(pk=ann.pk).update(email="")
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/notifications/")
    expect(page.locator("#no-email")).to_be_visible()
    page.get_by_role("textbox", name="E-mail address").fill("ann@example.org")
    page.get_by_role("button", name="Save the address").click()
    # It waits for its link (tests/functional/test_email_confirmation_browser.py).
    expect(page.locator("#messages")).to_contain_text("We mailed a link to ann@example.org")
    expect(page.locator("#email-pending")).to_contain_text("ann@example.org")
    assert get_user_model().objects.get(pk=ann.pk).pending_email.email == "ann@example.org"

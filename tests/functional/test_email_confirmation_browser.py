"""Confirming an address in a real browser: register, open the link the mail carries (signed
out, as on a phone's mail app, and signed in), confirm; the account page says so."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.functional.pages import register

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINK = re.compile(r"https?://[^/\s]+(/accounts/email/confirm/[^/\s]+/)")


@pytest.fixture(autouse=True)
def _site(settings, live_server) -> None:
    settings.PARLOUR_SITE_URL = live_server.url


def test_register_open_the_mailed_link_and_confirm(live_server, make_context, mailoutbox):
    page = make_context().new_page()
    register(page, live_server.url, "zoe")
    expect(page.locator("#messages")).to_contain_text("We mailed a link to zoe@example.com")
    [sent] = mailoutbox
    link = LINK.search(sent.body)
    assert link is not None and sent.to == ["zoe@example.com"]
    page.goto(f"{live_server.url}/accounts/")
    expect(page.locator("#account-pending-email")).to_contain_text("zoe@example.com")
    expect(page.locator("#account-email")).to_contain_text("none confirmed")
    # Signed out elsewhere (the phone's mail app): the link shows the address and a button.
    phone = make_context().new_page()
    phone.goto(f"{live_server.url}{link.group(1)}")
    expect(phone.locator("#confirm-address")).to_have_text("zoe@example.com")
    assert get_user_model().objects.get(username="zoe").email == ""
    phone.get_by_role("button", name="Confirm this address").click()
    expect(phone.locator("#confirm-done")).to_contain_text("zoe@example.com is confirmed")
    # Back on the account page: confirmed, nothing waiting.
    page.reload()
    expect(page.locator("#account-email")).to_contain_text("zoe@example.com (confirmed)")
    expect(page.locator("#account-pending-email")).to_have_count(0)
    # The link opened again, signed in: done already, nothing changes.
    page.goto(f"{live_server.url}{link.group(1)}")
    expect(page.locator("#confirm-done")).to_be_visible()
    assert get_user_model().objects.get(username="zoe").email == "zoe@example.com"

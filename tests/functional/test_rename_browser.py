"""Changing one's name in a real browser: the account page's form, the password asked, the new
name in the navigation, and the old profile address leading to the new one."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.functional.pages import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_rename_from_the_account_page(live_server, make_context):
    factories.user_make("ann")
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/")
    form = page.locator("#rename-form")
    form.get_by_label("New name").fill("annabel")
    form.get_by_label("Your password").fill("wrong-password")
    form.get_by_role("button", name="Change my name").click()
    expect(page.locator("#rename-form")).to_contain_text("That is not your password.")
    expect(page.locator("#account-username")).to_have_text("ann")
    form = page.locator("#rename-form")
    form.get_by_label("New name").fill("annabel")
    form.get_by_label("Your password").fill(factories.PASSWORD)
    form.get_by_role("button", name="Change my name").click()
    expect(page.locator("#messages")).to_contain_text("Your name is now annabel.")
    expect(page.locator("#account-username")).to_have_text("annabel")
    expect(page.locator("#rename-next")).to_be_visible()
    expect(page.get_by_role("link", name="annabel").first).to_be_visible()
    page.goto(f"{live_server.url}/players/ann/")
    assert page.url == f"{live_server.url}/players/annabel/"

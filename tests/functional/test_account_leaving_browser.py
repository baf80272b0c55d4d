"""Deleting, closing and exporting one's account in a real browser (docs/accounts.md): the
deletion confirmation page (photographed, desktop and phone, and fitting a phone), the wrong
password and the right one, closing and coming back, and "Prepare my data" to its download."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.factories import PASSWORD
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _exports_in_tmp(settings, tmp_path) -> None:
    settings.DATA_DIR = tmp_path


@pytest.mark.parametrize(
    ("viewport", "name"),
    [(DESKTOP, "account-delete"), (PHONE, "account-delete-phone")],
    ids=["desktop", "phone"],
)
def test_the_deletion_confirmation_says_what_happens_and_is_photographed(
    live_server, make_context, tmp_path: Path, viewport, name
):
    factories.user_make("ann")
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/")
    page.locator("#account-delete-link").click()
    expect(page.get_by_role("heading", name="Delete your account")).to_be_visible()
    expect(page.locator("#account-delete-effects li")).to_have_count(5)
    expect(page.get_by_label("Your password")).to_be_visible()
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(name, tmp_path)), full_page=True)


def test_a_wrong_password_refuses_and_the_right_one_deletes(live_server, make_context):
    ann = factories.user_make("ann")
    page = make_context(viewport=DESKTOP).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/delete/")
    page.get_by_label("Your password").fill("not-it")
    page.locator("#account-delete-button").click()
    expect(page.get_by_text("That is not your password: nothing was changed.")).to_be_visible()
    page.get_by_label("Your password").fill(PASSWORD)
    page.locator("#account-delete-button").click()
    expect(page.get_by_text("Your account is deleted.")).to_be_visible()
    expect(page.get_by_role("link", name="ann", exact=True)).to_have_count(0)
    ann.refresh_from_db()
    assert ann.username == f"deleted player {ann.pk}"


def test_closing_then_signing_in_again_reopens(live_server, make_context):
    factories.user_make("ann")
    page = make_context(viewport=PHONE).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/close/")
    page.get_by_label("Your password").fill(PASSWORD)
    page.locator("#account-close-button").click()
    expect(page.get_by_text("Your account is closed")).to_be_visible()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Welcome back: your account is open again.")).to_be_visible()


def test_prepare_my_data_ends_in_a_download(live_server, make_context):
    ann = factories.user_make("ann")
    bea = factories.user_make("bea")
    factories.match_make(game="faraway", players=[ann, bea], seed=3)
    page = make_context(viewport=DESKTOP).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/accounts/")
    page.locator("#data-prepare").click()
    link = page.locator("#data-download")
    expect(link).to_be_visible(timeout=15_000)
    expect(page.locator("#data-prepare")).to_have_count(0)  # one a day
    with page.expect_download() as info:
        link.click()
    body = Path(info.value.path()).read_text()
    assert '"username": "ann"' in body and bea.email not in body

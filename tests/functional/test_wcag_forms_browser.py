"""The sign-in forms and what the site says about them, in a real Chromium (issue 37, item 3;
docs/accessibility.md, "WCAG 2.2 AA"):

- 3.3.8 accessible authentication: every field a password manager fills says what it holds
  (``autocomplete``: username, email, current-password, new-password) on every form that asks
  for a name or a password, and pasting works in each (pasted through the clipboard with the
  keyboard, as a person does); a whole sign-in by paste alone succeeds;
- 4.1.3 status messages: the site's flash messages are in a status region, a form's errors in
  an alert region, whichever form it is.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import Page, expect

from tests import factories
from tests.functional.pages import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What each field a password manager knows must say it holds, by the field's name.
AUTOCOMPLETE = {
    "username": "username",
    "new_name": "username",
    "email": "email",
    "password": "current-password",
    "old_password": "current-password",
    "password1": "new-password",
    "password2": "new-password",
    "new_password1": "new-password",
    "new_password2": "new-password",
}
FIELDS = "form input:is([type=text], [type=email], [type=password]):visible"


def _fields(page: Page) -> dict[str, str | None]:
    """Each visible text, e-mail or password field of the page's forms: its autocomplete."""
    return page.eval_on_selector_all(
        "form input:is([type=text], [type=email], [type=password])",
        "els => Object.fromEntries(els.filter(el => el.offsetParent !== null)"
        ".map(el => [el.name, el.getAttribute('autocomplete')]))",
    )


def _paste(page: Page, field: str, text: str) -> None:
    """``text`` into the clipboard, then pasted into the field with the keyboard."""
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    locator = page.locator(f"form [name={field}]")
    locator.fill("")
    locator.focus()
    page.keyboard.press("ControlOrMeta+V")
    expect(locator).to_have_value(text)


def _check_form(page: Page, url: str, kind: str, wrong: list[str]) -> None:
    page.goto(url)
    fields = _fields(page)
    assert fields, kind
    for name, autocomplete in fields.items():
        wanted = AUTOCOMPLETE.get(name)
        if wanted is not None and autocomplete != wanted:
            wrong.append(f"{kind}: {name} has autocomplete={autocomplete!r}, not {wanted!r}")
        if (
            name not in AUTOCOMPLETE
            and page.locator(f"[name={name}]").get_attribute("type") == "password"
        ):
            wrong.append(f"{kind}: password field {name} not known here")
        _paste(page, name, "pasted-" + name)


def test_every_sign_in_form_takes_a_password_manager_and_paste(live_server, make_context):
    base = live_server.url
    ann = factories.user_make("ann", email="ann@example.com")
    context = make_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = context.new_page()
    wrong: list[str] = []
    _check_form(page, f"{base}/accounts/login/", "login", wrong)
    _check_form(page, f"{base}/accounts/register/", "register", wrong)
    _check_form(page, f"{base}/accounts/password_reset/", "password reset", wrong)
    uid = urlsafe_base64_encode(force_bytes(ann.pk))
    token = default_token_generator.make_token(ann)
    _check_form(page, f"{base}/accounts/reset/{uid}/{token}/", "new password", wrong)

    # Signed in by paste alone: the name and the password come from the clipboard.
    page.goto(f"{base}/accounts/login/")
    _paste(page, "username", "ann")
    _paste(page, "password", factories.PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="ann", exact=True)).to_be_visible()

    _check_form(page, f"{base}/accounts/password_change/", "password change", wrong)
    _check_form(page, f"{base}/accounts/", "account (rename)", wrong)
    _check_form(page, f"{base}/accounts/notifications/", "notification settings", wrong)
    _check_form(page, f"{base}/accounts/close/", "close account", wrong)
    _check_form(page, f"{base}/accounts/delete/", "delete account", wrong)
    assert wrong == [], "\n".join(wrong)


def test_flash_messages_are_status_and_form_errors_alerts(live_server, make_context):
    base = live_server.url
    factories.user_make("bea")
    page = make_context().new_page()

    # A sign-in refused: the form's own error, read as an alert.
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Log in").click()
    expect(
        page.get_by_role("alert").filter(has_text="correct username and password")
    ).to_be_visible()

    # A registration refused field by field: each field's error an alert, tied to its field.
    page.goto(f"{base}/accounts/register/")
    page.get_by_label("Username").fill("bea")
    page.get_by_label("Email").fill("someone@example.com")
    page.get_by_label("Password", exact=True).fill("a long enough password 1")
    page.get_by_label("Password confirmation").fill("another password 2")
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_role("alert").filter(has_text="already")).to_be_visible()
    expect(page.get_by_role("alert").filter(has_text="match")).to_be_visible()
    described = page.get_by_label("Username").get_attribute("aria-describedby") or ""
    assert "id_username_error" in described.split(), described

    # A flash message after a redirect: in the page's status region.
    factories.user_make("ann")
    log_in(page, base, "ann")
    page.goto(f"{base}/play/")
    page.get_by_role("button", name="Play now").click()
    expect(page.locator("#messages")).to_be_visible()
    words = page.locator("#messages .message-text").first.inner_text()
    expect(page.get_by_role("status").filter(has_text=words)).to_be_visible()

    # A form on the account page sent back: a name already taken.
    page.goto(f"{base}/accounts/")
    page.get_by_label("New name").fill("bea")
    page.get_by_label("Your password").fill(factories.PASSWORD)
    page.get_by_role("button", name="Change my name").click()
    expect(page.get_by_role("alert").filter(has_text="That name is taken")).to_be_visible()

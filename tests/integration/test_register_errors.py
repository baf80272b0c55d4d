"""Where the registration form's messages sit, and what it keeps after a refusal: a weak
password is told under the password field, a mismatch under the confirmation; what was fine is
not to be typed again (the passwords kept when neither is at fault, on a page never stored)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db

GOOD = "climbing-the-tree-77"


def _fields(page: str) -> dict[str, str]:
    """Each form field's block (label, input, help, errors) by the input's name."""
    blocks = re.findall(
        r'<p class="field">(.*?)</p>\s*(?=<p class="field">|<p><button)', page, re.S
    )
    named = {}
    for block in blocks:
        name = re.search(r'<(?:input|select) [^>]*name="([^"]+)"', block)
        named[name.group(1)] = block
    return named


def _errors(block: str) -> str:
    found = re.search(r'<ul class="errorlist"[^>]*>(.*?)</ul>', block, re.S)
    return found.group(1) if found else ""


def _value(block: str) -> str | None:
    found = re.search(r'<input [^>]*value="([^"]*)"', block)
    return found.group(1) if found else None


def _register(client, **fields: str):
    data = {"username": "zoe", "email": "", "password1": GOOD, "password2": GOOD, **fields}
    response = client.post("/accounts/register/", data)
    assert response.status_code == 400
    assert "no-store" in response["Cache-Control"]
    return _fields(response.content.decode())


def test_a_weak_password_is_told_under_the_password_field(client):
    fields = _register(client, password1="password", password2="password")
    assert "too common" in _errors(fields["password1"])
    assert _errors(fields["password2"]) == ""
    # The password must change, so both are emptied; the username and address stay.
    assert _value(fields["password1"]) is None and _value(fields["password2"]) is None
    assert _value(fields["username"]) == "zoe"
    assert not get_user_model().objects.filter(username="zoe").exists()


def test_a_mismatch_is_told_under_the_confirmation(client):
    fields = _register(client, password2="climbing-the-tree-78")
    assert "didn\u2019t match" in _errors(fields["password2"])
    assert _errors(fields["password1"]) == ""
    assert _value(fields["password1"]) is None and _value(fields["password2"]) is None


def test_fine_passwords_are_kept_when_another_field_is_refused(client, ann):
    fields = _register(client, username="ann", email="not-an-address")
    assert "already exists" in _errors(fields["username"])
    assert "valid email" in _errors(fields["email"])
    assert _value(fields["password1"]) == GOOD and _value(fields["password2"]) == GOOD
    assert _value(fields["email"]) == "not-an-address"
    # Corrected, the same page's passwords register the account.
    response = client.post(
        "/accounts/register/",
        {"username": "zoe", "email": "zoe@example.org", "password1": GOOD, "password2": GOOD},
    )
    assert response.status_code == 302


def test_the_empty_form_is_not_stored_either(client):
    response = client.get("/accounts/register/")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]

"""Register, log in and out, change and reset a password, see a profile."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests import factories

pytestmark = pytest.mark.django_db


def test_register_logs_in_and_lands_in_the_lobby(client):
    response = client.post(
        "/accounts/register/",
        {
            "username": "zoe",
            "email": "zoe@example.org",
            "password1": "climbing-the-tree-77",
            "password2": "climbing-the-tree-77",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/matches/"
    assert client.get("/matches/").status_code == 200
    # The address waits for its link (tests/integration/test_email_confirmation.py).
    assert get_user_model().objects.get(username="zoe").email == ""


def test_register_refuses_mismatched_or_weak_passwords(client):
    response = client.post(
        "/accounts/register/",
        {"username": "zoe", "password1": "climbing-the-tree-77", "password2": "other-thing-77"},
    )
    assert response.status_code == 400
    assert "didn\u2019t match" in response.content.decode()
    response = client.post(
        "/accounts/register/", {"username": "zoe", "password1": "password", "password2": "password"}
    )
    assert response.status_code == 400
    assert "too common" in response.content.decode()
    assert not get_user_model().objects.filter(username="zoe").exists()


def test_login_and_logout(client, ann):
    response = client.post("/accounts/login/", {"username": "ann", "password": factories.PASSWORD})
    assert response.status_code == 302
    assert client.get("/matches/").status_code == 200
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/matches/").status_code == 302


def test_login_with_a_wrong_password_is_refused(client, ann):
    response = client.post("/accounts/login/", {"username": "ann", "password": "nope-nope-nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_change_password(client, ann):
    client.force_login(ann)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": factories.PASSWORD,
            "new_password1": "silky-pop-biscuits-9",
            "new_password2": "silky-pop-biscuits-9",
        },
    )
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.check_password("silky-pop-biscuits-9")


def test_reset_password_by_email(client, ann, mailoutbox):
    response = client.post("/accounts/password_reset/", {"email": "ann@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["ann@example.com"]
    assert mail.subject == "Your Parlour password"
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.body).group(1)
    form_url = client.get(link)["Location"]  # Django swaps the token for a session marker
    page = client.get(form_url)
    assert "Choose a new password" in page.content.decode()
    response = client.post(
        form_url, {"new_password1": "saucepan-man-88", "new_password2": "saucepan-man-88"}
    )
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.check_password("saucepan-man-88")


def test_profile_lists_the_users_matches(client, ann, bea):
    match = factories.match_make(players=[ann, bea])
    client.force_login(bea)
    assert client.get("/accounts/profile/")["Location"] == "/players/bea/"
    page = client.get("/players/ann/").content.decode()
    assert f'href="/matches/{match.pk}/"' in page
    assert "The Faraway Tree" in page


def test_pages_need_a_login(client):
    for url in ("/matches/", "/matches/new/", "/accounts/profile/"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")


def test_demo_accounts_is_idempotent_and_its_password_works(client, capsys):
    call_command("demo_accounts")
    call_command("demo_accounts")
    out = capsys.readouterr().out
    password = re.search(r"ann\s+password: (\S+)", out).group(1)
    assert get_user_model().objects.filter(username__in=["ann", "bea", "cal", "dan"]).count() == 4
    # Through the real login form: axes needs the request, which client.login() does not pass.
    response = client.post("/accounts/login/", {"username": "dan", "password": password})
    assert response.status_code == 302

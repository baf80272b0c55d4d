"""The account page (``/accounts/``): the person's own name, address and mail choices, each
with where it is changed; only for the signed-in person, never anyone else's."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import NotificationSettings
from tests import factories

pytestmark = pytest.mark.django_db


def test_signed_out_visitors_are_sent_to_sign_in(client) -> None:
    response = client.get("/accounts/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_page_shows_the_persons_own_facts_and_where_to_change_them() -> None:
    ann = factories.user_make("ann", email="ann@example.org")
    factories.user_make("bob", email="bob@example.org")
    NotificationSettings.objects.create(user=ann, email_turn=True, email_deadline=False)
    page = factories.client_for(ann).get("/accounts/").content.decode()
    assert 'id="account-username">ann<' in page
    assert "ann@example.org" in page
    assert "bob" not in page
    assert "E-mail me when it is my turn" in page
    assert "E-mail me when a turn deadline is near" not in page
    assert 'href="/accounts/password_change/"' in page
    assert 'href="/accounts/notifications/"' in page


def test_without_an_address_the_page_says_no_mail_can_go_and_offers_to_add_one() -> None:
    cal = get_user_model().objects.create_user(username="cal")
    page = factories.client_for(cal).get("/accounts/").content.decode()
    assert "No mail can be sent without an e-mail address." in page
    assert "Add one" in page


def test_every_page_links_to_the_account_when_signed_in() -> None:
    page = factories.client_for(factories.user_make("dee")).get("/matches/").content.decode()
    assert 'id="nav-account"' in page and 'href="/accounts/"' in page

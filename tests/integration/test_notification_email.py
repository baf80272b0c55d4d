"""The notifications page's own form for the address mail goes to: an account without one is
told so and can add it there; a changed address is validated, garbage and another account's
address refused with a clear message and nothing changed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import NotificationSettings, PendingEmail
from tests import factories

pytestmark = pytest.mark.django_db

PAGE = "/accounts/notifications/"


def _email_of(user) -> str:
    return get_user_model().objects.get(pk=user.pk).email


def _without_an_address(user) -> None:
    get_user_model().objects.filter(pk=user.pk).update(email="")


def test_an_account_without_an_address_adds_one_there(ann, ann_client):
    _without_an_address(ann)
    page = ann_client.get(PAGE).content.decode()
    assert 'id="no-email"' in page and 'id="email-form"' in page
    response = ann_client.post(PAGE, {"form": "email", "email": "ann@Example.ORG"})
    assert response.status_code == 302 and response["Location"] == PAGE
    # Held until confirmed (tests/integration/test_email_confirmation.py), the domain's case
    # normalised.
    assert _email_of(ann) == ""
    assert PendingEmail.objects.get(user=ann).email == "ann@example.org"
    page = ann_client.get(PAGE).content.decode()
    assert 'id="no-email"' in page and 'id="email-pending"' in page
    assert "We mailed a link to ann@example.org" in page


@pytest.mark.parametrize(
    "garbage", ["", "not-an-address", "ann@", "a" * 250 + "@example.org", "ann@exa mple.org"]
)
def test_garbage_is_refused_and_changes_nothing(ann, ann_client, garbage):
    ann.email = "ann@example.org"
    ann.save()
    response = ann_client.post(PAGE, {"form": "email", "email": garbage})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'class="errorlist"' in page
    assert _email_of(ann) == "ann@example.org"


def test_another_accounts_address_is_refused_with_a_clear_message(ann, ann_client):
    _without_an_address(ann)
    factories.user_make("bea", email="bea@example.org")
    response = ann_client.post(PAGE, {"form": "email", "email": "BEA@example.org"})
    assert response.status_code == 400
    assert "Another account uses that address" in response.content.decode()
    assert _email_of(ann) == ""


def test_saving_ones_own_address_again_is_fine_and_the_boxes_are_untouched(ann, ann_client):
    ann.email = "ann@example.org"
    ann.save()
    ann_client.post(PAGE, {})  # both boxes off
    response = ann_client.post(PAGE, {"form": "email", "email": "ann@example.org"})
    assert response.status_code == 302
    chosen = NotificationSettings.objects.get(user=ann)
    assert (chosen.email_turn, chosen.email_deadline) == (False, False)

"""Closing an account (docs/accounts.md, "Closing and deleting"): hidden, signed out
everywhere, opened again by signing in within 30 days."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import AccountClosure
from games.models import Rating
from tests import factories

pytestmark = pytest.mark.django_db


def _sign_in(client: Client, username: str) -> object:
    return client.post(
        "/accounts/login/", {"username": username, "password": factories.PASSWORD}, follow=True
    )


def test_closing_hides_signs_out_everywhere_and_signing_in_reopens(ann, bea):
    Rating.objects.create(
        game="faraway", user=ann, mu=30, sigma=3, matches=9, last_played_at=timezone.now()
    )
    first, second = Client(), Client()
    _sign_in(first, "ann")
    _sign_in(second, "ann")
    assert second.get("/accounts/").status_code == 200
    bea_client = factories.client_for(bea)
    assert "/players/ann/" in bea_client.get("/leaderboard/faraway/").content.decode()
    page = first.get("/accounts/close/")
    assert page.status_code == 200 and "30 days" in page.content.decode()
    closed = first.post("/accounts/close/", {"password": factories.PASSWORD})
    text = closed.content.decode()
    assert closed.status_code == 200 and 'action="/accounts/login/"' in text  # the sign-in page
    assert "Sign in before" in text  # saying how to reopen
    assert AccountClosure.objects.filter(user=ann).exists()
    # both browsers are signed out
    for client in (first, second):
        assert client.get("/accounts/").status_code == 302
    # hidden: no profile, no leaderboard line
    assert bea_client.get("/players/ann/").status_code == 404
    board = bea_client.get("/leaderboard/faraway/").content.decode()
    assert "/players/ann/" not in board
    # signing in again opens it
    back = _sign_in(first, "ann")
    assert "your account is open again" in back.content.decode()
    assert not AccountClosure.objects.filter(user=ann).exists()
    assert bea_client.get("/players/ann/").status_code == 200


def test_a_wrong_password_or_garbage_closes_nothing(ann_client, ann):
    for data in ({}, {"password": "nope"}, {"password": "\x00"}, {"other": "x"}):
        refused = ann_client.post("/accounts/close/", data)
        assert refused.status_code == 400
    assert not AccountClosure.objects.filter(user=ann).exists()
    assert ann_client.get("/accounts/").status_code == 200


def test_too_many_tries_are_refused_with_a_429(ann_client, ann):
    statuses = [
        ann_client.post("/accounts/close/", {"password": "nope"}).status_code for _ in range(11)
    ]
    assert statuses[:10] == [400] * 10 and statuses[10] == 429
    right = ann_client.post("/accounts/close/", {"password": factories.PASSWORD})
    assert right.status_code == 429 and "Too many tries" in right.content.decode()
    assert not AccountClosure.objects.filter(user=ann).exists()


def test_closing_twice_keeps_the_first_time(ann):
    from accounts.services.closure import account_close

    first = account_close(user=ann)
    again = account_close(user=ann)
    assert again.closed_at == first.closed_at


def test_the_account_page_links_to_close_delete_and_export(ann_client):
    page = ann_client.get("/accounts/").content.decode()
    for marker in ('id="account-close-link"', 'id="account-delete-link"', 'id="data-prepare"'):
        assert marker in page

"""Signed out elsewhere (docs/accounts.md, "Signed out"): an htmx request gets a worded 401
and changes nothing; a new-match form posted signed out leads through the sign-in back to the
form (``?kept=1``); the sign-in page says what it leads on to, from ``next=``'s shape alone;
signing in with a name given up by a rename says so, whatever the password, and the lockout
still holds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import caches
from django.test import Client
from django.utils import timezone

from accounts.models import Follow, NameChange
from accounts.services.closure import account_close
from accounts.services.rename import name_change
from accounts.sign_in import NEW_MATCH, PLAY_HERE, SEE_MATCH, SEE_PAGE
from games.models import Match
from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
WRONG = "not-the-password-at-all"
GENERIC = "Please enter a correct username and password"


@pytest.fixture(autouse=True)
def _empty_throttle_cache():
    caches["throttle"].clear()
    yield
    caches["throttle"].clear()


def _login_page(client: Client, target: str) -> str:
    response = client.get("/accounts/login/", {"next": target})
    assert response.status_code == 200
    return response.content.decode()


def _reason(page: str) -> str | None:
    start = page.find('id="sign-in-reason">')
    if start < 0:
        return None
    start += len('id="sign-in-reason">')
    return page[start : page.index("</p>", start)].replace("&#x27;", "'")


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ("/matches/7/", SEE_MATCH),
        ("/matches/7/replay/?ply=3", SEE_MATCH),
        ("/matches/7/analysis/", SEE_MATCH),
        ("/matches/join/abcdef/", PLAY_HERE),
        ("/matches/new/?kept=1", NEW_MATCH),
        ("/history/", SEE_PAGE),
        ("/no-such-page/", SEE_PAGE),
        ("https://evil.example/matches/7/", None),
        ("//evil.example/matches/7/", None),
        ("", None),
    ],
)
def test_the_sign_in_page_says_what_it_leads_on_to(client, target, reason):
    assert _reason(_login_page(client, target)) == reason


def test_a_match_link_says_the_same_of_a_private_match_and_of_none(ann, bea, client):
    """Only ``next=``'s shape is read: a non-member learns nothing of whether the match exists
    or is private, nor anything the match page would not show them (its game, its players)."""
    private = factories.match_make(players=[ann, bea], seed=3, public=False)
    public = factories.match_make(players=[ann, bea], seed=4, public=True)
    pages = [_login_page(client, f"/matches/{pk}/") for pk in (private.pk, public.pk, 99999)]
    for page in pages:
        assert _reason(page) == SEE_MATCH
        assert "ann" not in page and "bea" not in page and "Faraway" not in page.split("<h1")[1]
    assert Match.objects.count() == 2


def test_the_link_of_a_signed_out_request_leads_back_with_its_words(ann, bea):
    match = factories.match_make(players=[ann, bea], seed=4)
    response = Client().get(
        f"/matches/{match.pk}/table/?version=0",
        headers={**HTMX, "HX-Current-URL": f"http://testserver/matches/{match.pk}/"},
    )
    assert response.status_code == 401
    assert f'href="/accounts/login/?next=/matches/{match.pk}/"' in response.content.decode()
    assert _reason(_login_page(Client(), f"/matches/{match.pk}/")) == SEE_MATCH


def test_signed_out_htmx_follow_and_export_poll_are_worded_401s(ann, bea):
    """Views that htmx calls but that used Django's own ``login_required``: its redirect was
    followed by htmx, which swapped the sign-in page into the profile or the account page."""
    before = list(NameChange.objects.all())
    follow = Client().post("/players/bea/follow/", headers=HTMX)
    poll = Client().get("/accounts/data/", headers=HTMX)
    ask = Client().get("/players/bea/block/", headers=HTMX)
    for response in (follow, poll, ask):
        assert response.status_code == 401 and "You are signed out" in response.text
    # Without htmx: the sign-in page, as before.
    assert Client().post("/players/bea/follow/")["Location"].startswith("/accounts/login/")
    assert list(NameChange.objects.all()) == before
    assert not Follow.objects.exists()


def test_a_new_match_posted_signed_out_leads_back_to_the_kept_form(ann):
    form = {"game": "faraway", "num_players": "2", "seat_0": "me", "seat_1": "greedy"}
    response = Client().post("/matches/new/", form)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/matches/new/%3Fkept%3D1"
    assert not Match.objects.exists()
    # Signing in there comes back to the form, which the page's script fills again.
    client = Client()
    login = client.post(
        "/accounts/login/",
        {"username": "ann", "password": factories.PASSWORD, "next": "/matches/new/?kept=1"},
    )
    assert login.status_code == 302 and login["Location"] == "/matches/new/?kept=1"
    page = client.get(login["Location"])
    assert page.status_code == 200 and 'id="new-match-form"' in page.content.decode()
    # A GET signed out keeps its own address (no ?kept: nothing was filled).
    plain = Client().get("/matches/new/?game=faraway")
    assert plain["Location"] == "/accounts/login/?next=/matches/new/%3Fgame%3Dfaraway"


def _renamed(ann) -> None:
    name_change(ann, name="annabel", current="ann")


def _sign_in(client: Client, name: str, password: str):
    return client.post("/accounts/login/", {"username": name, "password": password})


@pytest.mark.parametrize("password", [factories.PASSWORD, WRONG])
def test_an_old_name_after_a_rename_says_it_was_changed(ann, client, password):
    _renamed(ann)
    response = _sign_in(client, "ann", password)
    assert response.status_code == 200
    page = response.content.decode()
    assert "The name \u201cann\u201d was changed: sign in with the account\u2019s new name." in page
    # Neither the new name nor whether the password was right.
    assert "annabel" not in page and GENERIC not in page
    assert client.get("/matches/").status_code == 302  # not signed in
    assert _sign_in(client, "annabel", factories.PASSWORD).status_code == 302


def test_other_failures_keep_the_generic_words(ann, bea, client):
    _renamed(ann)
    NameChange.objects.update(changed_at=timezone.now() - timedelta(days=91))  # no longer held
    for name in ("ann", "nobody", "bea"):
        page = _sign_in(client, name, WRONG).content.decode()
        assert GENERIC in page and "was changed" not in page


def test_a_closed_accounts_old_name_says_nothing_of_it(ann, client):
    _renamed(ann)
    account_close(user=ann)
    page = _sign_in(client, "ann", WRONG).content.decode()
    assert GENERIC in page and "was changed" not in page


def test_the_old_name_still_counts_toward_the_lockout(ann, client):
    _renamed(ann)
    for _ in range(4):
        assert "was changed" in _sign_in(client, "ann", WRONG).content.decode()
    locked = _sign_in(client, "ann", WRONG)
    assert locked.status_code == 429
    assert "Too many failed sign-ins for this account from your address." in locked.text
    # The lockout page keeps saying where next= leads.
    locked = client.post(
        "/accounts/login/",
        {"username": "ann", "password": WRONG, "next": "/matches/3/"},
    )
    assert locked.status_code == 429 and _reason(locked.content.decode()) == SEE_MATCH


@pytest.mark.parametrize(
    "target",
    [
        "http://[::1",
        "/matches/\x00/",
        "/" + "a" * 20000,
        "\\\\evil.example/matches/1/",
        "/matches/99999999999999999999999/",
        "javascript:alert(1)",
        "/matches/1/%0a",
    ],
)
def test_a_garbage_next_is_never_a_500_nor_a_match(client, target):
    for response in (
        client.get("/accounts/login/", {"next": target}),
        client.post("/accounts/login/", {"username": "x", "password": "y", "next": target}),
    ):
        assert response.status_code in (200, 400)
        assert _reason(response.content.decode()) in (None, SEE_PAGE, SEE_MATCH)

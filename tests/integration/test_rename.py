"""A new name (docs/accounts.md, "Your name"): once every 30 days, confirmed by the password;
the old profile URL leads to the new one for 90 days and no one else may take the old name
meanwhile; garbage, stale pages, double posts and a race refused with a message and no change;
records show the current name."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts.models import NameChange
from tests import factories

pytestmark = pytest.mark.django_db

URL = "/accounts/name/"


def _rename(client: Client, new_name: str, *, current: str = "ann", **extra):
    data = {"new_name": new_name, "password": factories.PASSWORD, "current": current, **extra}
    return client.post(URL, data)


def _name_of(user) -> str:
    return get_user_model().objects.get(pk=user.pk).username


def _backdate(user, days: int) -> None:
    NameChange.objects.filter(user=user).update(changed_at=timezone.now() - timedelta(days=days))


def test_a_rename_changes_the_name_and_the_old_profile_leads_to_the_new(ann, bea, ann_client):
    page = ann_client.get("/accounts/").content.decode()
    assert 'id="rename-form"' in page
    response = _rename(ann_client, "annabel")
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    assert _name_of(ann) == "annabel"
    change = NameChange.objects.get()
    assert (change.user_id, change.old_name, change.new_name) == (ann.pk, "ann", "annabel")
    page = ann_client.get("/accounts/").content.decode()
    assert "Your name is now annabel." in page and 'id="rename-form"' not in page
    assert 'id="rename-next"' in page
    # Still signed in; the old profile URLs lead to the new one, for anyone signed in.
    bea_client = factories.client_for(bea)
    assert bea_client.get("/players/annabel/").status_code == 200
    moved = bea_client.get("/players/ann/")
    assert moved.status_code == 302 and moved["Location"] == "/players/annabel/"
    assert bea_client.get("/accounts/ann/", follow=True).redirect_chain[-1][0] == (
        "/players/annabel/"
    )
    # A name no one ever had is still a 404.
    assert bea_client.get("/players/nobody/").status_code == 404


def test_the_next_rename_waits_30_days_and_says_when(ann, ann_client):
    assert _rename(ann_client, "annabel").status_code == 302
    response = _rename(ann_client, "anna", current="annabel")
    assert response.status_code == 400
    assert "the next change is allowed from" in response.content.decode()
    assert _name_of(ann) == "annabel"
    _backdate(ann, 29)
    assert _rename(ann_client, "anna", current="annabel").status_code == 400
    _backdate(ann, 31)
    assert _rename(ann_client, "anna", current="annabel").status_code == 302
    assert _name_of(ann) == "anna"
    # Chained: the first name leads to the current one too.
    moved = ann_client.get("/players/ann/")
    assert moved.status_code == 302 and moved["Location"] == "/players/anna/"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"new_name": ""}, "This field is required."),
        ({"new_name": "ann bea"}, "Enter a valid username"),
        ({"new_name": "x" * 151}, "at most 150"),
        ({"new_name": "<script>"}, "Enter a valid username"),
        ({"new_name": "bea"}, "That name is taken"),
        ({"new_name": "BEA"}, "That name is taken"),
        ({"new_name": "ann"}, "That is your name already."),
        ({"password": "wrong-password"}, "That is not your password."),
        ({"password": ""}, "This field is required."),
        ({"current": "someone-else"}, "Your name has changed since this page was shown"),
        ({"current": ""}, "This page is out of date"),
        ({"current": "x" * 151}, "This page is out of date"),
    ],
)
def test_garbage_and_taken_names_are_refused_and_change_nothing(
    ann, bea, ann_client, fields, message
):
    data = {"new_name": "annabel", "password": factories.PASSWORD, "current": "ann", **fields}
    response = ann_client.post(URL, data)
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page and 'id="rename-form"' in page
    assert factories.PASSWORD not in page  # the password is never shown back
    assert _name_of(ann) == "ann" and not NameChange.objects.exists()


def test_a_double_post_renames_once(ann, ann_client):
    assert _rename(ann_client, "annabel").status_code == 302
    again = _rename(ann_client, "annabel")  # the same page's form, posted again
    assert again.status_code == 400
    assert NameChange.objects.count() == 1 and _name_of(ann) == "annabel"


def test_an_old_name_is_held_from_others_for_90_days(ann, bea, ann_client):
    assert _rename(ann_client, "annabel").status_code == 302
    # Nobody may register it, in any case, nor take it by a rename.
    data = {"email": "x@example.org", "password1": "climbing-77!", "password2": "climbing-77!"}
    for name in ("ann", "ANN"):
        refused = Client().post("/accounts/register/", {"username": name, **data})
        assert refused.status_code == 400 and "That name is taken" in refused.content.decode()
    refused = _rename(factories.client_for(bea), "ann", current="bea")
    assert refused.status_code == 400 and "That name is taken" in refused.content.decode()
    assert _name_of(bea) == "bea"
    assert get_user_model().objects.count() == 2
    # After 90 days it is free again, and no longer leads to ann.
    _backdate(ann, 91)
    assert Client().post("/accounts/register/", {"username": "ann", **data}).status_code == 302
    assert factories.client_for(bea).get("/players/ann/").status_code == 200
    assert _name_of(ann) == "annabel"


def test_one_may_take_back_ones_own_old_name_after_30_days(ann, ann_client):
    assert _rename(ann_client, "annabel").status_code == 302
    _backdate(ann, 31)
    assert _rename(ann_client, "ann", current="annabel").status_code == 302
    assert _name_of(ann) == "ann"
    # Now "annabel" is the name held (it leads back to ann).
    moved = ann_client.get("/players/annabel/")
    assert moved.status_code == 302 and moved["Location"] == "/players/ann/"


def test_signed_out_or_by_get_nothing_happens(ann):
    response = Client().post(URL, {"new_name": "x", "password": factories.PASSWORD})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert factories.client_for(ann).get(URL).status_code == 405
    assert _name_of(ann) == "ann"


@pytest.mark.django_db(transaction=True)
def test_two_renames_to_one_name_at_once_give_it_to_one():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    clients = [(factories.client_for(user), user.username) for user in (ann, bea)]
    statuses = factories.at_once(
        [lambda c=c, n=n: _rename(c, "cal", current=n).status_code for c, n in clients],
        timeout=30,
    )
    assert sorted(statuses) == [302, 400]
    assert get_user_model().objects.filter(username="cal").count() == 1
    assert NameChange.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_persons_two_renames_at_once_make_one_change():
    ann = factories.user_make("ann")
    clients = [factories.client_for(ann) for _ in range(2)]
    statuses = factories.at_once(
        [
            lambda c=c, n=n: _rename(c, n).status_code
            for c, n in zip(clients, ("x1", "x2"), strict=True)
        ],
        timeout=30,
    )
    assert sorted(statuses) == [302, 400]
    assert NameChange.objects.count() == 1
    assert _name_of(ann) in ("x1", "x2")


def test_records_and_pages_show_the_current_name(ann, bea, ann_client):
    """What a record shows is the name now (docs/accounts.md): names are read when shown."""
    match = factories.match_make(players=[ann, bea], seed=4, public=True)
    assert _rename(ann_client, "annabel").status_code == 302
    record = json.loads(ann_client.get(f"/matches/{match.pk}/record.json").content)
    names = [seat["username"] for seat in record["seats"]]
    assert "annabel" in names and "ann" not in names
    table = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert "annabel" in table


def test_a_rename_to_the_shape_kept_for_deleted_accounts_is_refused():
    ann = factories.user_make("ann")
    response = factories.client_for(ann).post(
        "/accounts/name/",
        {"new_name": "deleted_player_7", "password": factories.PASSWORD, "current": "ann"},
    )
    assert response.status_code == 400
    assert "kept for deleted accounts" in response.content.decode()
    ann.refresh_from_db()
    assert ann.username == "ann"

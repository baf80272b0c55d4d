"""The admin is a read-only window (games/admin.py): no match or move is added, changed or (for
moves) deleted by hand, and a match's secrets stay out of it until the match is over."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import Group

from games.models import Match, Move
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(ann, bea):
    staff = factories.staff_make("staff")
    return factories.client_for(staff)


def test_matches_and_moves_cannot_be_added_or_changed_by_hand(staff_client, ann, bea):
    match = factories.play_random(
        factories.match_make(game="faraway", players=[ann, bea]), random.Random(1), plies=2
    )
    move = Move.objects.filter(match=match).last()
    before = (Match.objects.count(), Move.objects.count(), match.version)
    assert staff_client.post("/admin/games/move/add/", {}).status_code == 403
    assert staff_client.post("/admin/games/match/add/", {}).status_code == 403
    if move is not None:
        assert (
            staff_client.post(f"/admin/games/move/{move.pk}/delete/", {"post": "yes"}).status_code
            == 403
        )
    changed = staff_client.post(f"/admin/games/match/{match.pk}/change/", {"status": "finished"})
    assert changed.status_code == 403
    match.refresh_from_db()
    assert (Match.objects.count(), Move.objects.count(), match.version) == before


def test_a_running_match_keeps_its_seed_salt_and_hands_out_of_the_admin(staff_client, ann, bea):
    match = factories.match_make(game="faraway", players=[ann, bea])
    page = staff_client.get(f"/admin/games/match/{match.pk}/change/")
    assert page.status_code == 200
    body = page.content.decode()
    assert match.salt not in body and str(match.seed) not in body
    assert "Commitment" in body  # the public fields are shown

    factories.play_random(match, random.Random(2))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    finished = staff_client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert match.salt in finished and str(match.seed) in finished


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_empty_to_field_is_a_400_not_a_500(staff_client, method):
    """Django's admin skips its ``_to_field`` check for an empty value and then fails looking
    for a field named "" (found by the fuzz suite): core/admin_to_field.py refuses it."""
    group = Group.objects.create(name="umpires")
    url = f"/admin/auth/group/{group.pk}/change/"
    if method == "get":
        response = staff_client.get(url, {"_to_field": ""})
    else:
        response = staff_client.post(f"{url}?_to_field=id", {"_to_field": " ", "name": "x"})
    assert response.status_code == 400
    assert Group.objects.get(pk=group.pk).name == "umpires"
    assert staff_client.get(url, {"_to_field": "id"}).status_code == 200

"""Public and private matches: who may watch, what the lobby lists, and a private match's
existence kept from everyone outside it (a 404 on every URL, as for no match at all)."""

from __future__ import annotations

import json
import random

import pytest

from games.models import Match
from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _requests(match: Match) -> list[tuple[str, str, dict]]:
    """(method, path, data) for every URL about one match."""
    base = f"/matches/{match.pk}"
    move = {"move": json.dumps({"type": "draw", "source": "pack"}), "version": match.version}
    return [
        ("get", f"{base}/", {}),
        ("get", f"{base}/table/", {"version": match.version}),
        ("get", f"{base}/table/", {"version": "0"}),
        ("post", f"{base}/move/", move),
        ("post", f"{base}/join/", {}),
        ("get", f"{base}/replay/", {}),
        ("get", f"{base}/replay/", {"ply": "1", "as": "all"}),
        ("get", f"{base}/record.json", {}),
    ]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_private_match_is_a_404_to_outsiders_on_every_url(htmx, ann, bea, cal_client):
    match = factories.match_make(players=[ann, bea], public=False)
    factories.play_random(match, random.Random(1), plies=2)
    match.refresh_from_db()
    missing = Match.objects.order_by("-pk").first().pk + 1000
    for method, path, data in _requests(match):
        response = getattr(cal_client, method)(path, data, headers=HTMX if htmx else {})
        assert response.status_code == 404, (method, path)
        ghost = path.replace(f"/matches/{match.pk}/", f"/matches/{missing}/")
        unknown = getattr(cal_client, method)(ghost, data, headers=HTMX if htmx else {})
        # The same answer as for a match that never existed, so nothing leaks.
        assert unknown.status_code == 404 and response.content == unknown.content.replace(
            str(missing).encode(), str(match.pk).encode()
        ), path
    match.refresh_from_db()
    assert match.ply == 2 and match.seats.count() == 2


def test_a_private_matchs_members_see_it(ann, bea, cal, ann_client, cal_client):
    match = factories.match_make(players=[ann, bea], public=False)
    assert ann_client.get(f"/matches/{match.pk}/").status_code == 200
    # A creator who only watches (every seat a bot) is a member too.
    watched = factories.watched_match_make(cal, public=False)
    assert cal_client.get(f"/matches/{watched.pk}/").status_code == 200
    assert cal_client.get(f"/matches/{watched.pk}/replay/").status_code == 200
    assert ann_client.get(f"/matches/{watched.pk}/").status_code == 404


def test_a_public_match_may_be_watched_by_anyone_signed_in(ann, bea, cal_client, client):
    match = factories.match_make(players=[ann, bea], public=True)
    page = cal_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="spectator-note"' in page and 'id="hand"' not in page
    assert cal_client.get(f"/matches/{match.pk}/replay/").status_code == 200
    # Signed out, every page asks for a sign-in first.
    response = client.get(f"/matches/{match.pk}/replay/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_the_lobby_lists_public_matches_only(ann, bea, cal, cal_client):
    public_waiting = factories.match_make(players=[ann], seats=2, public=True)
    private_waiting = factories.match_make(players=[ann], seats=2, public=False)
    public_live = factories.match_make(players=[ann, bea], public=True)
    private_live = factories.match_make(players=[ann, bea], public=False)
    page = cal_client.get("/matches/").content.decode()
    open_part = page.split('id="open-matches"')[1].split("</section>")[0]
    watch_part = page.split('id="watch-matches"')[1].split("</section>")[0]
    assert f'data-match-id="{public_waiting.pk}"' in open_part
    assert f'data-match-id="{public_live.pk}"' in watch_part
    for hidden in (private_waiting, private_live):
        assert f'data-match-id="{hidden.pk}"' not in page
    # A private table is joined through its invite link only.
    assert cal_client.post(f"/matches/{private_waiting.pk}/join/").status_code == 404
    invite = cal_client.post(f"/matches/join/{private_waiting.invite_token}/")
    assert invite.status_code == 302
    assert private_waiting.seats.filter(user=cal).exists()


def test_the_creator_chooses_public_or_private(ann_client, ann):
    form = {"game": "faraway", "num_players": 2, "seat_0": "me", "seat_1": "greedy"}
    ann_client.post("/matches/new/", {**form, "visibility": "private"})
    ann_client.post("/matches/new/", {**form, "visibility": "public"})
    ann_client.post("/matches/new/", form)  # the form's default: public
    assert list(Match.objects.order_by("pk").values_list("public", flat=True)) == [
        False,
        True,
        True,
    ]
    page = ann_client.get("/matches/new/").content.decode()
    assert 'name="visibility" value="public"' in page and "checked" in page
    refused = ann_client.post("/matches/new/", {**form, "visibility": "everyone"})
    assert refused.status_code == 400 and Match.objects.count() == 3

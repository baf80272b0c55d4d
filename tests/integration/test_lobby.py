"""Creating, inviting, joining and starting matches, and the lobby's lists."""

from __future__ import annotations

import re

import pytest

from games.engines import get_engine
from games.models import Match, Seat
from games.selectors.notifications import awaited_count
from tests import factories

pytestmark = pytest.mark.django_db


def _create(client, **fields) -> Match:
    response = client.post("/matches/new/", fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    pk = int(re.fullmatch(r"/matches/(\d+)/", response["Location"]).group(1))
    return Match.objects.get(pk=pk)


def test_create_a_faraway_match_then_a_friend_joins_by_invite_link(ann_client, bea_client, bea):
    match = _create(ann_client, game="faraway", num_players=2)
    assert match.status == Match.Status.WAITING
    assert list(match.seats.values_list("index", "user__username")) == [(0, "ann")]

    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    invite = re.search(r'id="invite-link"[^>]*value="http://testserver([^"]+)"', page, re.S)
    assert invite.group(1) == f"/matches/join/{match.invite_token}/"

    landing = bea_client.get(invite.group(1))
    assert landing.status_code == 200
    assert 'id="take-seat"' in landing.content.decode()
    response = bea_client.post(invite.group(1))
    assert response["Location"] == f"/matches/{match.pk}/"

    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.started_at is not None
    dealer = factories.dealer_for(match.seed, 2)
    assert match.options == {"dealer": dealer}
    engine = get_engine("faraway")
    state = engine.load(match.state)
    assert engine.state_hash(state) == engine.state_hash(
        engine.new_game(2, match.seed, match.options)
    )
    assert match.awaiting == engine.awaiting(state) == [(dealer + 1) % 2]
    # The invite link now leads a seated player straight to the table.
    assert bea_client.get(invite.group(1))["Location"] == f"/matches/{match.pk}/"


def test_gulliver_options_reach_the_engine(ann_client):
    match = _create(ann_client, game="gulliver", num_players=5, target=60, challenges="on")
    assert match.num_players == 5
    assert match.options == {"target": 60, "challenges": True}


def test_seat_counts_outside_the_engine_limits_are_refused(ann_client):
    response = ann_client.post("/matches/new/", {"game": "faraway", "num_players": 5})
    assert response.status_code == 400
    assert "2 to 4 players" in response.content.decode()
    response = ann_client.post("/matches/new/", {"game": "chess", "num_players": 2})
    assert response.status_code == 400
    assert not Match.objects.exists()


def test_open_matches_are_listed_and_joined_from_the_lobby(ann, ann_client, bea_client, cal_client):
    match = _create(ann_client, game="gulliver", num_players=3)
    lobby = bea_client.get("/matches/").content.decode()
    assert f'action="/matches/{match.pk}/join/"' in lobby
    assert bea_client.post(f"/matches/{match.pk}/join/").status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING
    # Bea no longer sees it among the open ones, but among hers.
    lobby = bea_client.get("/matches/").content.decode()
    assert f'action="/matches/{match.pk}/join/"' not in lobby
    assert f'href="/matches/{match.pk}/"' in lobby
    cal_client.post(f"/matches/{match.pk}/join/")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert list(match.seats.values_list("user__username", flat=True)) == ["ann", "bea", "cal"]


def test_joining_a_full_match_is_refused_and_changes_nothing(ann, bea, cal_client):
    match = factories.match_make(players=[ann, bea])
    version = match.version
    response = cal_client.post(f"/matches/{match.pk}/join/", follow=True)
    assert "already started" in response.content.decode()
    match.refresh_from_db()
    assert match.version == version
    assert Seat.objects.filter(match=match).count() == 2


def test_joining_twice_keeps_one_seat(ann_client, bea_client):
    match = _create(ann_client, game="faraway", num_players=3)
    bea_client.post(f"/matches/{match.pk}/join/")
    bea_client.post(f"/matches/{match.pk}/join/")
    ann_client.post(f"/matches/{match.pk}/join/")
    assert match.seats.count() == 2


def test_my_matches_put_your_turn_first(ann, bea, cal, ann_client):
    waiting = factories.match_make(players=[ann], seats=3)
    for seed in range(1, 7):
        factories.match_make(players=[ann, bea], seed=seed)
    mine = {m.pk for m in Match.objects.filter(status="active") if 0 in m.awaiting}
    theirs = {m.pk for m in Match.objects.filter(status="active") if 0 not in m.awaiting}
    assert mine and theirs, "the seeds should give both kinds"
    page = ann_client.get("/matches/").content.decode()
    section = page[page.index('id="my-matches"') : page.index('id="open-matches"')]
    order = [int(pk) for pk in re.findall(r'data-match-id="(\d+)"', section)]
    assert set(order[: len(mine)]) == mine
    assert set(order[len(mine) : -1]) == theirs
    assert order[-1] == waiting.pk
    assert section.count("Your turn") == len(mine)


def _listed_ids(page: str) -> list[int]:
    section = page[page.index('id="my-matches"') : page.index('id="open-matches"')]
    return [int(pk) for pk in re.findall(r'data-match-id="(\d+)"', section)]


def test_your_matches_come_a_page_at_a_time_and_the_title_is_plain(ann, bea, ann_client):
    made = {factories.match_make(players=[ann, bea], seed=seed).pk for seed in range(1, 24)}
    first = ann_client.get("/matches/").content.decode()
    awaited = awaited_count(user_id=ann.pk)  # the tab's title leads with the badge's count
    assert f"<title>({awaited}) Lobby · Parlour</title>" in first
    assert len(_listed_ids(first)) == 20 and "Page 1 of 2" in first
    assert 'href="/matches/?page=2"' in first
    second = ann_client.get("/matches/", {"page": "2"}).content.decode()
    assert len(_listed_ids(second)) == 3 and "Page 2 of 2" in second
    assert set(_listed_ids(first)) | set(_listed_ids(second)) == made  # each once, none lost
    # Garbage or a page past the end: the first or the last page, never an error.
    assert _listed_ids(ann_client.get("/matches/", {"page": "x"}).content.decode()) == (
        _listed_ids(first)
    )
    assert _listed_ids(ann_client.get("/matches/", {"page": "99"}).content.decode()) == (
        _listed_ids(second)
    )


def test_home_page(client, ann_client):
    assert "Register" in client.get("/").content.decode()
    assert "Start a match" in ann_client.get("/").content.decode()

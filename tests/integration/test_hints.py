"""Hints at a table (docs/lessons.md, "The first match, with hints"): only the hinted seat's own
page marks its moves and has the line for the reason beside its hand; another seat's page, a
watcher's (the shared render too), the replay of the running match never do. The seat turns
them on and off with an idempotent POST that leaves the match's version alone, and a hinted
seat's move costs what any move costs."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Match, Seat
from games.services import move_submit
from tests import factories
from tests.integration.test_storage import MAX_QUERIES_PER_MOVE

pytestmark = pytest.mark.django_db

MARK = 'class="hint-mark"'
BESIDE = 'id="hint-why"'
SEED = 46  # a Faraway Tree deal whose first turn is seat 0's


def _hinted(match: Match, index: int, on: bool = True) -> None:
    Seat.objects.filter(match=match, index=index).update(hints=on)


def _play_until(match: Match, seat: int) -> None:
    """Random legal moves by whoever is awaited until ``seat`` is."""
    rng = random.Random(1)
    seats = {s.index: s for s in match.seats.all()}
    while factories.awaited_seat(match) != seat:
        move = rng.choice(factories.legal_moves(match, match.awaiting[0]))
        move_submit(
            match=match, seat=seats[match.awaiting[0]], move=move, expected_version=match.version
        )


@pytest.fixture
def table(ann, bea) -> Match:
    """A public match in play: ann at seat 0 with hints on, bea at seat 1 without."""
    match = factories.match_make(players=[ann, bea], seed=SEED, public=True)
    _hinted(match, 0)
    return match


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_the_hinted_seat_sees_its_moves_marked_and_the_line_beside_its_hand(
    game, ann, bea, ann_client
):
    match = factories.match_make(game=game, players=[ann, bea], public=True)
    _hinted(match, 0)
    _hinted(match, 1)
    awaited = factories.awaited_seat(match)
    client = ann_client if awaited == 0 else factories.client_for(bea)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert MARK in page and BESIDE in page
    assert 'aria-label="you may play this"' in page
    assert "Hints are on" in page and "Turn hints off" in page
    # Every marked move is one of the seat's own legal moves.
    legal = {factories.move_key(m) for m in factories.legal_moves(match, awaited)}
    assert {factories.move_key(m) for m in factories.offered_moves(page)} <= legal


def test_another_seats_page_shows_no_hint_though_it_has_moves(table, bea):
    _play_until(table, 1)
    page = factories.client_for(bea).get(f"/matches/{table.pk}/").content.decode()
    assert factories.offered_moves(page), "bea has moves to make"
    assert MARK not in page and BESIDE not in page
    assert "Turn hints on" in page and "Hints are on" not in page


def test_watchers_see_no_hint_nor_a_toggle_on_the_page_poll_or_shared_render(table, cal_client):
    for url in (f"/matches/{table.pk}/", f"/matches/{table.pk}/table/?version=0"):
        for _ in range(2):  # the second poll is the shared render's cached answer
            page = cal_client.get(url, headers={"HX-Request": "true"}).content.decode()
            assert "spectator-note" in page
            assert MARK not in page and BESIDE not in page and 'id="hints"' not in page


def test_the_replay_of_the_running_match_shows_no_hint(table, ann_client):
    _play_until(table, 0)
    for query in ("", "?as=0", f"?as=0&ply={table.ply}"):
        page = ann_client.get(f"/matches/{table.pk}/replay/{query}").content.decode()
        assert MARK not in page and BESIDE not in page and 'id="hints"' not in page


def test_the_hinted_seat_turns_hints_off_and_on_idempotently(table, ann, ann_client):
    url = f"/matches/{table.pk}/hints/"
    version = table.version
    assert ann_client.post(url, {"hints": "off"})["Location"] == f"/matches/{table.pk}/"
    assert ann_client.post(url, {"hints": "off"}).status_code == 302  # a double click
    assert not Seat.objects.get(match=table, user=ann).hints
    page = ann_client.get(f"/matches/{table.pk}/").content.decode()
    assert MARK not in page and "Turn hints on" in page
    answer = ann_client.post(url, {"hints": "on"}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert 'id="table"' in answer.content.decode() and "Turn hints off" in answer.content.decode()
    assert Seat.objects.get(match=table, user=ann).hints
    table.refresh_from_db()
    assert table.version == version, "no move made meanwhile turns stale"


def test_the_toggle_refuses_what_is_not_the_askers_and_changes_nothing(
    table, ann, bea, cal_client, ann_client
):
    url = f"/matches/{table.pk}/hints/"
    assert cal_client.post(url, {"hints": "off"}).status_code == 403  # a watcher: no seat
    assert ann_client.post(url, {"hints": "maybe"}).status_code == 400
    assert ann_client.post(url, {}).status_code == 400
    assert ann_client.get(url).status_code == 405
    anonymous = Client().post(url, {"hints": "off"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    private = factories.match_make(players=[bea, ann], public=False)
    assert cal_client.post(f"/matches/{private.pk}/hints/", {"hints": "on"}).status_code == 404
    Match.objects.filter(pk=private.pk).update(status=Match.Status.FINISHED)
    assert ann_client.post(f"/matches/{private.pk}/hints/", {"hints": "on"}).status_code == 409
    assert list(Seat.objects.filter(hints=True).values_list("match_id", "index")) == [(table.pk, 0)]


def test_a_finished_table_offers_no_hints(table, ann_client):
    factories.play_random(table, random.Random(2))
    page = ann_client.get(f"/matches/{table.pk}/").content.decode()
    assert MARK not in page and 'id="hints"' not in page


@pytest.mark.django_db(transaction=True)
def test_a_hinted_seats_move_costs_what_any_move_costs(ann, bea):
    client = factories.client_for(ann)
    counts = {}
    for hints in (True, False):
        match = factories.match_make(players=[ann, bea], seed=SEED)
        _hinted(match, 0, hints)
        _play_until(match, 0)
        move = factories.legal_moves(match, 0)[0]
        with CaptureQueriesContext(connection) as queries:
            response = factories.post_move(client, match, move)
        assert response.status_code == 200
        assert (MARK in response.content.decode()) is hints
        counts[hints] = len(queries)
    assert counts[True] == counts[False] <= MAX_QUERIES_PER_MOVE, counts


@pytest.mark.parametrize("asked", [True, False])
def test_the_new_match_form_offers_hints_for_the_creators_seat(asked, ann, ann_client):
    form = {"game": "faraway", "num_players": 2, "seat_0": "me", "seat_1": "greedy"}
    response = ann_client.post("/matches/new/", {**form, **({"hints": "on"} if asked else {})})
    assert response.status_code == 302, response.content.decode()[:500]
    match = Match.objects.get()
    seats = list(match.seats.order_by("index").values_list("user_id", "hints"))
    assert seats == [(ann.pk, asked), (None, False)]
    assert not match.practice, "a match from the form is rated as any"
    assert 'id="id_hints"' in ann_client.get("/matches/new/").content.decode()

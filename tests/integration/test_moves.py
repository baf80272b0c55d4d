"""POST /matches/<id>/move/: what is played, and every way a move is refused without effect."""

from __future__ import annotations

import random

import pytest

from games.engines.base import same_json
from games.models import Match, Move
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(ann, bea) -> Match:
    return factories.match_make(game="faraway", players=[ann, bea], seed=11)


@pytest.fixture
def clients(ann_client, bea_client):
    return [ann_client, bea_client]


def _snapshot(match: Match) -> tuple:
    match.refresh_from_db()
    return (match.version, match.state, match.status, Move.objects.filter(match=match).count())


def test_a_move_from_the_page_is_played_and_logged(match, clients):
    seat = factories.awaited_seat(match)
    page = clients[seat].get(f"/matches/{match.pk}/").content.decode()
    offered = factories.offered_moves(page)
    key = factories.move_key
    assert sorted(map(key, offered)) == sorted(map(key, factories.legal_moves(match, seat)))
    before = match.version
    response = factories.post_move(clients[seat], match, offered[0])
    assert response.status_code == 200
    assert 'id="table"' in response.content.decode()
    assert "<html" not in response.content.decode()  # the partial only
    match.refresh_from_db()
    assert match.version == before + 1
    move = Move.objects.get(match=match)
    assert (move.ply, move.seat, move.payload) == (1, seat, offered[0])
    assert len(move.chain_hash) == 64


def test_without_htmx_a_move_redirects_to_the_table(match, clients):
    seat = factories.awaited_seat(match)
    move = factories.legal_moves(match, seat)[0]
    response = factories.post_move(clients[seat], match, move, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/"


def test_a_stale_version_is_409_and_changes_nothing(match, clients):
    seat = factories.awaited_seat(match)
    move = factories.legal_moves(match, seat)[0]
    old_version = match.version
    factories.post_move(clients[seat], match, move)
    before = _snapshot(match)
    response = factories.post_move(clients[seat], match, move, version=old_version)
    assert response.status_code == 409
    assert "table changed" in response.content.decode()
    assert 'id="move-error"' in response.content.decode()
    assert _snapshot(match) == before


def test_out_of_turn_is_409_and_changes_nothing(match, clients):
    seat = factories.awaited_seat(match)
    other = 1 - seat
    before = _snapshot(match)
    response = factories.post_move(clients[other], match, {"type": "draw", "source": "pack"})
    assert response.status_code == 409
    assert "not your turn" in response.content.decode()
    assert _snapshot(match) == before


def test_a_forged_move_is_422_with_the_engines_message(match, clients):
    seat = factories.awaited_seat(match)
    before = _snapshot(match)
    response = factories.post_move(clients[seat], match, {"type": "play", "card": "9"})
    assert response.status_code == 422
    body = response.content.decode()
    assert 'id="move-error"' in body
    assert _snapshot(match) == before
    # Without htmx the whole page comes back with the same message and status.
    response = factories.post_move(
        clients[seat], match, {"type": "draw", "source": "moon"}, htmx=False
    )
    assert response.status_code == 422
    assert "<html" in response.content.decode()
    assert _snapshot(match) == before


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"move": "not json", "version": "2"},
        {"move": "[1, 2]", "version": "2"},
        {"move": '{"type": 5}', "version": "2"},
        {"move": '{"type": "draw", "source": "pack"}', "version": "two"},
        {"move": '{"type": "draw", "source": "pack"}'},
        {"move": "x" * 5000, "version": "2"},
        # Nested deeply enough to exhaust Python's recursion in the JSON parser, and deep
        # enough to be no move of either game: both refused before any comparison.
        {"move": "[" * 990 + "]" * 990, "version": "2"},
        {"move": '{"type": "draw", "x": ' + "[" * 900 + "]" * 900 + "}", "version": "2"},
        {"move": '{"type": "draw", "x": [[[[1]]]]}', "version": "2"},
    ],
)
def test_garbage_is_400_and_changes_nothing(match, clients, data):
    seat = factories.awaited_seat(match)
    before = _snapshot(match)
    response = clients[seat].post(
        f"/matches/{match.pk}/move/", data, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    assert "could not be read" in response.content.decode()
    assert _snapshot(match) == before


def test_a_move_spelled_with_the_wrong_types_is_refused_and_the_engines_own_is_stored(
    match, clients
):
    """``False == 0`` in Python, not in JSON: ``[false]`` is not the legal ``[0]``."""
    rng = random.Random(2)
    for _ in range(80):  # play on until the awaited seat may take the top discard
        seat = factories.awaited_seat(match)
        legal = factories.legal_moves(match, seat)
        offered = [m for m in legal if m.get("source") == "discard" and m["positions"] == [0]]
        if offered:
            break
        factories.play_random(match, rng, plies=match.ply + 1)
    (take,) = offered
    before = _snapshot(match)
    for forged in ({**take, "positions": [False]}, {**take, "positions": [0.0]}):
        response = factories.post_move(clients[seat], match, forged)
        assert response.status_code == 422
        assert "not one of the moves you may make" in response.content.decode()
        assert _snapshot(match) == before
    # The move as the engine offers it plays, and the log holds the engine's spelling.
    response = factories.post_move(clients[seat], match, dict(reversed(list(take.items()))))
    assert response.status_code == 200
    stored = Move.objects.get(match=match, ply=match.ply + 1)
    assert same_json(stored.payload, take)  # strictly: ``==`` would take [False] for [0]


def test_a_malformed_htmx_current_url_is_not_a_500(match, client):
    for value in ("http://[::1", "//evil.example/", "http://a:99999999/x"):
        response = client.get(
            f"/matches/{match.pk}/", headers={"HX-Request": "true", "HX-Current-URL": value}
        )
        # Signed out: the worded 401, whose link signs in and comes back to "/" (the header
        # names no page of this site).
        assert response.status_code == 401, value
        assert 'href="/accounts/login/?next=/"' in response.content.decode()
        assert "evil" not in response.content.decode()
    # A NUL in any header is refused before any view (core/null_bytes.py).
    response = client.get(
        f"/matches/{match.pk}/", headers={"HX-Request": "true", "HX-Current-URL": "\x00"}
    )
    assert response.status_code == 400


def test_a_non_member_gets_403_and_changes_nothing(match, cal_client):
    before = _snapshot(match)
    response = cal_client.post(
        f"/matches/{match.pk}/move/",
        {"move": '{"type": "draw", "source": "pack"}', "version": match.version},
    )
    assert response.status_code == 403
    assert _snapshot(match) == before


def test_anonymous_is_sent_to_log_in(match, client):
    before = _snapshot(match)
    response = client.post(
        f"/matches/{match.pk}/move/",
        {"move": '{"type": "draw", "source": "pack"}', "version": match.version},
    )
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    response = client.get(f"/matches/{match.pk}/table/?version=0", headers={"HX-Request": "true"})
    assert response.status_code == 401 and "HX-Redirect" not in response
    assert "You are signed out" in response.content.decode()
    assert _snapshot(match) == before


def test_a_signed_out_move_click_is_a_worded_401_and_changes_nothing(match, client):
    """htmx's move click from a page whose session has ended: no ``HX-Redirect`` (which threw
    the page away), but a 401 whose sentence the page shows, with the link that signs in and
    comes back to the page the click came from; the match is as it was."""
    before = _snapshot(match)
    page = f"http://testserver/matches/{match.pk}/?as=me"
    response = client.post(
        f"/matches/{match.pk}/move/",
        {"move": '{"type": "draw", "source": "pack"}', "version": match.version},
        headers={"HX-Request": "true", "HX-Current-URL": page},
    )
    assert response.status_code == 401
    assert "HX-Redirect" not in response and "Location" not in response
    body = response.content.decode()
    assert "You are signed out: nothing here was changed." in body
    assert f'href="/accounts/login/?next=/matches/{match.pk}/%3Fas%3Dme"' in body
    assert response["Cache-Control"] == "no-store"
    assert _snapshot(match) == before


def test_moves_before_the_start_are_refused(ann, ann_client):
    match = factories.match_make(players=[ann], seats=2)
    response = factories.post_move(ann_client, match, {"type": "draw", "source": "pack"})
    assert response.status_code == 409
    assert "not started" in response.content.decode()
    assert not Move.objects.filter(match=match).exists()


def test_only_post_is_accepted(match, clients):
    assert clients[0].get(f"/matches/{match.pk}/move/").status_code == 405


def test_unknown_match_is_404(clients):
    assert clients[0].get("/matches/999999/").status_code == 404
    assert clients[0].get("/matches/999999/table/?version=1").status_code == 404
    response = clients[0].post("/matches/999999/move/", {"move": "{}", "version": 1})
    assert response.status_code == 404

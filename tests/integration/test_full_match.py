"""Whole matches played through the pages: every move is a button the page offered."""

from __future__ import annotations

import json
import random

import pytest

from games.engines import get_engine
from games.models import Match, Move
from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _key(move: dict) -> str:
    return json.dumps(move, sort_keys=True)


def _play_to_the_end(
    match: Match,
    clients: list,
    rng: random.Random,
    prefer: tuple[str, ...],
    on_commit=None,
):
    """Each turn: the awaited seat's page, one of its offered moves, posted with htmx.

    ``on_commit`` (pytest-django's ``django_capture_on_commit_callbacks``) runs the tasks each
    move enqueues, such as Gulliver's next deal, as a worker would after the commit.
    """
    engine = get_engine(match.game)
    page, page_seat, page_version = "", None, None
    for _ in range(3000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
        seat = match.awaiting[0]
        if (seat, match.version) != (page_seat, page_version):
            page = clients[seat].get(f"/matches/{match.pk}/", headers=HTMX).content.decode()
        offered = factories.offered_moves(page)
        legal = engine.legal_moves(engine.load(match.state), seat)
        assert sorted(map(_key, offered)) == sorted(map(_key, legal))
        keen = [m for m in offered if m["type"] in prefer]
        move = rng.choice(keen or offered)
        if on_commit is None:
            response = factories.post_move(clients[seat], match, move)
        else:
            with on_commit(execute=True):
                response = factories.post_move(clients[seat], match, move)
        assert response.status_code == 200, response.content.decode()[:500]
        page, page_seat, page_version = response.content.decode(), seat, match.version + 1
        if 'data-status="active"' in page:
            assert f'data-version="{page_version}"' in page
        if 'id="round-over"' in page:
            page_version = None  # the deal ran after the page was rendered
    raise AssertionError("the match did not end")


def _assert_final_table(match: Match, client) -> None:
    poll = client.get(f"/matches/{match.pk}/table/?version={match.version - 1}", headers=HTMX)
    assert poll.status_code == 286
    page = poll.content.decode()
    assert 'id="outcome"' in page
    assert "data-move" not in page
    assert "last hand" in page  # every hand is shown once the match is over
    response = factories.post_move(client, match, {"type": "pass"})
    assert response.status_code == 409
    assert "over" in response.content.decode()


def test_a_faraway_match_plays_to_the_end(ann, bea, cal, ann_client, bea_client, cal_client):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=2024)
    clients = [ann_client, bea_client, cal_client]
    _play_to_the_end(match, clients, random.Random(1), prefer=("play", "penalty"))
    match.refresh_from_db()
    factories.assert_replays(match)
    _assert_final_table(match, ann_client)
    outcome = get_engine("faraway").outcome(get_engine("faraway").load(match.state))
    winner = ["ann", "bea", "cal"][outcome["winners"][0]]
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert f"{winner} won." in page
    assert f"{winner} reached the Land of Birthdays and wins!" in page


def test_a_gulliver_match_with_challenges_plays_to_a_low_target(
    ann, bea, cal, ann_client, bea_client, cal_client, django_capture_on_commit_callbacks
):
    match = factories.match_make(
        game="gulliver",
        players=[ann, bea, cal],
        seed=77,
        options={"target": 60, "challenges": True},
    )
    clients = [ann_client, bea_client, cal_client]
    _play_to_the_end(
        match,
        clients,
        random.Random(3),
        prefer=("play", "prepend", "vote"),
        on_commit=django_capture_on_commit_callbacks,
    )
    match.refresh_from_db()
    rounds = Move.objects.filter(match=match, seat=None)
    assert rounds.count() >= 1, "the target should take more than one round"
    assert {m.payload["type"] for m in Move.objects.filter(match=match)} >= {"challenge", "vote"}
    factories.assert_replays(match)
    _assert_final_table(match, bea_client)
    page = bea_client.get(f"/matches/{match.pk}/").content.decode()
    assert "The match is over:" in page

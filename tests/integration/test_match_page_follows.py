"""Everything on a match page follows the match (issue 33, bugs 2 and 3; docs/live.md): a
table's partial (the poll's, a stream event's fetch) carries what the page shows outside
``#table`` out-of-band, from the same render, and only what the reader may see there."""

from __future__ import annotations

from random import Random

import pytest

from games.models import Match
from games.services import match_resign
from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def test_a_finished_tables_partial_carries_play_again_and_the_replay_link(
    ann, bea, ann_client, cal_client
):
    match = factories.match_make(players=[ann, bea], seed=7)
    url = f"/matches/{match.pk}/table/?version={match.version}"
    running = ann_client.get(f"/matches/{match.pk}/table/?version=0", headers=HTMX)
    assert 'id="beside-table" hx-swap-oob="true"' in running.content.decode()
    assert "Replay so far" in running.content.decode()
    match_resign(match_id=match.pk, user=bea)

    seated = ann_client.get(url, headers=HTMX).content.decode()
    assert 'id="beside-table" hx-swap-oob="true"' in seated
    assert 'id="rematch-offer"' in seated and "Play again" in seated
    assert 'id="match-links" hx-swap-oob="true"' in seated
    assert ">Replay</a>" in seated and "Replay so far" not in seated

    watcher = cal_client.get(url, headers=HTMX).content.decode()  # a public match's watcher
    assert 'id="beside-table" hx-swap-oob="true"' in watcher
    assert 'id="rematch"' not in watcher  # "Play again" is for its seated people only


def test_the_whole_page_renders_the_same_parts_in_place(ann, bea, ann_client):
    match = factories.match_make(players=[ann, bea], seed=7)
    match_resign(match_id=match.pk, user=bea)
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="beside-table">' in page and 'id="rematch-offer"' in page
    assert "hx-swap-oob" not in page.split('id="table"')[0]


def test_the_last_moves_answer_shows_play_again_to_the_mover(ann, bea):
    """The mover's page asks nothing after its own last move (the table stops polling and the
    stream's event names the version it already shows): the move's answer carries it."""
    whole = factories.play_random(factories.match_make(players=[ann, bea], seed=8), Random(3))
    match = factories.match_make(players=[ann, bea], seed=8)
    rng = Random(3)
    factories.play_random(match, rng, plies=whole.ply - 1)
    assert match.status == Match.Status.ACTIVE
    seat = factories.awaited_seat(match)
    move = rng.choice(factories.legal_moves(match, seat))
    mover = ann if match.seats.get(index=seat).user_id == ann.pk else bea
    answer = factories.post_move(factories.client_for(mover), match, move).content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert 'id="beside-table" hx-swap-oob="true"' in answer and 'id="rematch-offer"' in answer
    assert ">Replay</a>" in answer and "Replay so far" not in answer

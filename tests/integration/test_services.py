"""The services as the bots issue will call them: directly, with a seat in hand."""

from __future__ import annotations

import pytest

from games.engines import get_engine, replay
from games.models import Match, Move
from games.services import MoveRejected, Rejected, match_create, move_submit
from tests import factories

pytestmark = pytest.mark.django_db


def test_match_create_lets_the_engine_vet_options(ann):
    with pytest.raises(Rejected) as unknown:
        match_create(game="faraway", num_players=2, created_by=ann, options={"speed": 3})
    assert unknown.value.status == 400
    with pytest.raises(Rejected, match="drawn from the seed"):
        match_create(game="faraway", num_players=2, created_by=ann, options={"dealer": 1})
    with pytest.raises(Rejected):
        match_create(game="gulliver", num_players=9, created_by=ann)
    with pytest.raises(Rejected):
        match_create(game="chess", num_players=2, created_by=ann)
    assert not Match.objects.exists()


def test_seeds_are_drawn_fresh_and_fit_a_bigint(ann):
    seeds = {match_create(game="faraway", num_players=2, created_by=ann).seed for _ in range(5)}
    assert len(seeds) == 5
    assert all(0 <= s < 2**63 for s in seeds)


def test_move_submit_refuses_a_seat_from_another_match(ann, bea):
    one = factories.match_make(players=[ann, bea], seed=1)
    other = factories.match_make(players=[ann, bea], seed=2)
    seat = other.seats.get(index=other.awaiting[0])
    with pytest.raises(MoveRejected) as refused:
        move_submit(
            match=one,
            seat=seat,
            move={"type": "draw", "source": "pack"},
            expected_version=one.version,
        )
    assert refused.value.status == 403
    assert not Move.objects.exists()


def test_move_submit_returns_the_match_at_its_new_version(ann, bea):
    match = factories.match_make(players=[ann, bea], seed=4)
    seat = match.seats.get(index=match.awaiting[0])
    version = match.version
    returned = move_submit(
        match=match, seat=seat, move={"type": "draw", "source": "pack"}, expected_version=version
    )
    assert returned is match and match.version == version + 1
    engine = get_engine("faraway")
    state = engine.load(match.state)
    entry = Move.objects.get()
    assert (
        entry.chain_hash
        == match.head_hash
        == replay.chain_hash(
            replay.start_hash(engine, 2, match.seed, match.options),
            seat.index,
            {"type": "draw", "source": "pack"},
            engine.state_hash(state),
        )
    )
    # The same call again is stale: the version moved on.
    with pytest.raises(MoveRejected) as stale:
        move_submit(
            match=match,
            seat=seat,
            move={"type": "draw", "source": "pack"},
            expected_version=version,
        )
    assert stale.value.status == 409

"""The engine contract's vote hooks (docs/engine-contract.md, "Votes"): the services ask them
instead of spelling a game's move words. Gulliver answers from its own rules (a challenge's
ballots, docs/rulings.md), checked here against its legal moves under random play; Faraway keeps
the contract's defaults: never a vote, nothing to dispute."""

from __future__ import annotations

import random

import pytest

from games.engines import get_engine
from games.engines.base import IllegalMove
from tests.unit.engines.test_gulliver_properties import choose

GULLIVER = get_engine("gulliver")
FARAWAY = get_engine("faraway")


@pytest.mark.parametrize("seed", [3, 17, 2024])
@pytest.mark.parametrize("challenges", [True, False])
def test_gulliver_says_when_a_vote_is_open_what_silence_votes_and_what_may_be_disputed(
    seed, challenges
):
    rng = random.Random(seed)
    state = GULLIVER.new_game(3, seed, {"challenges": challenges})
    votes_seen = 0
    for _ in range(600):
        if GULLIVER.is_over(state) or GULLIVER.round_over(state):
            break
        for seat in range(state.n):
            legal = GULLIVER.legal_moves(state, seat)
            balloting = any(m["type"] == "vote" for m in legal)
            assert GULLIVER.vote_open(state, seat) == balloting
            if balloting:
                votes_seen += 1
                assert GULLIVER.silent_ballot(state, seat) == {"type": "vote", "accept": True}
                assert GULLIVER.silent_ballot(state, seat) in legal
            for move in legal:
                disputable = challenges and move["type"] in ("play", "prepend")
                assert GULLIVER.move_disputable(state, move) == disputable
        seat, move = choose(state, rng)
        state = GULLIVER.apply(state, seat, move)
    assert (votes_seen > 0) == challenges  # the walk reached a vote where challenges are on


def test_faraway_keeps_the_contracts_defaults():
    state = FARAWAY.new_game(2, 5)
    seat = FARAWAY.awaiting(state)[0]
    assert not FARAWAY.vote_open(state, seat)
    assert not any(FARAWAY.move_disputable(state, m) for m in FARAWAY.legal_moves(state, seat))
    with pytest.raises(IllegalMove):
        FARAWAY.silent_ballot(state, seat)

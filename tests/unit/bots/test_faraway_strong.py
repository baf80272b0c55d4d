"""The strong Faraway Tree bot (FarawayStrong): legal moves, blind to the cards its seat cannot
see, and scoring rollouts with the learned evaluation, whose fit is reproducible."""

from __future__ import annotations

import math
import random

import pytest

from games.bots import KNOWLEDGE, Budget, choose_move, decide
from games.bots.faraway import FarawayStrong
from games.bots.faraway_eval import FEATURES, WEIGHTS, seat_features, win_shares
from games.engines import get_engine
from games.lab.fit_faraway_eval import fit, log_loss, self_play

from .helpers import positions, twin
from .test_faraway_bots import load_position

ENG = get_engine("faraway")
SMALL = Budget(iterations=6)


def test_the_strong_level_uses_the_new_knowledge():
    assert KNOWLEDGE["faraway"] is FarawayStrong


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_strong_plays_legal_moves(num_players):
    checked = 0
    for state, seat in positions("faraway", num_players, 60 + num_players, every=7):
        view = ENG.view(state, seat)
        move = choose_move("faraway", "strong", view, seed=checked, budget=SMALL)
        assert move in view["legal_moves"], move
        ENG.apply(state, seat, move)  # raises IllegalMove if the engine disagrees
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("num_players", [2, 4])
def test_strong_choice_ignores_cards_the_seat_cannot_see(num_players):
    compared = 0
    for state, seat in positions("faraway", num_players, 70 + num_players, every=9):
        other = twin("faraway", state, seat, seed=compared)
        view = ENG.view(state, seat)
        assert ENG.view(other, seat) == {**view, "events": []}
        if ENG.dump(other)["hands"] == ENG.dump(state)["hands"]:
            continue
        compared += 1
        for bot_seed in (1, 2):
            a = decide("faraway", "strong", view, seed=bot_seed, budget=SMALL)
            b = decide("faraway", "strong", ENG.view(other, seat), seed=bot_seed, budget=SMALL)
            assert a[0] == b[0]
            if a[1] is not None:  # the search saw the same thing, so it estimated the same
                assert a[1].means == b[1].means
    assert compared >= 5


def test_weights_cover_every_table_size():
    for n in (2, 3, 4):
        assert len(WEIGHTS[n]) == len(FEATURES)
    assert FarawayStrong(2).weights == WEIGHTS[2]


def test_evaluation_is_a_share_of_the_win_and_exact_at_the_end():
    knowledge = FarawayStrong(3)
    seen_over = False
    for state, _ in positions("faraway", 3, 14, every=5):
        rewards = knowledge.rewards(ENG, state)
        assert len(rewards) == 3 and sum(rewards) == pytest.approx(1.0)
        assert all(0.0 < r < 1.0 for r in rewards)
    # a finished game scores its winner 1
    for state, seat in positions("faraway", 2, 15):
        last = state, seat
    state, seat = last
    for move in ENG.legal_moves(state, seat):
        after = ENG.apply(state, seat, move)
        if ENG.is_over(after):
            seen_over = True
            assert knowledge.rewards(ENG, after)[seat] == 1.0
    assert seen_over


def test_evaluation_favours_the_seat_further_up_the_tree():
    hands = [["2", "5", "P3", "8", "9", "9"], ["2", "5", "P6", "8", "9", "9"]]
    low = load_position(hands, [3, 3], discards=["1", "1"], turn=0)
    high = load_position(hands, [3, 5], discards=["1", "1"], turn=0)
    assert win_shares(high, WEIGHTS[2])[1] > win_shares(low, WEIGHTS[2])[1] > 0.3
    # holding the run from the next card is worth something too
    runs = [["4", "5", "6", "P2", "P3", "9"], ["7", "8", "9", "P4", "P5", "2"]]
    state = load_position(runs, [3, 3], discards=["3", "1"], turn=1)
    assert seat_features(state, 0)[FEATURES.index("run")] == 3
    assert seat_features(state, 1)[FEATURES.index("run")] == 0
    assert seat_features(state, 0)[FEATURES.index("to_move")] == 1
    assert win_shares(state, WEIGHTS[2])[0] > 0.5


def test_fit_learns_who_wins_greedy_self_play():
    rng = random.Random(5)
    train = [s for i in range(60) for s in self_play(2, 500 + i, 0.2, rng)]
    test = [s for i in range(20) for s in self_play(2, 900 + i, 0.2, rng)]
    assert train and test
    weights = fit(train, iterations=6)
    hands = [["2", "5", "P3", "8", "9", "9"], ["2", "5", "P6", "8", "9", "9"]]
    ahead = load_position(hands, [3, 5], discards=["1", "1"], turn=0)
    assert win_shares(ahead, weights)[1] > 0.5
    assert log_loss(test, weights) < math.log(2)
    assert log_loss(train, weights) < log_loss(train, None)

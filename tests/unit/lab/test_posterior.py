"""The lab's posterior sampler (``games.lab.posterior``): its chain deals whole states the view
allows, in the proportions the evidence gives them, as an exact enumeration shows."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from games.bots.gulliver_inference import RoundLog, Stuck
from games.engines import get_engine
from games.lab.posterior import PosteriorDeals, posterior_deals
from games.lab.study import main as study_main
from games.lab.tournament import main as tournament_main

from ..bots.helpers import logged

ENGINE = get_engine("gulliver")


def after_one_draw(seed: int) -> tuple[Any, list] | None:
    """The first position of a seeded greedy match where seat 0 is to choose and its rival's
    only move this round was a draw (so every hand's weight is exact, drawn from no history)."""
    for state, seat, history in logged("gulliver", 2, seed):
        view = ENGINE.view(state, seat)
        if seat == 0 and len(view["legal_moves"]) > 1 and view["stack_count"]:
            events = (RoundLog(view, history).events or {}).get(1, [])
            if len(events) == 1 and isinstance(events[0], Stuck) and events[0].drew:
                return state, history
    return None


def expected_counts(hands: list[tuple[str, ...]], weights: list[float]) -> dict[str, float]:
    total = sum(weights)
    out: Counter = Counter()
    for hand, w in zip(hands, weights, strict=True):
        for card in hand:
            out[card] += w / total
    return dict(out)


def test_the_chain_deals_in_the_posterior_s_proportions():
    """Every hand the rival might hold, weighed exactly, against the chain's deals: the expected
    number of copies of each card in the rival's hand agrees within sampling noise (eight chains
    of 300 deals missed by 0.049, 0.026 and 0.054 on these positions; 0.1 leaves room for the
    noise; sixteen chains missed by about 0.03 on other positions, so the miss is noise)."""
    checked = 0
    for seed in range(40):
        found = after_one_draw(seed)
        if found is None:
            continue
        state, history = found
        view = ENGINE.view(state, 0)
        log = RoundLog(view, history)
        rng = random.Random(seed)
        unseen = [*state.hands[1], *state.stack[state.sp :]]
        hands = list(itertools.combinations(unseen, len(state.hands[1])))
        weights = [log.weight(1, hand, rng) for hand in hands]
        exact = expected_counts(hands, weights)
        dealt = [d.hands[1] for _ in range(8) for d in posterior_deals(ENGINE, view, log, rng)]
        chain = expected_counts(dealt, [1.0] * len(dealt))
        prior = expected_counts(hands, [1.0] * len(hands))
        error = max(abs(exact.get(c, 0.0) - chain.get(c, 0.0)) for c in set(unseen))
        shift = max(abs(exact.get(c, 0.0) - prior.get(c, 0.0)) for c in set(unseen))
        assert error < 0.1, (seed, error)
        assert shift > 0.1  # the evidence moved the posterior, so the match is not vacuous
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_chain_deals_are_whole_possible_and_consistent_with_the_view():
    found = after_one_draw(0)
    assert found is not None
    state, history = found
    view = ENGINE.view(state, 0)
    log = RoundLog(view, history)
    rng = random.Random(9)
    sampler = PosteriorDeals(ENGINE, view, log, rng)
    assert sampler.fallback is None
    unseen = sorted([*state.hands[1], *state.stack[state.sp :]])
    for _ in range(20):
        dealt = sampler(rng)
        again = ENGINE.view(dealt, 0)
        for key in ("hand", "hand_counts", "sentence", "stack_count", "legal_moves", "taken"):
            assert again[key] == view[key]
        assert sorted([*dealt.hands[1], *dealt.stack[dealt.sp :]]) == unseen
        assert log.weight(1, dealt.hands[1], rng) > 0.0


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        (study_main, ["faraway", "--players", "strong,posterior"]),
        (tournament_main, ["faraway", "--seats", "posterior,greedy"]),
    ],
)
def test_the_posterior_player_is_refused_at_faraway_tables(command, argv, capsys):
    with pytest.raises(SystemExit):
        command([*argv, "--games", "2"])
    assert "posterior cannot sit at faraway tables" in capsys.readouterr().err

"""What Gulliver play reveals (``games.bots.gulliver_inference``): facts the true hands never
break, deals that lean towards them, and a strong bot that still reads only its view and the
public log."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.bots import Budget, choose_move
from games.bots import gulliver_inference as inference
from games.engines import get_engine

from .helpers import logged, twin

ENGINE = get_engine("gulliver")


def played(num_players: int, seed: int, level: str = "greedy") -> Iterator[tuple[Any, int, list]]:
    """(state, awaited seat, public log so far) along a seeded match to 80 points."""
    return logged("gulliver", num_players, seed, level=level, options={"target": 80})


@pytest.mark.parametrize(("num_players", "level"), [(2, "greedy"), (4, "greedy"), (3, "random")])
def test_the_true_hands_are_never_ruled_out(num_players, level):
    """Weighed against the round's log, the hand a rival really holds is possible: some history
    of its draws explains every draw and pass (the weight is an average over a few drawn
    histories, so a run of unlucky draws could miss one; 0 of these positions do)."""
    weighed = 0
    rng = random.Random(1)
    for seed in range(5):
        for state, seat, history in played(num_players, 300 + seed, level):
            log = inference.RoundLog(ENGINE.view(state, seat), history)
            for rival in log.events or {}:
                assert rival != seat
                assert log.weight(rival, state.hands[rival], rng) > 0.0
                weighed += 1
    assert weighed > 300  # the check above is not vacuous


def test_the_sentence_is_followed_from_the_log_alone():
    followed = 0
    for seed in range(4):
        for state, seat, history in played(2, 400 + seed):
            view = ENGINE.view(state, seat)
            start = max(
                (i + 1 for i, (_, m) in enumerate(history) if m["type"] == "next_round"), default=0
            )
            sentence = inference.Sentence()
            for who, move in history[start:]:
                if move["type"] in ("play", "prepend"):
                    sentence.lay(who, move["card"], move["type"] == "prepend")
            assert sentence.cards == tuple(view["sentence"])
            assert sentence.playable(seat) >= {
                m["card"] for m in view["legal_moves"] if m["type"] in ("play", "prepend")
            }
            followed += 1
    assert followed > 200


def test_a_draw_rules_out_what_would_have_fitted():
    """A rival that drew at a sentence needing a verb held no verb then: now, after that one
    draw and no play, two verbs are impossible, one is as likely as the draw bringing it (one
    card in four), and none is certain."""
    view = {"seat": 0, "hand_counts": [4, 4], "sentence": ["Gulliver"], "revealed": [[], []]}
    history = [(0, {"type": "play", "card": "Gulliver"}), (1, {"type": "draw"})]
    log = inference.RoundLog(view, history)
    rng = random.Random(2)
    after_noun = log.events[1][0].cards
    assert {"Loves", "Is", "Always"} <= after_noun and "And" in after_noun
    assert "Happy" in after_noun  # an adjective may still go in front of the starter's noun
    assert log.weight(1, ["Spies", "Soldiers", "Snoop", "Sneak"], rng) == 1.0
    assert log.weight(1, ["Loves", "Soldiers", "Snoop", "Sneak"], rng) == pytest.approx(1 / 4)
    assert log.weight(1, ["Loves", "Removes", "Snoop", "Sneak"], rng) == 0.0


def test_the_opponent_model_reads_greedy_choices():
    """Rivals who play like greedy make the hands greedy would have played that way likelier
    than those it would not have; the model's mixture keeps every possible hand possible."""
    rng = random.Random(4)
    truth = other = 0.0
    count = 0
    for seed in range(3):
        for state, seat, history in played(2, 800 + seed):
            view = ENGINE.view(state, seat)
            log = inference.RoundLog(view, history)
            for rival in log.events or {}:
                truth += log.weight(rival, state.hands[rival], rng)
                rough = ENGINE.sample_state(view, rng)
                other += log.weight(rival, rough.hands[rival], rng)
                count += 1
    assert count > 100
    assert truth / count > 1.4 * (other / count)


def overlap(hand, truth) -> int:
    rest = list(truth)
    count = 0
    for card in hand:
        if card in rest:
            rest.remove(card)
            count += 1
    return count


def test_inferred_deals_are_nearer_the_truth():
    """Over the same positions, the rival's hand in an inferred deal shares more cards with its
    real hand than in a plain deal (about 1.5 against 1.2 of four or five at two seats)."""
    plain = inferred = 0
    count = 0
    rng = random.Random(5)
    for seed in range(3):
        for state, seat, history in played(2, 500 + seed):
            view = ENGINE.view(state, seat)
            sampler = inference.inferred_sampler(ENGINE, view, history)
            if sampler is None:
                continue
            rival = 1 - seat
            for _ in range(3):
                inferred += overlap(sampler(rng).hands[rival], state.hands[rival])
                plain += overlap(ENGINE.sample_state(view, rng).hands[rival], state.hands[rival])
                count += 1
    assert count > 300
    assert inferred / count > plain / count + 0.15


def test_inferred_deals_are_whole_and_consistent_with_the_view():
    rng = random.Random(8)
    for state, seat, history in played(4, 610):
        view = ENGINE.view(state, seat)
        sampler = inference.inferred_sampler(ENGINE, view, history)
        if sampler is None:
            continue
        dealt = sampler(rng)
        again = ENGINE.view(dealt, seat)
        for key in ("hand", "hand_counts", "sentence", "stack_count", "legal_moves", "taken"):
            assert again[key] == view[key]
        every = sorted([c for h in dealt.hands for c in h] + list(dealt.stack[dealt.sp :]))
        unseen = sorted([c for h in state.hands for c in h] + list(state.stack[state.sp :]))
        assert every == unseen


@pytest.mark.parametrize("num_players", [2, 4])
def test_the_strong_choice_ignores_cards_the_seat_cannot_see(num_players):
    """Twin states show the seat the same view and log; the strong bot (inference included)
    must choose the same move in both, though the twin's hidden cards may break the facts."""
    checked = 0
    for state, seat, history in played(num_players, 700 + num_players):
        view = ENGINE.view(state, seat)
        if len(view["legal_moves"]) < 2 or not inference.RoundLog(view, history).informative:
            continue
        other = twin("gulliver", state, seat, seed=checked)
        assert other.hands != state.hands or other.stack != state.stack
        twin_view = ENGINE.view(other, seat)
        budget = Budget(iterations=12)
        a = choose_move("gulliver", "strong", view, seed=3, budget=budget, history=history)
        b = choose_move("gulliver", "strong", twin_view, seed=3, budget=budget, history=history)
        assert a == b
        checked += 1
        if checked == 12:
            break
    assert checked == 12

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

from .helpers import twin

ENGINE = get_engine("gulliver")


def played(num_players: int, seed: int, level: str = "greedy") -> Iterator[tuple[Any, int, list]]:
    """(state, awaited seat, public log so far) along a seeded match to 80 points."""
    state = ENGINE.new_game(num_players, seed, {"target": 80})
    history: list = []
    while not ENGINE.is_over(state):
        if ENGINE.round_over(state):
            state = ENGINE.next_round(state)
            history.append((None, {"type": "next_round"}))
            continue
        seat = ENGINE.awaiting(state)[0]
        yield state, seat, list(history)
        view = ENGINE.view(state, seat)
        move = choose_move("gulliver", level, view, seed=seed * 7919 + len(history))
        state = ENGINE.apply(state, seat, move)
        history.append((seat, move))


@pytest.mark.parametrize(("num_players", "level"), [(2, "greedy"), (4, "greedy"), (3, "random")])
def test_the_true_hands_never_break_a_witnessed_fact(num_players, level):
    facts_seen = 0
    for seed in range(6):
        for state, seat, history in played(num_players, 300 + seed, level):
            view = ENGINE.view(state, seat)
            for rival, facts in inference.witnessed(view, history).items():
                assert rival != seat
                hard = [f for f in facts if not f.soft]
                facts_seen += len(hard)
                assert inference.hand_weight(state.hands[rival], hard) > 0.0
    assert facts_seen > 100  # the check above is not vacuous


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
    """After a rival drew once, holding two cards that would have fitted then is impossible, one
    is five times less likely than none in a five-card hand (C(4, 4) against C(5, 4))."""
    fact = inference.Fact(frozenset({"And", "Is"}), new=1, soft=False)
    hand = ["Gulliver", "Spies", "Happy", "Loves", "Sneak"]
    assert inference.hand_weight(hand, [fact]) == 1.0
    assert inference.hand_weight(["And", *hand[1:]], [fact]) == pytest.approx(1 / 5)
    assert inference.hand_weight(["And", "Is", *hand[2:]], [fact]) == 0.0
    # A pass (no card drawn since) rules them out altogether.
    passed = inference.Fact(frozenset({"And"}), new=0, soft=False)
    assert inference.hand_weight(["And", *hand[1:]], [passed]) == 0.0


def test_inferred_deals_lean_towards_the_facts():
    """The weight of a rival's hand under the facts is higher in the inferred deals than in the
    plain ones, over the same positions."""
    plain = inferred = 0.0
    count = 0
    rng = random.Random(5)
    for seed in range(3):
        for state, seat, history in played(2, 500 + seed):
            view = ENGINE.view(state, seat)
            facts = inference.witnessed(view, history)
            sampler = inference.inferred_sampler(ENGINE, view, history)
            if not facts:
                assert sampler is None
                continue
            for rival, rival_facts in facts.items():
                for _ in range(4):
                    dealt = sampler(rng)
                    assert ENGINE.view(dealt, seat)["hand"] == view["hand"]
                    inferred += inference.hand_weight(dealt.hands[rival], rival_facts)
                    rough = ENGINE.sample_state(view, rng)
                    plain += inference.hand_weight(rough.hands[rival], rival_facts)
                    count += 1
    assert count > 100
    assert inferred / count > plain / count + 0.2


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
        if len(view["legal_moves"]) < 2 or not inference.witnessed(view, history):
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

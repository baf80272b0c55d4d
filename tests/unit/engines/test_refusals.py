"""``Engine.refusals`` (docs/engine-contract.md): why each card or pile a seat may click offers
no move, as ``explain``'s language-free reasons, for the awaited seat only, and from nothing its
view hides (a state sampled from the seat's view, its unseen cards dealt at random, gives the
same reasons)."""

from __future__ import annotations

import random

import pytest

from games.engines import get_engine


def _positions(game: str, seed: int, steps: int = 80, options: dict | None = None):
    engine = get_engine(game)
    state = engine.new_game(3, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if engine.is_over(state):
            return
        if engine.round_over(state):
            state = engine.next_round(state)
            continue
        yield state
        seat = engine.awaiting(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_reasons_are_explains_words_for_the_awaited_seat_and_none_for_a_legal_card(game):
    engine = get_engine(game)
    seen = 0
    for seed in range(6):
        for state in _positions(game, seed):
            awaited = engine.awaiting(state)
            for seat in range(3):
                reasons = engine.refusals(state, seat)
                if seat not in awaited:
                    assert reasons == {}
                    continue
                legal_cards = {m.get("card") for m in engine.legal_moves(state, seat)}
                hand = engine.view(state, seat)["hand"]
                for key, why in reasons.items():
                    assert why, f"an empty reason for {key}"
                    if key in hand:
                        assert key not in legal_cards
                        seen += 1
                for card in hand:
                    assert card in legal_cards or card in reasons
    assert seen > 20


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_reasons_come_from_the_seats_view_alone(game):
    engine = get_engine(game)
    for seed in range(4):
        for state in _positions(game, seed, steps=40):
            seat = engine.awaiting(state)[0]
            view = engine.view(state, seat)
            for draw in range(3):
                sampled = engine.sample_state(view, random.Random(draw))
                assert engine.refusals(sampled, seat) == engine.refusals(state, seat)


def test_a_gulliver_seat_awaited_for_a_vote_is_told_to_vote_first():
    engine = get_engine("gulliver")
    for seed in range(60):
        state = engine.new_game(3, seed, {"challenges": True})
        first = engine.awaiting(state)[0]
        plays = [m for m in engine.legal_moves(state, first) if m["type"] == "play"]
        if not plays:
            continue
        state = engine.apply(state, first, plays[0])
        challenger = (first + 1) % 3
        if {"type": "challenge"} not in engine.legal_moves(state, challenger):
            continue
        state = engine.apply(state, challenger, {"type": "challenge"})
        reasons = engine.refusals(state, challenger)
        assert reasons and all(why == [{"code": "vote_first"}] for why in reasons.values())
        return
    pytest.fail("no seed opened a challenge")

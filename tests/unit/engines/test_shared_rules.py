"""The rule functions and card lookups the engines export for the bots (issue 22) say what the
engines do: each is checked against the engine's own behaviour over seeded random play."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engines import faraway_cards as cards
from games.engines import get_engine
from games.engines import gulliver_words as W
from games.engines.faraway import opponents_left_of, penalty_victim
from games.engines.gulliver import (
    PENALTY_PER_CARD,
    POINTS_FOR_GOING_OUT,
    POINTS_PER_TRICK,
    lay_moves,
    next_holder,
    round_gain,
    round_loss,
    round_points,
)

FARAWAY = get_engine("faraway")
GULLIVER = get_engine("gulliver")


# --- The Faraway Tree -----------------------------------------------------------------------


def test_faraway_card_lookups_are_the_card_data():
    assert Counter(cards.PACK) == cards.PACK_COUNTS
    assert sum(cards.PACK_COUNTS.values()) == 44
    assert list(cards.PACK_COUNTS) == [*cards.STORY_CODES, "P2", "P3", "P4", "P5", "P6", "P7", "P8"]
    assert tuple(c.code for c in cards.STORY_CARDS) == cards.STORY_CODES
    for card in cards.STORY_CARDS:
        assert cards.STORY_NUMBER[card.code] == card.number
        assert cards.STORY_CODE[card.number] == card.code
    for card in cards.PENALTY_CARDS:
        assert cards.PENALTY_NUMBER[card.code] == card.number
        assert cards.PENALTY_CODE[card.number] == card.code
        assert cards.PENALTY_TURNS[card.code] == card.turns_missed
    assert len(cards.STORY_CODES) == cards.WINNING_NUMBER


@pytest.mark.parametrize("n", [2, 3, 4])
def test_opponents_left_of_is_play_order_from_the_next_seat(n):
    for seat in range(n):
        order = opponents_left_of(seat, n)
        assert order == tuple((seat + k) % n for k in range(1, n))
        assert seat not in order and len(set(order)) == n - 1


def test_penalty_victim_takes_the_nearest_qualifying_seat_to_the_left():
    heights = [3, 3, 5, 3]
    assert penalty_victim(3, 0, heights, [False] * 4) == 1
    assert penalty_victim(3, 1, heights, [False] * 4) == 3  # seat 1 never hits itself
    assert penalty_victim(3, 2, heights, [False] * 4) == 3
    assert penalty_victim(3, 0, heights, [False, True, False, False]) == 3  # serving: skipped
    assert penalty_victim(3, 0, heights, [False, True, False, True]) is None
    assert penalty_victim(5, 2, heights, [False] * 4) is None  # only the attacker is at 5
    # The engine's own penalty slots (None or (card, turns_left)) read the same as flags.
    assert penalty_victim(3, 0, heights, [None, ("P6", 2), None, None]) == 3


def _faraway_positions(games: int):
    """Every position of ``games`` seeded random matches at 2, 3 and 4 seats."""
    for g in range(games):
        n = 2 + g % 3
        rng = random.Random(g)
        state = FARAWAY.new_game(n, g)
        while not FARAWAY.is_over(state):
            yield state
            seat = FARAWAY.awaiting(state)[0]
            state = FARAWAY.apply(state, seat, rng.choice(FARAWAY.legal_moves(state, seat)))


def test_penalty_victim_names_the_seat_the_engine_hits():
    checked = hits = 0
    for state in _faraway_positions(45):
        seat = FARAWAY.awaiting(state)[0]
        dump = FARAWAY.dump(state)
        if dump["phase"] != "play" or dump["penalty_played"]:
            continue
        heights = list(dump["rows"])  # plain ints
        flags = [p is not None for p in dump["penalties"]]  # plain bools
        legal = FARAWAY.legal_moves(state, seat)
        for card in sorted({c for c in dump["hands"][seat] if c in cards.PENALTY_NUMBER}):
            victim = penalty_victim(cards.PENALTY_NUMBER[card], seat, heights, flags)
            move = {"type": "penalty", "card": card}
            checked += 1
            assert (move in legal) == (victim is not None)
            if victim is None:
                continue
            after = FARAWAY.apply(state, seat, move)
            landed = [e for e in FARAWAY.events(after) if e["type"] == "penalty"]
            assert [(e["victim"], e["turns"]) for e in landed] == [
                (victim, cards.PENALTY_TURNS[card])
            ]
            assert FARAWAY.view(state, seat)["penalty_victims"][card] == victim
            hits += 1
    assert checked > 200 and hits > 50, (checked, hits)


# --- Gulliver's Travels ---------------------------------------------------------------------


def test_round_points_follow_the_scoring_table():
    assert (POINTS_PER_TRICK, POINTS_FOR_GOING_OUT, PENALTY_PER_CARD) == (20, 20, 5)
    assert round_points(0, False, 0) == 0
    assert round_points(2, True, 0) == 60
    assert round_points(1, False, 3) == 5
    assert round_points(0, False, 4) == -20
    for tricks in range(4):
        for out in (False, True):
            for held in range(6):
                assert round_points(tricks, out, held) == round_gain(tricks, out) - round_loss(held)


def _gulliver_steps(games: int, challenges: bool = False):
    """(state before, seat, move, state after) of ``games`` seeded random matches, 2 to 8
    seats; ``seat`` is None for the deal of the next round."""
    for g in range(games):
        n = 2 + g % 7
        rng = random.Random(g)
        state = GULLIVER.new_game(n, g, {"target": 120, "challenges": challenges})
        while not GULLIVER.is_over(state):
            if GULLIVER.round_over(state):
                after = GULLIVER.next_round(state)
                yield state, None, None, after
                state = after
                continue
            seat = GULLIVER.awaiting(state)[0]
            move = rng.choice(GULLIVER.legal_moves(state, seat))
            after = GULLIVER.apply(state, seat, move)
            yield state, seat, move, after
            state = after


def test_round_points_are_the_score_change_the_engine_records():
    rounds = 0
    for before, seat, _move, after in _gulliver_steps(28):
        ends = [e for e in GULLIVER.events(after) if e["type"] == "round_end"]
        if seat is None or not ends:
            continue
        (end,) = ends
        old = GULLIVER.outcome(before)["scores"]
        new = GULLIVER.outcome(after)["scores"]
        for s in range(len(new)):
            went_out = end["out"] == s
            points = round_points(end["tricks"][s], went_out, end["held"][s])
            assert new[s] - old[s] == points
            assert end["gained"][s] == round_gain(end["tricks"][s], went_out)
            assert end["lost"][s] == round_loss(end["held"][s])
        # The hand sizes and tricks are those of the position the round ended in.
        assert end["held"] == [len(h) for h in GULLIVER.dump(after)["hands"]]
        rounds += 1
    assert rounds > 30, rounds


def test_next_holder_is_who_the_engine_hands_the_turn_to():
    checked = 0
    for _before, seat, move, after in _gulliver_steps(28):
        if seat is None or GULLIVER.round_over(after) or GULLIVER.is_over(after):
            continue
        if any(e["type"] == "trick" for e in GULLIVER.events(after)):
            continue  # after a trick the seat to the taker's left starts (docs/rulings.md)
        counts = GULLIVER.view(after, None)["hand_counts"]  # plain ints
        assert GULLIVER.awaiting(after) == [next_holder(counts, seat)], move
        hands = tuple(tuple(h) for h in GULLIVER.dump(after)["hands"])
        assert next_holder(hands, seat) == next_holder(counts, seat)
        checked += 1
    assert checked > 500, checked
    assert next_holder([0, 0, 3], 2) == 2  # only the mover holds cards: it moves again
    assert next_holder([0, 0, 0], 1) is None


def test_the_sentence_steps_are_the_engines():
    """``lay_moves`` + ``end_table`` + ``may_prepend`` give the engine's plays and prepends;
    ``lay`` and ``is_trick`` step the sentence as ``apply`` does."""
    checked = tricks = 0
    for before, seat, move, after in _gulliver_steps(21):
        if seat is None:
            continue
        s = before
        table = W.end_table(s.dfa, not s.sentence)
        allowed = lay_moves(s.hands[seat], table, W.may_prepend(s.pdfa, seat, s.starter))
        expected = [m for m in GULLIVER.legal_moves(s, seat) if m["type"] in ("play", "prepend")]
        assert allowed == expected
        if move["type"] not in ("play", "prepend"):
            continue
        front = move["type"] == "prepend"
        dfa, pdfa = W.lay(s.dfa, s.pdfa, not s.sentence, move["card"], front)
        taken = any(e["type"] == "trick" for e in GULLIVER.events(after))
        assert W.is_trick(len(s.sentence) + 1, dfa) == taken
        if taken:
            tricks += 1
        else:
            assert (dfa, pdfa) == (after.dfa, after.pdfa)
        checked += 1
    assert checked > 500 and tricks > 20, (checked, tricks)
    assert W.NEXT_BY_CARD[W.START]["Happy"] == W.ADJECTIVE_START

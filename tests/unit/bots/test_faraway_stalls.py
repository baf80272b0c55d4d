"""Stalled Faraway Tree positions (games/bots/faraway_stalls.py): the public log tells a stall,
and in one the strong bot that expects to win breaks it while the seat behind chooses as
before."""

from __future__ import annotations

import pytest

from games.bots import Budget, decide
from games.bots.faraway_stalls import STALL_ROUNDS, ceilings, recycling_streak, stalled
from games.engines import get_engine

ENG = get_engine("faraway")

RECYCLE = [
    {"type": "draw", "source": "discard", "positions": [0]},
    {"type": "discard", "card": "4"},
]


def recycling(turns: int, num_players: int = 2, first: int = 0) -> list:
    """The log of ``turns`` recycling turns, the seats taking turns from ``first``."""
    history = []
    for t in range(turns):
        seat = (first + t) % num_players
        history += [(seat, dict(move)) for move in RECYCLE]
    return history


# Seeded strong-against-baseline play reached this position (deal 7000011, turn 250) and stood
# there: seat 0 holds the 9 that seat 1 needs and can never lay a card without throwing it; seat
# 1 took a discard and threw it back, turn after turn, because its search rated every draw a win.
STALLED = {
    "game": "faraway",
    "rules_version": 1,
    "num_players": 2,
    "seed": 7000011,
    "dealer": 0,
    "hands": [["9"], ["P8"]],
    "rows": [6, 8],
    "pack": ["4", "9"],  # top first
    # top first: seat 1 may draw the 4, the P5 or the 3
    "discards": [
        *("4", "P5", "3", "9", "P3", "9", "6", "6", "5", "5", "3", "8", "7"),
        *("2", "8", "P6", "P8", "2", "1", "P4", "P2", "7", "7", "8", "1", "P7"),
    ],
    "penalties": [None, None],
    "aside": [],
    "turn": 1,
    "phase": "draw",
    "story_played": False,
    "penalty_played": False,
    "turns_played": 250,
    "reshuffles": 0,
    "winner": None,
    "known_cards": [["9"], ["P8"]],
}


def stalled_view(seat: int) -> dict:
    return ENG.view(ENG.load({**STALLED, "turn": seat}), seat)


def test_a_streak_counts_the_latest_turns_of_drawing_a_discard_and_throwing_one():
    assert recycling_streak([]) == 0
    assert recycling_streak(recycling(5)) == 5
    pack_turn = [(1, {"type": "draw", "source": "pack"}), (1, {"type": "discard", "card": "2"})]
    assert recycling_streak(recycling(3) + pack_turn) == 0
    assert recycling_streak(pack_turn + recycling(3)) == 3
    # a story card or a Penalty laid in the turn is progress, not recycling
    for laid in ({"type": "play", "card": "5"}, {"type": "penalty", "card": "P4"}):
        turn = [(0, RECYCLE[0]), (0, laid), (0, RECYCLE[1])]
        assert recycling_streak(recycling(4) + turn) == 0
        assert recycling_streak(turn + recycling(4)) == 4
    # a turn that ends with the hand laid out has no discard
    emptied = [(0, RECYCLE[0]), (0, {"type": "play", "card": "5"})]
    assert recycling_streak(recycling(4) + emptied) == 0
    # in the middle of a turn (a discard to choose), the open turn is not counted
    assert recycling_streak([*recycling(4), (0, RECYCLE[0])]) == 0


@pytest.mark.parametrize("num_players", [2, 4])
def test_a_position_is_stalled_after_every_seat_recycled_for_two_rounds(num_players):
    rounds = STALL_ROUNDS * num_players
    assert not stalled(recycling(rounds - 1, num_players), num_players)
    assert stalled(recycling(rounds, num_players), num_players)


def test_only_a_stalled_draw_is_capped_and_only_the_draws_that_keep_the_stall():
    view = stalled_view(1)
    moves = view["legal_moves"]
    assert ceilings(view, moves, recycling(3)) is None
    limits = ceilings(view, moves, recycling(4))
    assert [lim for move, lim in zip(moves, limits, strict=True)] == [
        1.0 if move["source"] == "pack" else 0.5 for move in moves
    ]
    # a discard that brings the next story card is laid at once: that moves on. Here the 7
    # that seat 0 needs is the top discard.
    pile = list(STALLED["discards"])
    pile[0], pile[12] = pile[12], pile[0]  # the 7 on top, the 4 further down
    assert pile[:3] == ["7", "P5", "3"]
    view = ENG.view(ENG.load({**STALLED, "turn": 0, "discards": pile}), 0)
    limits = ceilings(view, view["legal_moves"], recycling(4))
    by_position = {
        tuple(m.get("positions", ())): lim
        for m, lim in zip(view["legal_moves"], limits, strict=True)
    }
    assert by_position[(0,)] == 1.0 and by_position[(1,)] == 0.5 and by_position[()] == 1.0
    # a discard to choose is never capped
    after = ENG.apply(ENG.load(STALLED), 1, moves[1])
    discard_view = ENG.view(after, 1)
    assert ceilings(discard_view, discard_view["legal_moves"], recycling(4)) is None


def test_the_seat_ahead_breaks_a_stall():
    view = stalled_view(1)
    budget = Budget(iterations=40)
    _, free_report = decide("faraway", "strong", view, seed=3, budget=budget, history=[])
    move, report = decide("faraway", "strong", view, seed=3, budget=budget, history=recycling(8))
    recycles = [key for key in report.means if ("source", "discard") in key]
    assert recycles
    # unstalled, every draw looks like a win to the search: it cannot see the stall
    assert all(free_report.means[key] > 0.9 for key in recycles)
    assert all(report.means[key] <= 0.5 for key in recycles)
    assert move == {"type": "draw", "source": "pack"}


def test_the_seat_behind_chooses_as_before():
    view = stalled_view(0)
    budget = Budget(iterations=40)
    free = decide("faraway", "strong", view, seed=4, budget=budget, history=[])
    held = decide("faraway", "strong", view, seed=4, budget=budget, history=recycling(8, first=1))
    assert free[0] == held[0]
    assert free[1].means == held[1].means
    assert max(held[1].means.values()) < 0.5

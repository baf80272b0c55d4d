"""Faraway Tree bots: legal moves at every level, blind to hidden cards, greedy's headline
habits in stacked positions, and the search's shortcut view held equal to the engine's."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.bots import LEVELS, Budget, choose_move, decide
from games.bots.faraway import FarawaySearch, Obs, add_gain, hand_value, obs_of_state
from games.engines import get_engine
from games.engines.faraway_cards import PACK

from .helpers import positions, twin

ENG = get_engine("faraway")
TINY = Budget(iterations=3)


def load_position(
    hands: list[list[str]],
    rows: list[int],
    *,
    discards: list[str],
    turn: int,
    phase: str = "draw",
    penalties: list | None = None,
    story_played: bool = False,
) -> object:
    """A mid-game state through the engine's own ``load``; unplaced cards make up the pack."""
    n = len(hands)
    placed = Counter(c for h in hands for c in h)
    placed.update(discards)
    placed.update(str(i) for h in rows for i in range(1, h + 1))
    placed.update(p["card"] for p in penalties or [] if p)
    pack = sorted((Counter(PACK) - placed).elements())
    assert sum((placed - Counter(PACK)).values()) == 0
    return ENG.load(
        {
            "game": "faraway",
            "rules_version": ENG.rules_version,
            "num_players": n,
            "seed": 3,
            "dealer": 0,
            "hands": hands,
            "rows": rows,
            "pack": pack,
            "discards": discards,
            "penalties": penalties or [None] * n,
            "aside": [],
            "turn": turn,
            "phase": phase,
            "story_played": story_played,
            "penalty_played": False,
            "turns_played": 20,
            "reshuffles": 0,
            "winner": None,
        }
    )


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_level_plays_a_legal_move(num_players):
    checked = 0
    for game_seed in range(3):
        for state, seat in positions("faraway", num_players, 40 + game_seed, every=9):
            view = ENG.view(state, seat)
            for level in LEVELS:
                move = choose_move("faraway", level, view, seed=checked, budget=TINY)
                assert move in view["legal_moves"], (level, move)
                ENG.apply(state, seat, move)  # raises IllegalMove if the engine disagrees
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("num_players", [2, 4])
def test_choice_ignores_cards_the_seat_cannot_see(num_players):
    compared = 0
    for state, seat in positions("faraway", num_players, 90 + num_players, every=11):
        other = twin("faraway", state, seat, seed=compared)
        view = ENG.view(state, seat)
        # the twin comes from load, made by no step: the same view but for this step's events
        assert ENG.view(other, seat) == {**view, "events": []}
        if ENG.dump(other)["hands"] == ENG.dump(state)["hands"]:
            continue  # nothing hidden differed here (e.g. an opponent's empty hand)
        compared += 1
        for level in LEVELS:
            for bot_seed in (1, 2):
                a = choose_move("faraway", level, view, seed=bot_seed, budget=TINY)
                b = choose_move("faraway", level, ENG.view(other, seat), seed=bot_seed, budget=TINY)
                assert a == b, (level, a, b)
    assert compared >= 5


def test_greedy_takes_the_discard_it_needs():
    # Seat 0 has laid 1-3 and needs the 4, lying second from the top of the discards.
    state = load_position(
        [["6", "7", "9", "P5", "2", "8"], ["5", "5", "6", "1", "9", "9"]],
        [3, 2],
        discards=["8", "4", "3"],
        turn=0,
    )
    view = ENG.view(state, 0)
    for seed in range(5):
        move = choose_move("faraway", "greedy", view, seed=seed)
        assert move == {"type": "draw", "source": "discard", "positions": [1]}


def test_greedy_lays_its_card_and_hits_the_leader():
    # After the draw seat 0 holds its next card (3), a P4 that fits seat 1 (at 4) and a P6 that
    # fits seat 2 (at 6), the leader: it lays the 3, then the P6.
    state = load_position(
        [
            ["3", "P4", "P6", "9", "9", "8", "7"],
            ["5", "6", "9", "8", "7", "7"],
            ["8", "7", "9", "5", "4"],
        ],
        [2, 4, 6],
        discards=["8", "4"],
        turn=0,
        phase="play",
    )
    view = ENG.view(state, 0)
    assert choose_move("faraway", "greedy", view, seed=0) == {"type": "play", "card": "3"}
    after_play = ENG.apply(state, 0, {"type": "play", "card": "3"})
    move = choose_move("faraway", "greedy", ENG.view(after_play, 0), seed=0)
    assert move == {"type": "penalty", "card": "P6"}


def test_greedy_throws_a_dead_card_but_not_the_one_the_next_seat_needs():
    # Seat 0 is at 5, so its 2 and 4 are dead; seat 1 needs a 4 next, so the 2 goes.
    state = load_position(
        [["2", "4", "7", "8", "9", "6"], ["5", "6", "1", "1", "9", "9"]],
        [5, 3],
        discards=["8", "3"],
        turn=0,
        phase="play",
        story_played=True,
    )
    view = ENG.view(state, 0)
    for seed in range(5):
        assert choose_move("faraway", "greedy", view, seed=seed) == {"type": "discard", "card": "2"}


def test_search_shortcut_matches_the_engine_view():
    """The strong bot reads its own sampled states directly in rollouts; that reading must be
    exactly what the view would say."""
    checked = 0
    for state, _seat in positions("faraway", 3, 5, every=3):
        for s in range(3):
            fast = obs_of_state(state, s)
            slow = Obs.of_view(ENG.view(state, s))
            assert (fast.seat, fast.hand, fast.heights, fast.discards, fast.pens, fast.aside) == (
                slow.seat,
                slow.hand,
                slow.heights,
                slow.discards,
                slow.pens,
                slow.aside,
            )
            checked += 1
    assert checked > 50


def test_pack_draw_gain_shortcut_matches_the_hand_value():
    rng = random.Random(1)
    cards = sorted(PACK)
    for _ in range(2000):
        n = rng.choice([2, 3, 4])
        seat = rng.randrange(n)
        heights = [rng.randrange(0, 9) for _ in range(n)]
        hand = rng.sample(cards, rng.randrange(0, 8))
        obs = Obs(seat, hand, heights, [], [None] * n, [])
        counts = Counter(hand)
        run_top = heights[seat] + 1
        while run_top <= 9 and str(run_top) in counts:
            run_top += 1
        card = rng.choice(cards)
        expected = hand_value(obs, [*hand, card]) - hand_value(obs, hand)
        assert add_gain(obs, dict(counts), run_top, card) == pytest.approx(expected)


def test_strong_is_reproducible_and_reports_its_search():
    state = next(
        s for s, seat in positions("faraway", 2, 8, every=5) if len(ENG.legal_moves(s, seat)) > 2
    )
    seat = ENG.awaiting(state)[0]
    view = ENG.view(state, seat)
    first = decide("faraway", "strong", view, seed=4, budget=Budget(iterations=10))
    again = decide("faraway", "strong", view, seed=4, budget=Budget(iterations=10))
    assert first[0] == again[0]
    report = first[1]
    assert report is not None and report.deals == 10 and report.rollouts >= 20
    assert set(report.means) == {
        tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in m.items()))
        for m in view["legal_moves"]
    }


def test_search_evaluation_is_a_share_of_the_win():
    knowledge = FarawaySearch(3)
    for state, _ in positions("faraway", 3, 12, every=13):
        rewards = knowledge.rewards(ENG, state)
        assert len(rewards) == 3 and sum(rewards) == pytest.approx(1.0)
        assert all(0.0 <= r <= 1.0 for r in rewards)

"""Gulliver's Travels bots: legal moves at every level, blind to hidden cards, greedy's
headline habits in stacked positions, votes and challenges by the house rule."""

from __future__ import annotations

from collections import Counter

import pytest

from games.bots import LEVELS, Budget, choose_move
from games.bots.gulliver import GulliverSearch, Obs, obs_of_state
from games.engines import get_engine
from games.engines.gulliver_words import pack_for

from .helpers import positions, twin

ENG = get_engine("gulliver")
TINY = Budget(iterations=3)


def load_position(
    hands: list[list[str]], sentence: list[str], *, turn: int, starter: int, **fields
) -> object:
    """A mid-round state through the engine's own ``load``; unplaced cards form the stack."""
    n = len(hands)
    placed = Counter(c for h in hands for c in h) + Counter(sentence)
    stack = sorted((Counter(pack_for(n)) - placed).elements())
    assert sum((placed - Counter(pack_for(n))).values()) == 0
    data = {
        "game": "gulliver",
        "rules_version": ENG.rules_version,
        "num_players": n,
        "seed": 5,
        "target": 250,
        "challenges": False,
        "round": 1,
        "dealer": 0,
        "hands": hands,
        "stack": stack,
        "sentence": sentence,
        "prepended": False,
        "starter": starter,
        "turn": turn,
        "passes": 0,
        "out": None,
        "tricks": [0] * n,
        "taken": [],
        "plus": [0] * n,
        "minus": [0] * n,
        "round_over": False,
        "over": False,
        "winners": [],
        "draw": False,
        "challenge": None,
        "last": None,
        "revealed": [[] for _ in range(n)],
    }
    data.update(fields)
    return ENG.load(data)


@pytest.mark.parametrize(
    ("num_players", "challenges"), [(2, False), (4, True), (5, False), (8, False)]
)
def test_every_level_plays_a_legal_move_and_never_challenges(num_players, challenges):
    checked = 0
    options = {"target": 60, "challenges": challenges}
    for game_seed in range(2):
        for state, seat in positions(
            "gulliver", num_players, 10 + game_seed, every=5, options=options
        ):
            view = ENG.view(state, seat)
            for level in LEVELS:
                move = choose_move("gulliver", level, view, seed=checked, budget=TINY)
                assert move in view["legal_moves"], (level, move)
                assert move["type"] != "challenge"
                ENG.apply(state, seat, move)
            checked += 1
    assert checked > 15


@pytest.mark.parametrize("num_players", [2, 4])
def test_choice_ignores_cards_the_seat_cannot_see(num_players):
    compared = 0
    for state, seat in positions("gulliver", num_players, 70 + num_players, every=4):
        other = twin("gulliver", state, seat, seed=compared)
        view = ENG.view(state, seat)
        # the twin comes from load, made by no step: the same view but for this step's events
        assert ENG.view(other, seat) == {**view, "events": []}
        if ENG.dump(other)["hands"] == ENG.dump(state)["hands"]:
            continue
        compared += 1
        for level in LEVELS:
            for bot_seed in (1, 2):
                a = choose_move("gulliver", level, view, seed=bot_seed, budget=TINY)
                b = choose_move(
                    "gulliver", level, ENG.view(other, seat), seed=bot_seed, budget=TINY
                )
                assert a == b, (level, a, b)
        if compared >= 15:
            break
    assert compared >= 5


def test_greedy_completes_a_seven_card_sentence():
    # "Gulliver And Gabby Are Frightened With" + "Spies" is complete at 7 cards: a trick.
    # "Happy" (played or put in front) would keep it going instead.
    state = load_position(
        [["Happy", "Spies", "Forever", "And"], ["Sneak", "Snoop", "Is", "Loves"]],
        ["Gulliver", "And", "Gabby", "Are", "Frightened", "With"],
        turn=0,
        starter=1,
    )
    view = ENG.view(state, 0)
    assert {"type": "prepend", "card": "Happy"} in view["legal_moves"]
    assert {"type": "play", "card": "Happy"} in view["legal_moves"]
    for seed in range(5):
        assert choose_move("gulliver", "greedy", view, seed=seed) == {
            "type": "play",
            "card": "Spies",
        }


def test_greedy_does_not_leave_the_next_player_a_trick():
    # After "Gulliver And Gabby Are Frightened" (complete, 5 cards), "With" would let almost
    # any noun take a 7-card trick; "And" leaves nothing to finish at 7.
    state = load_position(
        [["With", "And", "Sneak", "Is"], ["Snoop", "Loves", "Happy", "Captures"]],
        ["Gulliver", "And", "Gabby", "Are", "Frightened"],
        turn=0,
        starter=1,
    )
    view = ENG.view(state, 0)
    assert {"type": "play", "card": "With"} in view["legal_moves"]
    for seed in range(5):
        assert choose_move("gulliver", "greedy", view, seed=seed) == {"type": "play", "card": "And"}


def test_every_level_votes_to_accept_a_challenged_card():
    state = ENG.new_game(3, 4, {"challenges": True})
    starter = ENG.awaiting(state)[0]
    lead = next(m for m in ENG.legal_moves(state, starter) if m["type"] == "play")
    state = ENG.apply(state, starter, lead)
    challenger = ENG.awaiting(state)[0]
    assert {"type": "challenge"} in ENG.legal_moves(state, challenger)
    # The bots themselves never challenge; a person does.
    for level in LEVELS:
        move = choose_move("gulliver", level, ENG.view(state, challenger), seed=1, budget=TINY)
        assert move["type"] != "challenge"
    state = ENG.apply(state, challenger, {"type": "challenge"})
    voters = ENG.awaiting(state)
    assert sorted(voters) == [0, 1, 2]
    for seat in voters:
        for level in LEVELS:
            move = choose_move("gulliver", level, ENG.view(state, seat), seed=seat, budget=TINY)
            assert move == {"type": "vote", "accept": True}


def test_search_shortcut_matches_the_engine_view():
    checked = 0
    for state, _seat in positions("gulliver", 4, 3, every=3, options={"target": 60}):
        for s in range(4):
            fast, slow = obs_of_state(state, s), Obs.of_view(ENG.view(state, s))
            assert [getattr(fast, a) for a in Obs.__slots__] == [
                getattr(slow, a) for a in Obs.__slots__
            ]
            checked += 1
    assert checked > 50


def test_search_evaluation_is_a_share_of_the_round():
    knowledge = GulliverSearch(4)
    for state, _ in positions("gulliver", 4, 12, every=7, options={"target": 60}):
        rewards = knowledge.rewards(ENG, state)
        assert len(rewards) == 4 and all(0.0 <= r <= 1.0 for r in rewards)

"""Every event the engines emit reads as a sentence with player names."""

from __future__ import annotations

import random

import pytest

from games import tables
from games.engines import get_engine

NAMES = ["Ann", "Bea", "Cal", "Dan"]


def _events_of_random_play(game: str, seed: int, options: dict) -> list[dict]:
    engine = get_engine(game)
    state = engine.new_game(4, seed, options)
    rng = random.Random(seed)
    while not engine.is_over(state):
        if getattr(engine, "round_over", None) and engine.round_over(state):
            state = engine.next_round(state)
            continue
        seat = rng.choice(engine.awaiting(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
    return engine.events(state)


@pytest.mark.parametrize(
    ("game", "options", "line_of"),
    [
        ("faraway", {}, tables.faraway_event_line),
        ("gulliver", {"target": 60, "challenges": True}, tables.gulliver_event_line),
    ],
)
def test_no_event_type_falls_back_to_the_generic_line(game, options, line_of):
    seen: set[str] = set()
    for seed in range(3):
        for event in _events_of_random_play(game, seed, options):
            line = line_of(event, NAMES)
            assert line != tables._generic_event_line(event, NAMES), event
            assert "None" not in line, (event, line)
            seen.add(event["type"])
    assert len(seen) >= 8


def test_faraway_lines_read_as_the_issue_asks():
    line = tables.faraway_event_line
    assert (
        line(
            {"type": "draw", "seat": 1, "source": "discard", "positions": [0], "cards": ["5"]},
            NAMES,
        )
        == "Bea drew 5 Mr Watzisname from the discards."
    )
    assert (
        line({"type": "draw", "seat": 2, "source": "pack", "count": 1, "cards": None}, NAMES)
        == "Cal drew from the pack."
    )
    assert (
        line(
            {"type": "penalty", "seat": 2, "card": "P3", "victim": 0, "on": "3", "turns": 1}, NAMES
        )
        == "Cal played P3 on Ann's Angry Pixie: Ann misses 1 turn."
    )
    assert line({"type": "reshuffle", "seat": None, "count": 19, "up": "4"}, NAMES) == (
        "Reshuffled: 19 cards; 4 Dame Washalot turned up."
    )
    # Another seat's private deal says nothing; one's own lists the cards.
    assert line({"type": "hand", "seat": 1, "cards": None}, NAMES) == ""
    assert line({"type": "hand", "seat": 1, "cards": ["1"]}, NAMES) == (
        "Bea was dealt 1 The Enchanted Wood."
    )

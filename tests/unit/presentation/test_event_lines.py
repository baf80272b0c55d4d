"""Every event the engines emit reads as a sentence with player names."""

from __future__ import annotations

import pytest

from games.presentation import faraway, gulliver
from games.presentation.common import generic_event_line
from tests.unit.presentation.helpers import NAMES, random_play


@pytest.mark.parametrize(
    ("game", "options", "line_of"),
    [
        ("faraway", {}, faraway.event_line),
        ("gulliver", {"target": 60, "challenges": True}, gulliver.event_line),
    ],
)
def test_no_event_type_falls_back_to_the_generic_line(game, options, line_of):
    seen: set[str] = set()
    for seed in range(3):
        # Unredacted, so the private fields are worded too.
        _, log = random_play(game, len(NAMES), seed, options, viewer=None, redact=False)
        for entry in log:
            for event in entry.events:
                line = line_of(event, NAMES)
                assert line != generic_event_line(event, NAMES), event
                assert "None" not in line, (event, line)
                seen.add(event["type"])
    assert len(seen) >= 8


@pytest.mark.parametrize(
    ("game", "options"), [("faraway", {}), ("gulliver", {"target": 60, "challenges": True})]
)
def test_redacted_events_read_without_gaps(game, options):
    """What a seat or a spectator receives still words cleanly: hidden cards are never "None"."""
    for viewer in (None, 0):
        _, log = random_play(game, 3, 1, options, viewer=viewer)
        line_of = faraway.event_line if game == "faraway" else gulliver.event_line
        for entry in log:
            for event in entry.events:
                assert "None" not in line_of(event, NAMES[:3]), event


def test_faraway_lines_read_as_the_issue_asks():
    line = faraway.event_line
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


def test_gulliver_lines_name_the_players_and_quote_the_words():
    line = gulliver.event_line
    assert line({"type": "challenge", "seat": 1, "target": 0, "card": "runs"}, NAMES) == (
        "Bea challenged Ann\u2019s \u2018runs\u2019."
    )
    assert line({"type": "draw", "seat": 3, "card": None}, NAMES) == "Dan drew from the stack."
    assert line({"type": "end", "winners": [0, 2], "draw": True}, NAMES) == (
        "The match is over: a shared win for Ann and Cal."
    )


def test_an_unknown_event_still_names_its_seat():
    event = {"type": "juggle", "seat": 1, "balls": 3}
    assert faraway.event_line(event, NAMES) == "Bea: juggle (balls 3)"
    assert gulliver.event_line(event, NAMES) == "Bea: juggle (balls 3)"

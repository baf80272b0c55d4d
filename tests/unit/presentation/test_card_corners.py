"""A card corner's number is underlined when it reads as another number upside down (a 6 and a
9), as on printed cards; the Faraway faces carry that class on both corners."""

from __future__ import annotations

import pytest

from games.engines import faraway_cards
from games.presentation.faraway import corner_css, face


@pytest.mark.parametrize(
    ("number", "underlined"),
    [
        (6, True),
        (9, True),
        (5, False),
        (8, False),
        (1, False),
        (16, True),
        (69, False),
        (10, False),
    ],
)
def test_only_numbers_that_read_otherwise_upside_down_are_underlined(number, underlined):
    assert (corner_css(number) == "corner underlined") is underlined


def test_every_faraway_face_of_a_6_or_a_9_has_underlined_corners():
    cards = [*faraway_cards.STORY_CARDS, *faraway_cards.PENALTY_CARDS]
    for card in cards:
        expected = "corner underlined" if card.number in (6, 9) else "corner"
        assert face(card.code)["corner_css"] == expected, card.code

"""Stars (docs/lessons.md, "Stars and progress"): three at the target, two a few tries over
it, one further over; and an engine's refusal said to a learner, seats named."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.lessons import lesson_stars, lessons_for
from games.presentation.lessons import learner_reason, stars_text

DRAW = lessons_for("faraway")[0]  # target 5


@pytest.mark.parametrize(("tries", "stars"), [(5, 3), (6, 2), (7, 2), (8, 1), (30, 1)])
def test_stars_count_from_the_target(tries, stars):
    assert lesson_stars(DRAW, tries) == stars


def test_near_the_target_is_half_of_it_for_a_long_lesson():
    long = replace(DRAW, target=10)
    assert [lesson_stars(long, t) for t in (10, 15, 16)] == [3, 2, 1]


def test_the_engines_seat_numbers_become_names():
    names = ["You", "Jo", "Bessie"]
    said = learner_reason({"code": "vote_in_progress", "seats": [0, 1]}, names)
    assert said == "A challenge is being voted on; waiting for you and Jo to vote."
    assert learner_reason({"code": "not_your_turn", "seat": 2}, names) == (
        "It is not your turn: Bessie is to move."
    )
    assert stars_text(2) == "\u2605\u2605\u2606"

"""Lessons for each game, keyed by game name like the engines' registry (docs/lessons.md).

``lessons_for(game)`` gives a game's lessons in teaching order; ``CLAUSES`` each game's
rule-sheet clause ids with the ones left to the rules page. A third game adds its module and a
row to ``_GAMES``.
"""

from __future__ import annotations

from . import faraway, gulliver
from .base import (
    Lesson,
    Outcome,
    Run,
    Step,
    lesson_replay,
    lesson_stars,
    lesson_start,
    lesson_try,
    lesson_view,
)

__all__ = [
    "Lesson",
    "Outcome",
    "Run",
    "Step",
    "games",
    "lesson_find",
    "lesson_replay",
    "lesson_stars",
    "lesson_start",
    "lesson_try",
    "lesson_view",
    "lessons_for",
]

_GAMES = {"faraway": faraway.LESSONS, "gulliver": gulliver.LESSONS}


def games() -> list[str]:
    """The games that have lessons."""
    return list(_GAMES)


def lessons_for(game: str) -> tuple[Lesson, ...]:
    """``game``'s lessons in teaching order; ``KeyError`` for a game without lessons."""
    return _GAMES[game]


def lesson_find(game: str, slug: str) -> Lesson | None:
    """``game``'s lesson ``slug``, or ``None`` for no such game or lesson."""
    return next((lesson for lesson in _GAMES.get(game, ()) if lesson.slug == slug), None)

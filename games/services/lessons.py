"""The lessons' writes (docs/lessons.md): a person's stars, best kept and never lowered, the
progress a visitor's browser carries into their account, and the step counters the staff's
figures read. None of it touches a match: a lesson never reaches the move path of real matches.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Literal

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games.lessons import games as lesson_games
from games.lessons import lessons_for
from games.models import LessonProgress, LessonStepCount

Counter = Literal["started", "finished"]

# What a browser may carry into an account: one "game/lesson" key a lesson, 1 to 3 stars each.
CARRIED_MAX_CHARS = 4000


def lesson_step_count(*, game: str, lesson: str, step: int, counter: Counter) -> None:
    """Add one to a lesson step's ``started`` or ``finished`` count: an ``F()`` update, so two
    runs at once both count; the row made on the first count (a race for it retries the
    update)."""
    rows = LessonStepCount.objects.filter(game=game, lesson=lesson, step=step)
    _upsert(
        lambda: rows.update(**{counter: F(counter) + 1}),
        lambda: LessonStepCount.objects.create(game=game, lesson=lesson, step=step, **{counter: 1}),
    )


def lesson_progress_keep(*, user_id: int, game: str, lesson: str, stars: int) -> None:
    """``user_id`` finished ``game``'s ``lesson`` with ``stars``: kept if it beats their best
    (or is their first), never lowering it."""
    now = timezone.now()
    better = LessonProgress.objects.filter(
        user_id=user_id, game=game, lesson=lesson, stars__lt=stars
    )

    # No update when the row is missing, or when it already holds as many stars or more: the
    # create then fails on the row's uniqueness in the second case, or when another finish made
    # the row meanwhile, and the update is tried again against that row (a check for the row
    # before creating would let a better finish made at the same moment be lost).
    _upsert(
        lambda: better.update(stars=stars, finished_at=now),
        lambda: LessonProgress.objects.create(
            user_id=user_id, game=game, lesson=lesson, stars=stars, finished_at=now
        ),
    )


def lesson_progress_carry(*, user_id: int, carried: str) -> int:
    """Keep the stars a signed-out browser earned (``carried``: the JSON its lessons script
    sends, ``{"game/lesson": stars}``) in ``user_id``'s account, best kept. Anything that is
    not a known lesson with 1 to 3 stars is left out, garbage as a whole ignored. How many
    lessons were read."""
    kept = 0
    for (game, lesson), stars in carried_stars(carried).items():
        lesson_progress_keep(user_id=user_id, game=game, lesson=lesson, stars=stars)
        kept += 1
    return kept


def carried_stars(carried: str) -> dict[tuple[str, str], int]:
    """The known lessons and their stars in a browser's carried progress; ``{}`` for garbage."""
    if not carried or len(carried) > CARRIED_MAX_CHARS:
        return {}
    try:
        data = json.loads(carried)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    known = _known_lessons()
    out: dict[tuple[str, str], int] = {}
    for key, stars in data.items():
        game, _, lesson = str(key).partition("/")
        if (game, lesson) in known and type(stars) is int and 1 <= stars <= 3:
            out[game, lesson] = stars
    return out


def _known_lessons() -> set[tuple[str, str]]:
    return {(game, lesson.slug) for game in lesson_games() for lesson in lessons_for(game)}


def _upsert(update: Callable[[], int], create: Callable[[], object]) -> None:
    """``update``; when it changed no row, ``create`` in a savepoint; when another request made
    the row meanwhile (``IntegrityError``), ``update`` again."""
    if update():
        return
    try:
        with transaction.atomic():
            create()
    except IntegrityError:
        update()

"""The lessons' reads (docs/lessons.md): a person's stars, and the staff's figures (each lesson
step's starts and finishes, the share of new accounts that finished a first match), as data:
``games.presentation.lessons`` words them. The figures are counts only: no person is named."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import LessonProgress, LessonStepCount, Match, Seat

# How many weeks of new accounts the figures follow, the newest last.
COHORT_WEEKS = 8


def lesson_stars_of(*, user_id: int | None) -> dict[tuple[str, str], int]:
    """``user_id``'s best stars by ``(game, lesson)``; ``{}`` signed out (their browser keeps
    theirs)."""
    if user_id is None:
        return {}
    rows = LessonProgress.objects.filter(user_id=user_id).values_list("game", "lesson", "stars")
    return {(game, lesson): stars for game, lesson, stars in rows}


@dataclass(frozen=True)
class StepFigures:
    game: str
    lesson: str
    step: int
    started: int
    finished: int


@dataclass(frozen=True)
class WeekFigures:
    week_of: datetime.date  # the Monday the week of joining began
    joined: int
    played: int  # of those, how many held a seat at a finished match


def lesson_step_figures() -> dict[tuple[str, str, int], StepFigures]:
    """Every counted step's starts and finishes, by ``(game, lesson, step)``."""
    return {
        (row.game, row.lesson, row.step): StepFigures(
            row.game, row.lesson, row.step, row.started, row.finished
        )
        for row in LessonStepCount.objects.all()
    }


def first_match_figures(today: datetime.date | None = None) -> list[WeekFigures]:
    """For each of the last ``COHORT_WEEKS`` weeks (Monday to Sunday, the current one last):
    how many accounts joined, and how many of them have held a seat at a finished match."""
    today = today or timezone.localdate()
    this_monday = today - datetime.timedelta(days=today.weekday())
    first_monday = this_monday - datetime.timedelta(weeks=COHORT_WEEKS - 1)
    start = timezone.make_aware(datetime.datetime.combine(first_monday, datetime.time()))
    played = Seat.objects.filter(user=OuterRef("pk"), match__status=Match.Status.FINISHED)
    rows = (
        get_user_model()
        .objects.filter(date_joined__gte=start)
        .annotate(played=Exists(played))
        .values_list("date_joined", "played")
    )
    weeks = {first_monday + datetime.timedelta(weeks=i): [0, 0] for i in range(COHORT_WEEKS)}
    for joined_at, has_played in rows:
        day = timezone.localtime(joined_at).date()
        week = weeks.get(day - datetime.timedelta(days=day.weekday()))
        if week is not None:
            week[0] += 1
            week[1] += int(has_played)
    return [WeekFigures(monday, joined, done) for monday, (joined, done) in weeks.items()]

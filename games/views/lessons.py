"""The lessons' pages (docs/lessons.md): the Learn page, a lesson on the real table and the
tries made there, open to everyone signed in or not. A run lives in the session (database
rows, server side) as the learner's accepted moves and the count of tries: the page carries
nothing but the step it shows, and the run is replayed from the deal on each request, so the
lesson's other hands are never in a page, a cookie or a response."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST

from accounts.selectors.play_settings import play_choices
from games.forms import MoveForm
from games.lessons import (
    Lesson,
    Run,
    lesson_find,
    lesson_replay,
    lesson_stars,
    lesson_start,
    lesson_try,
    lesson_view,
)
from games.presentation.lessons import LessonAt, learn_games, lesson_page
from games.selectors.lessons import lesson_stars_of
from games.services.lessons import lesson_progress_carry, lesson_progress_keep, lesson_step_count

LESSON_PAGE = "games/lesson.html"
LESSON_PARTIAL = "games/lesson.html#table"
SESSION_KEY = "lessons"  # {"game/lesson": {"moves": [...], "tries": n}}
# The page's own answers, in English: the lesson's page translates every answer it shows
# (``games.presentation.lessons.learner_answer``).
UNREADABLE = gettext_noop("That move is not readable: pick one of the moves on the table.")
BEHIND = gettext_noop("This page was a step behind: here is the lesson where you are.")
FINISHED = gettext_noop("This lesson is finished: take it again, or go on to the next.")
CARRY_FIELD = "lesson_progress"  # the sign-in and register forms' field (static/js/lessons.js)


@require_GET
def learn(request: HttpRequest) -> HttpResponse:
    """Both games' lessons with the stars earned (signed out, the browser's, filled in by
    ``static/js/lessons.js``)."""
    stars = lesson_stars_of(user_id=request.user.pk)
    return render(request, "games/learn.html", {"learn_games": learn_games(stars)})


@require_GET
def lesson(request: HttpRequest, game: str, slug: str) -> HttpResponse:
    """A lesson where the learner left it, or from its start."""
    found = _lesson(game, slug)
    run, moves = _saved(request, found)
    if run is None:
        run, moves = lesson_start(found), []
        _save(request, found, moves, 0)
        lesson_step_count(game=game, lesson=slug, step=0, counter="started")
    return _render(request, _at(run), status=200)


@require_POST
def lesson_try_view(request: HttpRequest, game: str, slug: str) -> HttpResponse:
    """One try at the step the page showed (``version``), or ``again`` to start over. The
    engine judges it (``games.lessons.lesson_try``); a wrong try is a "try again" (200), an
    unreadable one a 400 and a try from a page a step behind a 409, both changing nothing."""
    found = _lesson(game, slug)
    if "again" in request.POST:
        _save(request, found, [], 0)
        lesson_step_count(game=game, lesson=slug, step=0, counter="started")
        return _render(request, _at(lesson_start(found)), status=200)
    run, moves = _saved(request, found)
    form = MoveForm(request.POST)
    if not form.is_valid():
        shown = run or lesson_start(found)
        return _render(request, _at(shown, answer=UNREADABLE, ok=False), status=400)
    fresh = run is None  # the session holds no run: a first try from a page it forgot
    if run is None:
        run, moves = lesson_start(found), []
    if run.finished:
        return _render(request, _at(run, answer=FINISHED, ok=False), status=409)
    if form.cleaned_data["version"] != run.step:
        return _render(request, _at(run, answer=BEHIND, ok=False), status=409)
    move = form.cleaned_data["move"]
    outcome = lesson_try(run, move)
    run = outcome.run
    if not outcome.ok:
        _save(request, found, moves, run.tries)
        at = _at(run, answer=outcome.words, reason=outcome.reason, ok=False)
        return _render(request, at, status=200)
    moves = [*moves, move]
    if fresh:
        lesson_step_count(game=game, lesson=slug, step=0, counter="started")
    _save(request, found, moves, run.tries)
    lesson_step_count(game=game, lesson=slug, step=run.step - 1, counter="finished")
    stars = 0
    if run.finished:
        stars = lesson_stars(found, run.tries)
        if request.user.is_authenticated:
            lesson_progress_keep(user_id=request.user.pk, game=game, lesson=slug, stars=stars)
    else:
        lesson_step_count(game=game, lesson=slug, step=run.step, counter="started")
    return _render(request, _at(run, answer=outcome.words, ok=True, stars=stars), status=200)


def carried_progress_receiver(
    sender: Any, request: HttpRequest | None, user: Any, **_: Any
) -> None:
    """On every sign-in (registering signs in too): the stars a signed-out browser earned,
    sent by the form's ``lesson_progress`` field, kept in the account, best kept."""
    if request is None or request.method != "POST":
        return
    carried = request.POST.get(CARRY_FIELD, "")
    if carried:
        lesson_progress_carry(user_id=user.pk, carried=carried)


def _lesson(game: str, slug: str) -> Lesson:
    found = lesson_find(game, slug)
    if found is None:
        raise Http404
    return found


def _key(lesson: Lesson) -> str:
    return f"{lesson.game}/{lesson.slug}"


def _saved(request: HttpRequest, lesson: Lesson) -> tuple[Run | None, list[dict]]:
    """The session's run of ``lesson``, replayed; ``None`` when it holds none (or one the
    lesson no longer takes: a lesson changed since)."""
    runs = request.session.get(SESSION_KEY)
    saved = runs.get(_key(lesson)) if isinstance(runs, dict) else None
    if not isinstance(saved, dict):
        return None, []
    moves, tries = saved.get("moves"), saved.get("tries")
    if not isinstance(moves, list) or type(tries) is not int:
        return None, []
    try:
        return lesson_replay(lesson, moves, tries), moves
    except (ValueError, TypeError, KeyError):
        return None, []


def _save(request: HttpRequest, lesson: Lesson, moves: list[dict], tries: int) -> None:
    runs = request.session.get(SESSION_KEY)
    runs = dict(runs) if isinstance(runs, dict) else {}
    runs[_key(lesson)] = {"moves": moves, "tries": tries}
    request.session[SESSION_KEY] = runs


def _at(
    run: Run,
    *,
    answer: str = "",
    reason: dict[str, Any] | None = None,
    ok: bool | None = None,
    stars: int = 0,
) -> LessonAt:
    if run.finished and not stars:
        stars = lesson_stars(run.lesson, run.tries)
    return LessonAt(
        lesson=run.lesson,
        step=run.step,
        view=lesson_view(run),
        log=run.log,
        tries=run.tries,
        answer=answer,
        reason=reason,
        ok=ok,
        stars=stars,
    )


def _render(request: HttpRequest, at: LessonAt, *, status: int) -> HttpResponse:
    context = lesson_page(at)
    if not request.htmx and request.user.is_authenticated:
        # The keyboard shortcuts and text mode the person chose, as on a match's page
        # (templates/games/_keys.html); a visitor's are kept in their browser.
        context["play"] = play_choices(request.user.pk)
    template = LESSON_PARTIAL if request.htmx else LESSON_PAGE
    return render(request, template, context, status=status)

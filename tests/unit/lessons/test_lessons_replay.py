"""Every lesson replayed through the real engine, step by step (issue 34; docs/lessons.md):
a rules change that leaves a lesson wrong fails here."""

from __future__ import annotations

import pytest

from games.engines import get_engine
from games.lessons import games, lessons_for
from games.lessons.base import LEARNER, Lesson, Run, lesson_start, lesson_try

LESSONS = [lesson for game in games() for lesson in lessons_for(game)]


def _ids(lesson: Lesson) -> str:
    return f"{lesson.game}-{lesson.slug}"


def _wanted(run: Run) -> list[dict]:
    """Every legal move that does the current step: its one move, or each move of its kind."""
    engine = get_engine(run.lesson.game)
    step = run.lesson.steps[run.step]
    legal = engine.legal_moves(run.state, LEARNER)
    if step.move is not None:
        assert step.move in legal, (
            f"step {run.step}: the wanted move {step.move} is not legal now: {legal}"
        )
        return [step.move]
    kind = [m for m in legal if m["type"] == step.kind]
    assert kind, f"step {run.step}: no legal move of kind {step.kind!r}: {legal}"
    return kind


def _finish(run: Run) -> Run:
    """Play the rest of the lesson, the first wanted move at each step."""
    while not run.finished:
        out = lesson_try(run, _wanted(run)[0])
        assert out.ok, out.words
        run = out.run
    return run


@pytest.mark.parametrize("lesson", LESSONS, ids=_ids)
def test_lesson_replays_through_the_engine(lesson: Lesson) -> None:
    engine = get_engine(lesson.game)
    run = lesson_start(lesson)  # every prelude and scripted move legal, or this raises
    assert lesson.steps, "a lesson has steps"
    assert 1 <= len(lesson.steps) <= 6
    moves = 0
    while not run.finished:
        step = lesson.steps[run.step]
        assert LEARNER in engine.awaiting(run.state), f"step {run.step}: learner not awaited"
        assert step.say and step.done and step.hint and step.clauses
        # The "try again" example: refused by the engine, with a reason, changing nothing.
        if "card" in step.wrong:  # a try a learner could make: a card in its own hand
            assert step.wrong["card"] in engine.view(run.state, LEARNER)["hand"], step.wrong
        reason = engine.explain(run.state, LEARNER, step.wrong)
        assert reason, f"step {run.step}: the engine takes the wrong example {step.wrong}"
        out = lesson_try(run, step.wrong)
        assert not out.ok and out.reason == reason and out.words == step.hint
        assert out.run.step == run.step and out.run.state is run.state
        assert out.run.tries == run.tries + 1  # a refused try counts against the stars
        # Every move that does the step is taken, and the lesson goes on from each.
        for move in _wanted(run)[1:]:
            branch = lesson_try(run, move)
            assert branch.ok, branch.words
            _finish(branch.run)
        out = lesson_try(run, _wanted(run)[0])
        assert out.ok and out.words == step.done
        for shown in step.shows:  # what the done words claim, in the engine's events
            assert any(shown.items() <= event.items() for event in out.events), (
                f"step {run.step}: {shown} not among {out.events}"
            )
        for seat, _move in out.replies:
            assert seat != LEARNER
        run = out.run
        moves += 1
    assert moves == lesson.target, "the target is the perfect run's number of moves"
    assert run.tries == lesson.target  # the perfect run reaches the target
    if lesson.ends == "won":
        assert engine.is_over(run.state)
        assert engine.outcome(run.state)["winners"] == [LEARNER]
    elif lesson.ends == "round":
        assert engine.round_over(run.state) or engine.is_over(run.state)
    else:
        assert lesson.ends == "steps"
        assert not engine.is_over(run.state) and not engine.round_over(run.state)
    # The whole script was played: no reply is left over for a page to wonder about.
    assert run.script_at == len(lesson.script)


@pytest.mark.parametrize("lesson", LESSONS, ids=_ids)
def test_a_legal_move_that_is_not_the_lesson_is_answered_with_the_hint(lesson: Lesson) -> None:
    engine = get_engine(lesson.game)
    run = lesson_start(lesson)
    while not run.finished:
        step = lesson.steps[run.step]
        wanted = _wanted(run)
        for other in engine.legal_moves(run.state, LEARNER):
            if other not in wanted:
                out = lesson_try(run, other)
                assert not out.ok and out.words == step.hint and out.run.state is run.state
        run = lesson_try(run, wanted[0]).run


def test_the_learners_words_never_name_a_card_only_a_scripted_seat_holds() -> None:
    """The scripted seats' hands are never needed in the words: a card the words name is in
    the learner's view (its hand, a row, the sentence or the face-up discards) at that step,
    or was played in front of everyone before it."""
    for lesson in LESSONS:
        engine = get_engine(lesson.game)
        run = lesson_start(lesson)
        others = {c for seat, hand in enumerate(lesson.hands) if seat != LEARNER for c in hand}
        mine = set(lesson.hands[LEARNER])
        # A move's card (a play, a prepend, a discard, a Penalty) is laid in front of everyone.
        seen = {m["card"] for _seat, m in lesson.prelude if "card" in m}
        seen |= {m["card"] for _seat, m in lesson.script[: run.script_at] if "card" in m}
        while not run.finished:
            view = engine.view(run.state, LEARNER)
            shown = set(view["hand"]) | set(view.get("sentence") or [])
            shown |= set(view.get("discards") or []) | set(view.get("discard_pile") or [])
            seen |= shown
            step = lesson.steps[run.step]
            words = " ".join((step.say, step.hint)).replace(",", " ").replace(".", " ")
            for card in others - mine - seen:
                if len(card) > 2:  # word cards; Faraway numbers are read as numbers
                    assert card not in words.split(), (lesson.slug, card)
            out = lesson_try(run, _wanted(run)[0])
            seen |= {m["card"] for _seat, m in out.replies if "card" in m}
            run = out.run


def test_each_game_has_its_lessons_and_slugs_are_unique() -> None:
    assert set(games()) == {"faraway", "gulliver"}
    for game in games():
        slugs = [lesson.slug for lesson in lessons_for(game)]
        assert len(slugs) == len(set(slugs))
        assert all(lesson.game == game for lesson in lessons_for(game))

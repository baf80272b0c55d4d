"""Lessons as data, played through the real engine (issue 34; docs/lessons.md).

A lesson is a fixed deal (each seat's hand and the cards after them), the learner's steps and
the other seats' scripted replies. The runner here deals it with the engine's lessons-only
entry point, ``Engine.new_game_from_pack``, and judges every try with the engine itself: a
move is taken only when the engine takes it, and a refused try is answered with the engine's
own reason. Nothing here touches Django, a database or a match: a lesson never reaches the
move path of real matches (no Match row, no rating, history, record or notice).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.engines import get_engine
from games.engines.base import Engine, IllegalMove, Move, Reason


def gettext_noop(text: str) -> str:
    """Marks a lesson's words for translation where they are written (``makemessages`` finds
    the call by its name); the presentation translates them when it shows them
    (``games.presentation.lessons``). The standard library's identity: lessons, like the
    engines, import no framework."""
    return text


@dataclass(frozen=True)
class Step:
    """One thing the learner does.

    ``say``: the words to read before the move. ``move``: the one exact move wanted, or
    ``None`` with ``kind`` set: any legal move of that type (``"discard"``, ``"draw"``...).
    ``done``: said after it succeeds. ``hint``: said on another try, before the engine's own
    reason when the engine refuses the try. ``wrong``: an example of a try the engine refuses
    at this step (the replay test holds the engine to refusing it). ``clauses``: the rule-sheet
    clause ids this step teaches (docs/lessons.md, "Clause map"). ``shows``: what the ``done``
    words claim the move did, as parts of the engine's events (each dict's items found in one
    event of the move), so the replay test holds the words to the engine.
    """

    say: str
    done: str
    hint: str
    wrong: Move
    clauses: tuple[str, ...] = ()
    move: Move | None = None
    kind: str | None = None
    shows: tuple[dict[str, Any], ...] = ()

    def wants(self, move: Move) -> bool:
        if self.move is not None:
            return move == self.move
        return isinstance(move, dict) and move.get("type") == self.kind


@dataclass(frozen=True)
class Lesson:
    """A lesson: its deal, its steps and the other seats' replies, in play order.

    ``hands``: each seat's starting hand (the learner is seat 0). ``then``: the cards dealt
    after the hands, in order (the Faraway Tree's turned-up card, then the pack from the top;
    Gulliver's centre stack from the top); the rest of the pack follows in its printed order.
    ``prelude``: ``(seat, move)`` moves already made when the lesson opens (the learner's
    included), so a lesson can start mid-game; the engine checks each.
    ``script``: ``(seat, move)`` replies, played whenever the game awaits a seat other than the
    learner. ``ends``: ``"won"`` (the learner wins), ``"round"`` (the round is over) or
    ``"steps"`` (the game goes on; the lesson stops after its last step). ``target``: the
    number of learner moves a perfect run takes (stars, issue 34 item 4, count from it).
    """

    game: str
    slug: str
    title: str
    hands: tuple[tuple[str, ...], ...]
    steps: tuple[Step, ...]
    then: tuple[str, ...] = ()
    script: tuple[tuple[int, Move], ...] = ()
    prelude: tuple[tuple[int, Move], ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    dealer: int = -1  # -1: the seat on the learner's right, so the learner moves first
    ends: str = "steps"
    target: int = 0

    @property
    def num_players(self) -> int:
        return len(self.hands)

    @property
    def clauses(self) -> set[str]:
        return {c for step in self.steps for c in step.clauses}


LEARNER = 0


@dataclass(frozen=True)
class Run:
    """A lesson under way: the engine's state, the step reached, the replies still to come
    and the moves the learner has made (tries included, for the stars)."""

    lesson: Lesson
    state: Any
    step: int = 0
    script_at: int = 0
    tries: int = 0
    # Every step so far as ``(seat, events)``, the events redacted for the learner (the deal's
    # seat is ``None``): the table's "What happened".
    log: tuple[tuple[int | None, tuple[dict[str, Any], ...]], ...] = ()

    @property
    def finished(self) -> bool:
        return self.step >= len(self.lesson.steps)


@dataclass(frozen=True)
class Outcome:
    """What one try did: ``ok`` (the step is done), the ``words`` to show (the step's, marked
    for translation, English here), the engine's ``reason`` when it refused the try
    (language-free, ``Engine.explain``), the new ``run``, the ``events`` of the learner's move
    as the learner may see them, and the scripted ``replies`` the other seats made after it,
    as ``(seat, move)``."""

    ok: bool
    words: str
    run: Run
    replies: tuple[tuple[int, Move], ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    reason: Reason | None = None


def deal_order(
    engine: Engine, hands: Sequence[Sequence[str]], dealer: int, then: Sequence[str]
) -> list[str]:
    """The whole pack order that deals ``hands`` (one card at a time from the dealer's left,
    docs/engine-contract.md "Dealing"), then ``then``, then the rest of the pack as printed."""
    n = len(hands)
    size = len(hands[0])
    if any(len(h) != size for h in hands):
        raise ValueError("Every hand in a lesson holds the same number of cards.")
    order = [hands[(dealer + k) % n][i] for i in range(size) for k in range(1, n + 1)]
    order += list(then)
    pack = engine.lesson_pack(n)
    if Counter(order) - Counter(pack):
        raise ValueError("A lesson's deal holds cards the pack does not.")
    rest = list(pack)
    for card in order:
        rest.remove(card)
    return order + rest


def lesson_start(lesson: Lesson) -> Run:
    """Deal the lesson and play the other seats' replies until the learner is awaited."""
    engine = get_engine(lesson.game)
    dealer = lesson.dealer % lesson.num_players
    pack = deal_order(engine, lesson.hands, dealer, lesson.then)
    state = engine.new_game_from_pack(
        lesson.num_players, pack, {**lesson.options, "dealer": dealer}
    )
    log = [_entry(engine, None, state)]
    for seat, move in lesson.prelude:
        try:
            state = engine.apply(state, seat, move)
        except IllegalMove as exc:
            raise ValueError(f"Lesson {lesson.slug!r}: prelude move refused: {exc}") from exc
        log.append(_entry(engine, seat, state))
    run, _ = _replies(Run(lesson=lesson, state=state, log=tuple(log)))
    return run


def lesson_replay(lesson: Lesson, moves: Sequence[Move], tries: int = 0) -> Run:
    """The run after the learner's accepted ``moves``, replayed from the deal (a lesson is
    fixed, so its moves so far are the whole of a run); ``tries`` counts the tries made.
    ``ValueError`` when a move is not the one its step takes (a forged list, or a lesson
    changed since)."""
    run = lesson_start(lesson)
    for move in moves:
        outcome = lesson_try(run, move)
        if not outcome.ok:
            raise ValueError(f"Lesson {lesson.slug!r}: {move!r} is not its step's move.")
        run = outcome.run
    return replace(run, tries=max(tries, len(moves)))


def lesson_view(run: Run) -> dict[str, Any]:
    """The learner's view of the run, as a table shows a seat: ``Engine.view`` of seat 0 and
    why each card offering no move is still (``Engine.refusals``, language-free reasons). No
    other seat's hand."""
    engine = get_engine(run.lesson.game)
    return {**engine.view(run.state, LEARNER), "refusals": engine.refusals(run.state, LEARNER)}


# Stars (docs/lessons.md, "Stars"): the target number of moves earns three; a few tries over
# it, two (up to NEAR_TRIES, or half the target when that is more); further over, one.
NEAR_TRIES = 2


def lesson_stars(lesson: Lesson, tries: int) -> int:
    """The stars a run finished in ``tries`` learner moves earns: 3, 2 or 1."""
    over = tries - lesson.target
    if over <= 0:
        return 3
    return 2 if over <= max(NEAR_TRIES, lesson.target // 2) else 1


def lesson_try(run: Run, move: Move) -> Outcome:
    """The learner tries ``move`` at the current step. The engine judges it: a refused move
    is answered with the step's hint and the engine's reason; a legal move that is not the one
    the step teaches with the hint alone; the wanted move is applied, the other seats reply
    from the script, and the step's ``done`` words are said."""
    if run.finished:
        return Outcome(False, gettext_noop("This lesson is finished."), run)
    engine = get_engine(run.lesson.game)
    step = run.lesson.steps[run.step]
    tried = replace(run, tries=run.tries + 1)
    reason = engine.explain(run.state, LEARNER, move)
    if reason is not None:
        return Outcome(False, step.hint, tried, reason=reason)
    if not step.wants(move):
        return Outcome(False, step.hint, tried)
    state = engine.apply(run.state, LEARNER, move)
    events = tuple(engine.redact(engine.events(state), LEARNER))
    logged = (*run.log, (LEARNER, events))
    moved, replies = _replies(replace(tried, state=state, step=run.step + 1, log=logged))
    return Outcome(True, step.done, moved, replies, events)


def _replies(run: Run) -> tuple[Run, tuple[tuple[int, Move], ...]]:
    engine = get_engine(run.lesson.game)
    state, at = run.state, run.script_at
    made: list[tuple[int, Move]] = []
    log = list(run.log)
    while not run.finished and not engine.is_over(state) and not engine.round_over(state):
        waiting = engine.awaiting(state)
        if not waiting or LEARNER in waiting:
            break
        if at >= len(run.lesson.script):
            raise ValueError(f"Lesson {run.lesson.slug!r} ran out of replies for {waiting}.")
        seat, move = run.lesson.script[at]
        try:
            state = engine.apply(state, seat, move)
        except IllegalMove as exc:
            raise ValueError(f"Lesson {run.lesson.slug!r}: reply {at} refused: {exc}") from exc
        made.append((seat, move))
        log.append(_entry(engine, seat, state))
        at += 1
    return replace(run, state=state, script_at=at, log=tuple(log)), tuple(made)


def _entry(
    engine: Engine, seat: int | None, state: Any
) -> tuple[int | None, tuple[dict[str, Any], ...]]:
    """The step that made ``state``, as the learner may read it."""
    return seat, tuple(engine.redact(engine.events(state), LEARNER))

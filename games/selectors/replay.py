"""A match's replay as data: the position after any entry of its log through a perspective,
and the whole log redacted for it (``games.presentation.replay`` words both).

A frame is rebuilt with the one replay fold (``games.engines.replay.step``) from the nearest
checkpoint at or before it (``Move.checkpoint``, every ``Move.CHECKPOINT_EVERY`` plies), so it
costs one query and at most ``CHECKPOINT_EVERY - 1`` engine steps at any ply of any match.

Who sees what is a *perspective*: a seat (that seat's ``engine.view`` at that moment, its log
redacted for it), ``public`` (a spectator's view) or ``all`` (every hand shown, the log
unredacted). While a match runs a participant may replay it only as their own seat (or as the
public saw it) and anyone else only publicly; ``all`` and every seat open up once it is over
(``replay_perspectives``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games.engines import get_engine, replay
from games.engines.base import PRIVATE
from games.logs import LogEntry
from games.models import Match, Move, Seat
from games.selectors.facts import MatchFacts, SeatFacts, match_facts, moves_made, seat_facts

ALL = "all"
PUBLIC = "public"


@dataclass(frozen=True)
class Perspective:
    """Whose eyes a replay looks through: ``key`` goes in the URL (``?as=``)."""

    key: str
    seat: int | None = None  # the seat whose view it is; None for ``all`` and ``public``


@dataclass(frozen=True)
class ReplayData:
    """The position after entry ``ply`` (0: the deal) through ``perspective``.

    ``view`` is the perspective's ``engine.view`` with the entry's own events; ``entry`` the
    entry as the perspective may see it; ``seat_views`` every seat's view, for ``all`` only
    (each hand comes from its seat's view), ``[]`` otherwise.
    """

    match: MatchFacts
    seats: list[SeatFacts]
    ply: int
    perspective: Perspective
    view: dict[str, Any]
    entry: LogEntry
    seat_views: list[dict[str, Any]]
    move: int = 0  # the players' moves among entries 1..ply (``moves_made``; of match.moves)


def replay_perspectives(*, match: Match, viewer: Seat | None) -> list[Perspective]:
    """The perspectives this viewer may choose, the default first."""
    public = Perspective(PUBLIC)
    as_seat = [Perspective(str(i), i) for i in range(match.num_players)]
    if match.status == Match.Status.FINISHED:
        return [Perspective(ALL), *as_seat, public]
    if viewer is not None:
        return [as_seat[viewer.index], public]
    return [public]


def replay_frame(
    *, match: Match, seats: Sequence[Seat], ply: int, perspective: Perspective
) -> ReplayData:
    """The table after entry ``ply`` (0: the deal) through ``perspective``.

    One query: the checkpoint row at or before ``ply`` and the few rows after it.
    """
    engine = get_engine(match.game)
    base = ply - ply % Move.CHECKPOINT_EVERY
    rows = list(
        Move.objects.filter(match_id=match.pk, ply__gte=max(base, 1), ply__lte=ply)
        .order_by("ply")
        .values_list("ply", "seat", "payload", "events", "auto", "checkpoint")
    )
    if len(rows) != ply - max(base, 1) + 1:
        raise ValueError(f"Match {match.pk} has no entry {ply}.")
    if base > 0:
        state = engine.load(rows[0][5])
        to_fold = rows[1:]
    else:
        state = engine.new_game(match.num_players, match.seed, match.options)
        to_fold = rows
    for _, seat, payload, *_ in to_fold:
        state = replay.step(engine, state, seat, payload)
    if ply == 0:
        mover, logged, auto = None, match.start_events, ""
    else:
        _, mover, _, logged, auto, _ = rows[-1]
    view = engine.view(state, perspective.seat)
    # A state loaded from a checkpoint has no events: the view gets the entry's, as logged.
    view["events"] = engine.redact(logged, perspective.seat)
    seat_views = []
    if perspective.key == ALL:
        seat_views = [engine.view(state, index) for index in range(match.num_players)]
    return ReplayData(
        match=match_facts(match),
        seats=seat_facts(seats),
        ply=ply,
        perspective=perspective,
        view=view,
        entry=LogEntry(seat=mover, events=_seen(engine, logged, perspective), auto=auto),
        seat_views=seat_views,
        # The rounds dealt by then are the view's round (a game of one round has none).
        move=moves_made(ply=ply, rounds=view.get("round") or 1),
    )


def replay_log(*, match: Match, perspective: Perspective) -> Iterator[tuple[int, LogEntry]]:
    """The whole log as ``(ply, entry)`` for ``perspective``, the deal first (ply 0): one
    query over the match's entries, streamed."""
    engine = get_engine(match.game)
    yield 0, LogEntry(seat=None, events=_seen(engine, match.start_events, perspective))
    rows = (
        Move.objects.filter(match_id=match.pk)
        .order_by("ply")
        .values_list("ply", "seat", "events", "auto")
    )
    for ply, seat, events, auto in rows.iterator():
        yield ply, LogEntry(seat=seat, events=_seen(engine, events, perspective), auto=auto)


def _seen(engine: Any, events: list[dict[str, Any]], perspective: Perspective) -> list[dict]:
    """``events`` as the perspective may see them: redacted for its seat (or for a spectator),
    or, with every hand shown, whole (the markers dropped)."""
    if perspective.key == ALL:
        return [{k: v for k, v in event.items() if k != PRIVATE} for event in events]
    return engine.redact(events, perspective.seat)

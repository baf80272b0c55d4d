"""Play: a seat's move (a person's or a bot's, the one path into the engine) and the next deal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.engines import IllegalMove, get_engine
from games.engines.replay import NEXT_ROUND
from games.models import Match, Move, Seat
from games.services._store import due_work_enqueue, entry_log, refresh, seats_of, state_store
from games.services.errors import MoveRejected, StaleVersion


def move_submit(
    *,
    match: Match,
    seat: Seat,
    move: dict[str, Any],
    expected_version: int,
    auto: str = Move.Auto.CHOSEN,
    seats: Sequence[Seat] | None = None,
) -> Match:
    """Play ``move`` for ``seat`` if the match is still at ``expected_version``: one transaction.

    The match row is locked, so of two identical submissions one plays and the other finds the
    version moved on (409). ``auto`` records why the server played a person's move for them.
    ``seats`` are the match's seats when the caller has read them already (one read a request).
    Returns ``match`` refreshed to the committed row.
    """
    if seat.match_id != match.pk:
        raise MoveRejected("You do not have a seat at this table.", status=403)
    engine = get_engine(match.game)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status == Match.Status.WAITING:
            raise MoveRejected("The match has not started yet.", status=409)
        if locked.status == Match.Status.FINISHED:
            raise StaleVersion("The match is over.", status=409)
        if locked.version != expected_version:
            raise StaleVersion(
                "The table changed before your move arrived (another tab, or a double click); "
                "here it is as it stands now.",
                status=409,
            )
        before = engine.load(locked.state)
        if not engine.legal_moves(before, seat.index):
            raise MoveRejected("It is not your turn.", status=409)
        try:
            state = engine.apply(before, seat.index, move)
        except IllegalMove as exc:
            raise MoveRejected(str(exc), status=422) from exc
        seats = seats_of(locked, seats)
        entry_log(engine=engine, match=locked, seat=seat.index, move=move, state=state, auto=auto)
        state_store(engine=engine, match=locked, state=state, previous=before, seats=seats)
        # A person's card may be challenged: bots hold back for the window before answering.
        window = (
            seat.bot_level is None
            and bool(locked.options.get("challenges"))
            and move.get("type") in {"play", "prepend"}
        )
        due_work_enqueue(match=locked, engine=engine, state=state, window=window, seats=seats)
    refresh(match, locked)
    return match


def match_next_round(*, match: Match, expected_version: int) -> Match:
    """Gulliver: deal the next round of a match whose round is over (the server's entry).

    Logged as a seatless ``{"type": "next_round"}`` Move so the log still replays. Called by the
    ``round_next`` task after a pause in which the table shows the round's result.
    """
    engine = get_engine(match.game)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.ACTIVE or locked.version != expected_version:
            raise StaleVersion("The round was already dealt.", status=409)
        before = engine.load(locked.state)
        if not engine.round_over(before):  # a game without rounds is never over a round
            raise StaleVersion("The round is still being played.", status=409)
        state = engine.next_round(before)
        seats = seats_of(locked, None)
        entry_log(
            engine=engine, match=locked, seat=None, move=dict(NEXT_ROUND), state=state, auto=""
        )
        state_store(engine=engine, match=locked, state=state, previous=before, seats=seats)
        due_work_enqueue(match=locked, engine=engine, state=state, window=False, seats=seats)
    refresh(match, locked)
    return match

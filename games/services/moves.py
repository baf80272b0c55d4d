"""Play: a seat's move (a person's or a bot's, the one path into the engine) and the next deal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import IllegalMove, get_engine
from games.engines.base import same_json
from games.engines.replay import NEXT_ROUND
from games.models import Match, Move, Seat
from games.presentation.reasons import reason_words
from games.services._store import due_work_enqueue, entry_log, refresh, seats_of, state_store
from games.services.errors import MoveRejected, OnHoliday, StaleVersion
from games.services.holidays import away_until


@dataclass(frozen=True)
class Played:
    """A move that was played: the match as committed, the seat that moved, every seat of the
    match (with their users) and the logged entry (its events unredacted)."""

    match: Match
    seat: Seat
    seats: list[Seat]
    entry: Move


def _locked(match_id: int) -> tuple[Match, list[Seat]]:
    """The match row, locked, and its seats with their users (and their holidays, for the
    table's "on holiday" line): one query.

    ``FOR UPDATE OF`` the match only, so two moves on one table queue on its row while the
    seats stay free to read. A match has a seat before it can have a move, so no seat means
    no move to make here (the view tells a missing match, 404, from a seat not held, 403).
    """
    # Sorted here, not by the query: an ORDER BY costs more to build than eight seats to sort.
    seats = sorted(
        Seat.objects.filter(match_id=match_id)
        .select_related("match", "user", "user__holiday")
        .select_for_update(of=("match",))
        .order_by(),
        key=lambda seat: seat.index,
    )
    if not seats:
        raise MoveRejected(_("You do not have a seat at this table."), status=403)
    match = seats[0].match
    for seat in seats:
        seat.match = match
    return match, seats


def player_move_submit(
    *, match_id: int, user: AbstractBaseUser, move: dict[str, Any], expected_version: int
) -> Played:
    """A person's move from the table: their seat is found in the same locked read that
    checks the match, so a move request reads its seats once and the match once."""
    with transaction.atomic():
        locked, seats = _locked(match_id)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise MoveRejected(_("You do not have a seat at this table."), status=403)
        if seat.resigned_ply is not None:
            raise MoveRejected(
                _("You resigned from this match: the greedy bot plays your seat now."), status=409
            )
        entry = _move_play(
            match=locked, seats=seats, seat=seat, move=move, expected_version=expected_version
        )
    return Played(match=locked, seat=seat, seats=seats, entry=entry)


def move_submit(
    *,
    match: Match,
    seat: Seat,
    move: dict[str, Any],
    expected_version: int,
    auto: str = Move.Auto.CHOSEN,
    holiday_holds: bool = True,
) -> Match:
    """Play ``move`` for ``seat`` if the match is still at ``expected_version``: one transaction.

    The match row is locked (its seats read in the same query), so of two identical submissions
    one plays and the other finds the version moved on (409). ``auto`` records why the server
    played a person's move for them; such a move for a person on holiday, in a match that
    allows holidays, is refused with ``OnHoliday`` (``holiday_holds=False``: the deadline is
    finishing a turn it began before the holiday, which a holiday does not split). Returns
    ``match`` refreshed to the committed row.
    """
    if seat.match_id != match.pk:
        raise MoveRejected(_("You do not have a seat at this table."), status=403)
    with transaction.atomic():
        locked, locked_seats = _locked(match.pk)
        held = next(s for s in locked_seats if s.index == seat.index)
        if (
            auto != Move.Auto.CHOSEN
            and holiday_holds
            and locked.holidays
            and held.user_id is not None
        ):
            # Under the match lock a holiday also takes, so a holiday and a deadline racing for
            # this turn are ordered (games.services.holidays). Never on a person's own move.
            until = away_until(user_id=held.user_id, now=timezone.now())
            if until is not None:
                raise OnHoliday(until)
        _move_play(
            match=locked,
            seats=locked_seats,
            seat=held,
            move=move,
            expected_version=expected_version,
            auto=auto,
        )
    refresh(match, locked)
    return match


def _move_play(
    *,
    match: Match,
    seats: list[Seat],
    seat: Seat,
    move: dict[str, Any],
    expected_version: int,
    auto: str = Move.Auto.CHOSEN,
) -> Move:
    """The one path into the engine for a move, inside the caller's transaction, with the
    match row locked: check the version and the turn, apply, log, store, enqueue."""
    engine = get_engine(match.game)
    if match.status == Match.Status.WAITING:
        raise MoveRejected(_("The match has not started yet."), status=409)
    if match.status == Match.Status.FINISHED:
        raise StaleVersion(_("The match is over."), status=409)
    if match.version != expected_version:
        raise StaleVersion(
            _(
                "The table changed before your move arrived (another tab, or a double click); "
                "here it is as it stands now."
            ),
            status=409,
        )
    before = engine.load(match.state)
    legal = engine.legal_moves(before, seat.index)
    if not legal:
        raise MoveRejected(_("It is not your turn."), status=409)
    # The engine's own spelling of the move is what is played and logged, never the client's:
    # ``{"positions": [false]}`` is not the legal ``[0]``, whatever Python's ``False == 0`` says.
    chosen = next((offered for offered in legal if same_json(offered, move)), None)
    if chosen is None:
        reason = reason_words(engine.explain(before, seat.index, move))
        raise MoveRejected(reason or _("That is not one of the moves you may make now."), 422)
    try:
        state = engine.apply(before, seat.index, chosen)
    except IllegalMove as exc:
        raise MoveRejected(reason_words(exc.reason), status=422) from exc
    entry = entry_log(
        engine=engine, match=match, seat=seat.index, move=chosen, state=state, auto=auto
    )
    state_store(engine=engine, match=match, state=state, previous=before, seats=seats)
    # A person's move may be disputed (the engine says: ``move_disputable``): bots hold back
    # for the window before answering (docs/engine-contract.md, "Votes").
    window = seat.bot_level is None and engine.move_disputable(before, chosen)
    due_work_enqueue(match=match, engine=engine, state=state, window=window, seats=seats)
    return entry


def match_next_round(*, match: Match, expected_version: int) -> Match:
    """Gulliver: deal the next round of a match whose round is over (the server's entry).

    Logged as a seatless ``{"type": "next_round"}`` Move so the log still replays. Called by the
    ``round_next`` task after a pause in which the table shows the round's result.
    """
    engine = get_engine(match.game)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.ACTIVE or locked.version != expected_version:
            raise StaleVersion(_("The round was already dealt."), status=409)
        before = engine.load(locked.state)
        if not engine.round_over(before):  # a game without rounds is never over a round
            raise StaleVersion(_("The round is still being played."), status=409)
        state = engine.next_round(before)
        seats = seats_of(locked)
        entry_log(
            engine=engine, match=locked, seat=None, move=dict(NEXT_ROUND), state=state, auto=""
        )
        locked.rounds += 1
        state_store(
            engine=engine,
            match=locked,
            state=state,
            previous=before,
            seats=seats,
            extra_fields=("rounds",),
        )
        due_work_enqueue(match=locked, engine=engine, state=state, window=False, seats=seats)
    refresh(match, locked)
    return match

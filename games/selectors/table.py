"""One match's table: the seat's view, the seats' names and the latest logged events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games.engines import get_engine
from games.models import Match, Move, Seat
from games.presentation import EVENT_LOG_LENGTH, LogEntry, table_build
from games.selectors.ratings import match_rating_changes


def match_seats(*, match_id: int) -> list[Seat]:
    """The taken seats of a match with their users, by index: the one seat read of a request."""
    return list(Seat.objects.filter(match_id=match_id).select_related("user").order_by("index"))


def seat_names(match: Match, seats: Sequence[Seat]) -> list[str]:
    """Every seat's name by index, "(open seat)" for one nobody has taken yet."""
    taken = {s.index: s.display_name for s in seats}
    return [taken.get(i, "(open seat)") for i in range(match.num_players)]


def seat_of(seats: Sequence[Seat], user: AbstractBaseUser) -> Seat | None:
    """``user``'s seat among ``seats`` (``None`` for a spectator or a visitor)."""
    if not user.is_authenticated:
        return None
    return next((s for s in seats if s.user_id == user.pk), None)


def match_log(*, match: Match, seat: int | None) -> list[LogEntry]:
    """The latest entries of the log, oldest first, each redacted for ``seat``.

    One query over the newest rows, whatever the match's length: every entry holds at least one
    event, so the newest ``EVENT_LOG_LENGTH`` rows cover every line the table shows. The deal's
    events come first while the match is still that young.
    """
    engine = get_engine(match.game)
    rows = list(
        Move.objects.filter(match_id=match.pk)
        .order_by("-ply")
        .values_list("seat", "events", "auto")[:EVENT_LOG_LENGTH]
    )
    rows.reverse()
    log = []
    if match.ply <= EVENT_LOG_LENGTH and match.start_events:
        log.append(LogEntry(seat=None, events=engine.redact(match.start_events, seat)))
    log += [
        LogEntry(seat=who, events=engine.redact(events, seat), auto=auto)
        for who, events, auto in rows
    ]
    return log


def match_table_context(
    *,
    match: Match,
    seat: Seat | None,
    seats: Sequence[Seat] | None = None,
    appended: Move | None = None,
) -> dict[str, Any]:
    """Everything the ``#table`` partial renders, for ``seat`` (``None``: a spectator).

    ``seats`` are the match's seats with their users when the caller has read them already.
    ``appended`` is the entry the asking seat's own move just logged: that page already shows
    the log up to it, so the table carries only that entry's lines (``log_append``) for the
    page to put on top of its log, and the log is not read again.
    """
    seats = list(seats) if seats is not None else match_seats(match_id=match.pk)
    names = seat_names(match, seats)
    context: dict[str, Any] = {
        "match": match,
        "seat": seat,
        "seats": seats,
        "names": names,
        "free_seats": match.num_players - len(seats),
        "table": None,
        "deadline_at": None,
    }
    people = {s.index for s in seats if s.bot_level is None}
    if match.status == Match.Status.ACTIVE and people.intersection(match.awaiting):
        context["deadline_at"] = match.deadline_at
    if match.status == Match.Status.FINISHED:
        # One query, and only on a finished table: nothing is rated during play.
        changes = match_rating_changes(match=match)
        context["rating_changes"] = [(names[i], changes[i]) for i in sorted(changes)]
    if match.state is None:
        return context
    engine = get_engine(match.game)
    index = None if seat is None else seat.index
    view = engine.view(engine.load(match.state), index)
    if appended is None:
        log = match_log(match=match, seat=index)
    else:
        events = engine.redact(appended.events, index)
        log = [LogEntry(seat=appended.seat, events=events, auto=appended.auto)]
        context["log_append"] = True
    context["table"] = table_build(match.game, view=view, names=names, log=log)
    return context

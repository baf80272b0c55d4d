"""One match's table as data: the match's public facts, the seats, the asking seat's
``engine.view`` and the latest log entries redacted for that seat (``games.presentation``
words it: ``table_page``)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection

from games.engines import Engine, get_engine
from games.engines.resignation import resigned_outcome
from games.engines.results import Standing
from games.logs import EVENT_LOG_LENGTH, LogEntry
from games.models import Match, Move, Seat
from games.selectors.facts import MatchFacts, SeatFacts, match_facts, seat_facts
from games.selectors.invitations import HeldSeat, held_seats
from games.selectors.leaving import LeaveOptions, leave_options
from games.selectors.phrases import SaidPhrase, phrases_visible
from games.selectors.ratings import SeatChange, match_rating_changes


def match_seats(*, match_id: int) -> list[Seat]:
    """The taken seats of a match with their users and their holidays, by index: the one seat
    read of a request."""
    return list(
        Seat.objects.filter(match_id=match_id)
        .select_related("user", "user__holiday")
        .order_by("index")
    )


def match_with_seats(*, match_id: int) -> tuple[Match, list[Seat]]:
    """The match and ``match_seats``'s seats in one statement (the seats joined to their match,
    the users and their holidays), for a member's re-rendered poll (issue 35: a round trip
    fewer); a match with no seat yet (a creator who only watches a forming match) is read
    alone. Every seat points at the one match returned."""
    # Sorted here, not by the query, as the move's locked read does (games/services/moves.py).
    seats = sorted(
        Seat.objects.filter(match_id=match_id)
        .select_related("match", "user", "user__holiday")
        .order_by(),
        key=lambda seat: seat.index,
    )
    if not seats:
        return Match.objects.get(pk=match_id), []
    match = seats[0].match
    for seat in seats[1:]:
        seat.match = match
    return match, seats


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
    rows = _latest_entries(match.pk)
    rows.reverse()
    log = []
    if match.ply <= EVENT_LOG_LENGTH and match.start_events:
        log.append(LogEntry(seat=None, events=engine.redact(match.start_events, seat)))
    log += [
        LogEntry(seat=who, events=engine.redact(events, seat), auto=auto, ply=ply)
        for who, events, auto, ply in rows
    ]
    return log


def _latest_entries(match_id: int) -> list[tuple[int | None, list[dict[str, Any]], str, int]]:
    """The newest ``EVENT_LOG_LENGTH`` entries' (seat, events, auto, ply), newest first.

    One plain statement, written out: every seat's re-rendered poll and every full table runs
    it, and the ORM's ``values_list()[:60]`` cost 0.78-0.92 ms of the process's CPU against
    0.33-0.39 ms for this (issue 35, in process, min and p50 of 60 batches). Standard SQL, so
    SQLite runs the same text; both hand the JSON column back as text, decoded here as the
    field does."""
    q = connection.ops.quote_name
    meta = Move._meta
    seat, events, auto, ply, match = (
        q(meta.get_field(name).column) for name in ("seat", "events", "auto", "ply", "match")
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {seat}, {events}, {auto}, {ply} FROM {q(meta.db_table)}"
            f" WHERE {match} = %s ORDER BY {ply} DESC LIMIT %s",
            [match_id, EVENT_LOG_LENGTH],
        )
        rows = cursor.fetchall()
    return [
        (who, json.loads(said) if isinstance(said, str) else said, why, at)
        for who, said, why, at in rows
    ]


@dataclass(frozen=True)
class TableData:
    """What one seat (``None``: a spectator) may see of a match's table, as data.

    ``view`` is ``engine.view(state, seat)`` (``None`` before the deal). ``log_append``: the
    log holds only the entry the asking seat's own move just made (that page already shows
    the rest, and puts the new lines on top of its log).
    """

    match: MatchFacts
    seat: SeatFacts | None
    seats: list[SeatFacts]
    view: dict[str, Any] | None
    log: list[LogEntry]
    log_append: bool = False
    deadline_at: datetime.datetime | None = None  # while a person is awaited
    rating_changes: dict[int, SeatChange] = field(default_factory=dict)
    leave: LeaveOptions = field(default_factory=LeaveOptions)  # resign, cancel, leave
    # The table phrases the asker may see among the log's entries (docs/phrases.md); none in
    # a move's answer (``log_append``), whose poll then fetches the table once in full.
    phrases: list[SaidPhrase] = field(default_factory=list)
    # A forming match's seats held for the people invited (docs/invitations.md), and whether
    # the asker is one of its members (creator, seated, invited), who may see who is invited.
    held: list[HeldSeat] = field(default_factory=list)
    member: bool = False
    held_for_me: bool = False

    @property
    def free_seats(self) -> int:
        """The seats anyone may take: neither taken nor held for a person invited."""
        return self.match.num_players - len(self.seats) - len(self.held)


def match_table(
    *,
    match: Match,
    seat: Seat | None,
    seats: Sequence[Seat] | None = None,
    appended: Move | None = None,
    creator: bool = False,
    viewer_id: int | None = None,
) -> TableData:
    """The table for ``seat`` (``None``: a spectator).

    ``seats`` are the match's seats with their users when the caller has read them already.
    ``appended`` is the entry the asking seat's own move just logged: the log is then that
    entry alone, and is not read again. ``creator=True`` reads the creator's name too.
    ``viewer_id``: the person asking when they hold no seat (a creator who only watches may
    still cancel a waiting match).
    """
    seats = list(seats) if seats is not None else match_seats(match_id=match.pk)
    index = None if seat is None else seat.index
    facts = seat_facts(seats)
    people = {s.index for s in seats if not s.bot_plays}
    deadline_at = None
    if match.status == Match.Status.ACTIVE and people.intersection(match.awaiting):
        deadline_at = match.deadline_at
    # One query, and only on a finished table: nothing is rated during play.
    changes = match_rating_changes(match=match) if match.status == Match.Status.FINISHED else {}
    view, log, phrases = None, [], []
    if match.state is not None:
        engine = get_engine(match.game)
        state = engine.load(match.state)
        view = _after_resignations(engine, state, engine.view(state, index), seats, seat)
        if index is not None and view.get("legal_moves"):
            # Why each of the seat's cards or piles offers no move (``Engine.refusals``): its
            # own hand and public facts only, so a click answers in words (no query).
            view = {**view, "refusals": engine.refusals(state, index)}
        if appended is None:
            log = match_log(match=match, seat=index)
            asker = seat.user_id if seat is not None else viewer_id
            phrases = (
                phrases_visible(
                    match=match, viewer_id=asker, seated=seat is not None, since_ply=log[0].ply
                )
                if log
                else []
            )
        else:
            events = engine.redact(appended.events, index)
            log = [
                LogEntry(seat=appended.seat, events=events, auto=appended.auto, ply=appended.ply)
            ]
    asker = seat.user_id if seat is not None else viewer_id
    # One query, and only while the match is forming.
    held = held_seats(match.pk) if match.status == Match.Status.WAITING else []
    held_for_me = asker is not None and any(h.user_id == asker for h in held)
    member = held_for_me or seat is not None or (asker is not None and asker == match.created_by_id)
    return TableData(
        held=held,
        member=member,
        held_for_me=held_for_me,
        match=match_facts(match, creator=creator),
        seat=None if index is None else next(s for s in facts if s.index == index),
        seats=facts,
        view=view,
        log=log,
        log_append=appended is not None,
        deadline_at=deadline_at,
        rating_changes=changes,
        phrases=phrases,
        leave=leave_options(
            match=match, seats=seats, user_id=seat.user_id if seat is not None else viewer_id
        ),
    )


def _after_resignations(
    engine: Engine, state: Any, view: dict[str, Any], seats: Sequence[Seat], seat: Seat | None
) -> dict[str, Any]:
    """``view`` as the site ends it after resignations (docs/leaving.md): a resigner's seat
    offers no move (the bot plays it), and a finished match shows its stored result, the
    resigners last, even when the resignations ended it before the game did."""
    if not any(s.resigned_ply is not None for s in seats):
        return view
    if seats[0].result is not None:  # the match is over: its standings are stored
        ordered = sorted(seats, key=lambda s: s.index)
        table = [Standing(s.result, s.score, s.rank) for s in ordered]
        done = resigned_outcome(engine.outcome(state), table)
        return {**view, "over": True, "outcome": done, "awaiting": [], "legal_moves": []}
    if seat is not None and seat.resigned_ply is not None:
        return {**view, "legal_moves": []}
    return view

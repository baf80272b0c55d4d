"""A match's record (``docs/records.md``) from its rows, for the viewer asking.

The format itself, what a running match's record withholds and how a record is checked are the
pure module's (``games.engines.records``); this only reads the rows: the match and its seats,
which the caller has, and one ``values_list`` over the moves that never loads their events.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.urls import reverse

from games.engines import get_engine
from games.engines.records import RecordEntry, RecordSeat, record_build
from games.engines.resignation import resigned_outcome
from games.engines.results import Standing
from games.models import Match, Move, Seat


def _iso(moment: dt.datetime | None) -> str | None:
    """ISO 8601 in UTC with a ``Z``, to the millisecond (``None`` stays ``None``)."""
    if moment is None:
        return None
    utc = moment.astimezone(dt.UTC)
    return utc.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"


def match_record(
    *, match: Match, seats: Sequence[Seat], names: Sequence[str], viewer_seat: Seat | None
) -> dict:
    """The record of ``match`` as ``viewer_seat`` (``None``: a spectator) may have it, each
    seat under its name in ``names`` (by index, as the pages word them).

    Once the match is over: everything, seed and salt included, so anyone can replay it. While
    it runs (or waits): what every seat may see, no seed, salt, unkeyed hash or secret option
    (``record_build`` decides). ``seats`` are the match's seats with their users. One query.
    """
    engine = get_engine(match.game)
    over = match.status == Match.Status.FINISHED
    rows = (
        Move.objects.filter(match_id=match.pk)
        .order_by("ply")
        .values_list("seat", "payload", "chain_hash", "created_at", "auto")
    )
    entries = [
        RecordEntry(seat=seat, move=move, chain_hash=link, time=_iso(at), auto=auto)
        for seat, move, link, at, auto in rows
    ]
    ordered = sorted(seats, key=lambda s: s.index)
    record_seats = [
        RecordSeat(
            index=s.index,
            name=names[s.index],
            bot_level=s.bot_level,
            username=None if s.user_id is None else s.user.username,
        )
        for s in ordered
    ]
    outcome: dict[str, Any] | None = None
    table: list[Standing] | None = None
    if over:
        outcome = engine.outcome(engine.load(match.state))
        table = [Standing(s.result, s.score, s.rank) for s in ordered]  # as the site stored them
        if any(s.resigned_ply is not None for s in ordered):  # docs/leaving.md
            outcome = resigned_outcome(outcome, table)
    return record_build(
        engine=engine,
        num_players=match.num_players,
        options=match.options,
        seats=record_seats,
        entries=entries,
        seed=match.seed,
        salt=match.salt,
        commitment=match.commitment,
        over=over,
        outcome=outcome,
        table=table,
        status=match.status,
        url=reverse("match_detail", args=[match.pk]),
        created_at=_iso(match.created_at),
        started_at=_iso(match.started_at),
        finished_at=_iso(match.finished_at),
        viewer_seat=None if viewer_seat is None else viewer_seat.index,
    )

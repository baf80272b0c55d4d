"""A person's league and cup notices, read (docs/competitions.md, "Told"): what the notices page
lists and the badge counts, one query each however many: the unseen notices of the last
``NOTICE_DAYS`` days, newest first, with their event's name, kind and game; and, for the
person's data export, their entries and every notice told them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from competitions.models import Entry, Event, EventNotice

# A league notice stays this long unless its league's page is opened (as the ladder's do).
NOTICE_DAYS = 14


@dataclass(frozen=True)
class LeagueNoticeItem:
    """One piece of a league's or a cup's news for the reader, as facts (worded by
    ``competitions.league_notice_words``)."""

    event_id: int
    league: str  # the league's or the cup's name
    game: str
    kind: str  # an ``EventNotice.Kind`` value
    match_id: int | None  # the table opened (``table``; a cup's ``started`` and ``paired``)
    reason: str  # why they were withdrawn (``withdrawn``); a cup's bye or block (``paired``)
    place: int | None  # their place at the end (``ended``; ``None``: withdrawn)
    at: datetime
    cup: bool = False  # the event is a cup (its page and words), not a league
    round: int | None = None  # a cup's round paired (1 the first)


def item_of(notice: EventNotice) -> LeagueNoticeItem:
    """A notice row (its ``event`` joined) as facts."""
    return LeagueNoticeItem(
        event_id=notice.event_id,
        league=notice.event.name,
        game=notice.event.game,
        kind=notice.kind,
        match_id=notice.match_id,
        reason=notice.reason,
        place=notice.place,
        at=notice.at,
        cup=notice.event.kind == Event.Kind.CUP,
        round=_round_of(notice.key),
    )


def _round_of(key: str) -> int | None:
    """The round a cup's ``round-<n>`` key names (``None`` for any other key)."""
    head, _, number = key.partition("-")
    return int(number) if head == "round" and number.isdigit() else None


def _unseen_q(user_id: int) -> Q:
    since = timezone.now() - timedelta(days=NOTICE_DAYS)
    return Q(user_id=user_id, seen_at__isnull=True, at__gte=since)


def league_notices(user_id: int) -> list[LeagueNoticeItem]:
    """The person's unseen league notices, newest first (one query, however many)."""
    rows = (
        EventNotice.objects.filter(_unseen_q(user_id))
        .select_related("event")
        .order_by("-at", "-pk")[:200]
    )
    return [item_of(notice) for notice in rows]


def league_notices_rows(user_id: int) -> QuerySet[EventNotice]:
    """The rows ``league_notices`` lists, for the badge's count (read with the other kinds')."""
    return EventNotice.objects.filter(_unseen_q(user_id))


def events_export(user_id: int) -> dict[str, Any]:
    """The person's leagues and cups for their "your data" file: their entries and every notice
    the events told them (two queries). Names, states, table numbers and places only: no
    table's cards."""
    entries = (
        Entry.objects.filter(user_id=user_id).select_related("event").order_by("entered_at", "pk")
    )
    notices = (
        EventNotice.objects.filter(user_id=user_id).select_related("event").order_by("at", "pk")
    )
    return {
        "entries": [
            {
                "event": e.event_id,
                "name": e.event.name,
                "kind": e.event.kind,
                "game": e.event.game,
                "status": e.event.status,
                "entered_at": e.entered_at.isoformat(),
                "withdrawn": e.withdrawn or None,
            }
            for e in entries
        ],
        "notices": [
            {
                "event": n.event_id,
                "name": n.event.name,
                "kind": n.kind,
                "table": n.match_id,
                "reason": n.reason or None,
                "place": n.place,
                "at": n.at.isoformat(),
                "seen_at": n.seen_at.isoformat() if n.seen_at else None,
                "delivered_at": n.delivered_at.isoformat() if n.delivered_at else None,
            }
            for n in notices
        ],
    }

"""A person's league notices, read (docs/competitions.md, "Told"): what the notices page lists
and the badge counts, one query each however many: the unseen notices of the last
``NOTICE_DAYS`` days, newest first, with their league's name and game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from competitions.models import EventNotice

# A league notice stays this long unless its league's page is opened (as the ladder's do).
NOTICE_DAYS = 14


@dataclass(frozen=True)
class LeagueNoticeItem:
    """One piece of a league's news for the reader, as facts (worded by
    ``competitions.league_notice_words``)."""

    event_id: int
    league: str  # the league's name
    game: str
    kind: str  # an ``EventNotice.Kind`` value
    match_id: int | None  # the table opened (``table``)
    reason: str  # why they were withdrawn (``withdrawn``)
    place: int | None  # their place at the end (``ended``; ``None``: withdrawn)
    at: datetime


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
    )


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

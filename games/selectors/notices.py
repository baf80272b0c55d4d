"""What awaits a person, as data: the matches waiting for their move and the finished matches
they have not seen since the end (the notices page, ``games.views.notices``, and the badge).

Each kind has a count (one query, for the badge) and its items (constant statements however
many: one query for the person's seats with their matches, one for those matches' seats).
Only matches the person sits at are listed, so a private match is never shown to an outsider,
and an item holds public facts only (the game, the seats' names, the person's own result).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils import timezone

from games.engines import get_engine
from games.models import Match, MatchNotice, Seat
from games.selectors.facts import SeatFacts, seat_facts

# A finished match stays a notice this long unless its table is opened; older results are
# history (an account that predates the notices does not open on years of them).
FINISHED_NOTICE_DAYS = 14


@dataclass(frozen=True)
class MatchNoticeItem:
    """One match on the notices page: its public facts and the person's own seat."""

    match_id: int
    game: str
    title: str  # the game's title, from its engine
    num_players: int
    seats: list[SeatFacts]
    own_index: int
    since: datetime.datetime | None  # awaited since, or finished at
    result: str | None = None  # the person's result once finished (a ``Result`` value)
    rank: int | None = None


def _awaited(user_id: int) -> QuerySet[Seat]:
    return Seat.objects.filter(
        user_id=user_id, awaited_since__isnull=False, match__status=Match.Status.ACTIVE
    )


def _finished_unseen(user_id: int) -> QuerySet[Seat]:
    """The person's seats at matches finished lately whose table they have not been served in
    full since the finish (``MatchNotice.seen_at``)."""
    seen = MatchNotice.objects.filter(
        user_id=OuterRef("user_id"),
        match_id=OuterRef("match_id"),
        seen_at__gte=OuterRef("match__finished_at"),
    )
    recent = timezone.now() - datetime.timedelta(days=FINISHED_NOTICE_DAYS)
    return Seat.objects.filter(
        user_id=user_id, match__status=Match.Status.FINISHED, match__finished_at__gte=recent
    ).exclude(Exists(seen))


def turns_waiting_count(user_id: int) -> int:
    """How many matches wait for the person's move (one count)."""
    return _awaited(user_id).count()


def turns_waiting_rows(user_id: int) -> QuerySet[Seat]:
    """The rows ``turns_waiting_count`` counts, for a count read with others (the badge)."""
    return _awaited(user_id)


def finished_unseen_rows(user_id: int) -> QuerySet[Seat]:
    """The rows of the finished matches the person has not seen, for the badge's count."""
    return _finished_unseen(user_id)


def turns_waiting(user_id: int) -> list[MatchNoticeItem]:
    """The matches waiting for the person's move, longest waiting first (two queries)."""
    return _items(_awaited(user_id).order_by("awaited_since"), finished=False)


@dataclass(frozen=True)
class NextTable:
    """The table waiting longest for the person's move, and how many wait (``next_table``)."""

    match_id: int
    waiting: int


def next_table(user_id: int, *, after: int | None = None) -> NextTable | None:
    """The match that has waited longest for the person's move, leaving out ``after`` (the
    table they are at), with the number of such matches; ``None`` when none waits (one
    query: the turns list's matches, ordered as that list is)."""
    awaited = _awaited(user_id)
    if after is not None:
        awaited = awaited.exclude(match_id=after)
    ids = list(awaited.order_by("awaited_since", "match_id").values_list("match_id", flat=True))
    return NextTable(match_id=ids[0], waiting=len(ids)) if ids else None


def finished_unseen(user_id: int) -> list[MatchNoticeItem]:
    """The lately finished matches the person has not seen, latest first (two queries)."""
    return _items(_finished_unseen(user_id).order_by(F("match__finished_at").desc()), finished=True)


def _items(own: QuerySet[Seat], *, finished: bool) -> list[MatchNoticeItem]:
    rows = list(own.select_related("match"))
    if not rows:
        return []
    others: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(match_id__in=[r.match_id for r in rows])
        .select_related("user")
        .order_by("match_id", "index")
    ):
        others.setdefault(seat.match_id, []).append(seat)
    return [
        MatchNoticeItem(
            match_id=r.match_id,
            game=r.match.game,
            title=get_engine(r.match.game).title,
            num_players=r.match.num_players,
            seats=seat_facts(others.get(r.match_id, [])),
            own_index=r.index,
            since=r.match.finished_at if finished else r.awaited_since,
            result=r.result if finished else None,
            rank=r.rank if finished else None,
        )
        for r in rows
    ]

"""Opening a league's tables (docs/competitions.md, "Tables"): in schedule order, each as soon
as everyone at it has room under the league's cap of open tables, as a real private match with
the scheduled people in the scheduled seats. A table that seats a withdrawn person, or two
people a block stands between, is never opened.

Run at the start and by the leagues' sweep (``competitions.league_sweep``), always under the
league's row lock, in a constant number of statements however big the league: one read of its
pending tables, one of its people's open seats, one of their blocks, the matches made in bulk
(``games.services.matches.matches_start_seated``), one update of the tables.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import Count
from django.utils import timezone

from accounts.selectors.relations import blocked_pairs_among
from competitions.league_notices import tables_tell
from competitions.models import Entry, Event, EventTable
from games.models import Match, Seat
from games.services.matches import SeatedTable, matches_start_seated

# League tables are unrated: a table may be finished by the bots (after a withdrawal, past its
# allowance or at the league's end), so its result is not the person's own play throughout, and
# a league's standings are its own measure (docs/competitions.md).
RATED = False


def league_tables_open(*, event: Event, now: Any = None, tell: bool = True) -> int:
    """Open every pending table of ``event`` whose people all have room, in schedule order;
    drop those that can never open. The caller holds the league's lock. ``tell``: each
    person at a table opened is told (one bulk statement; the start tells its own way).
    Returns how many tables opened."""
    now = now or timezone.now()
    pending = list(
        EventTable.objects.filter(event_id=event.pk, match__isnull=True, dropped="").order_by(
            "number", "circle"
        )
    )
    if not pending:
        return 0
    open_count: Counter[int] = Counter(
        dict(
            Seat.objects.filter(
                match__event_table__event_id=event.pk,
                match__status=Match.Status.ACTIVE,
                resigned_ply__isnull=True,
                user_id__isnull=False,
            )
            .values_list("user_id")
            .annotate(n=Count("pk"))
            .values_list("user_id", "n")
        )
    )
    gone = set(
        Entry.objects.filter(event_id=event.pk)
        .exclude(withdrawn="")
        .values_list("user_id", flat=True)
    )
    people = {user for circle in event.draw for user in circle}
    blocks = blocked_pairs_among(people)
    opening: list[tuple[EventTable, tuple[int, ...]]] = []
    dropped: list[EventTable] = []
    for table in pending:
        users = tuple(event.draw[table.circle][label] for label in table.labels)
        if any(user in gone for user in users):
            table.dropped = EventTable.Dropped.WITHDRAWN
            dropped.append(table)
        elif any(frozenset((a, b)) in blocks for a in users for b in users if a < b):
            table.dropped = EventTable.Dropped.BLOCK
            dropped.append(table)
        elif all(open_count[user] < event.open_tables_most for user in users):
            open_count.update(users)
            opening.append((table, users))
    matches = matches_start_seated(
        game=event.game,
        tables=[SeatedTable(user_ids=users) for _, users in opening],
        deadline_days=event.deadline_days,
        holidays=event.holidays,
        rated=RATED,
    )
    for (table, _), match in zip(opening, matches, strict=True):
        table.match = match
        table.opened_at = now
    changed = [table for table, _ in opening] + dropped
    if changed:
        EventTable.objects.bulk_update(changed, ["match", "opened_at", "dropped"])
    if tell and opening:
        tables_tell(
            event_id=event.pk,
            opened=[(table.match_id, users) for table, users in opening],
            now=now,
        )
    return len(opening)

"""A league's start (docs/competitions.md, "The start"): the draw, the schedule's tables, the
first tables opened, in one transaction under the league's lock and a constant number of
statements however many people entered.

The draw is random (the operating system's generator: nobody can predict or replay it) and
kept in the league's row, so its record says who took which label. A league starting when full
seats everyone; one starting at a time seats the earliest entries that fill whole circles and
tells the rest there was no room (their entries are marked so), and with not even one circle
full it is cancelled.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from competitions.league_notices import league_tell
from competitions.league_tables import league_tables_open
from competitions.league_terms import league_length
from competitions.models import Entry, Event, EventNotice, EventTable
from competitions.schedules import league_schedule

_draw_random = random.SystemRandom()


def league_start(*, event: Event, now: Any = None) -> Event:
    """Start ``event`` now if it is still open (anything else: left as it is). The caller may
    hold its lock already (an entry filling it); it is taken here otherwise."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.status != Event.Status.OPEN:
            return locked
        entries = list(
            Entry.objects.filter(event_id=locked.pk, withdrawn="")
            .order_by("entered_at", "pk")
            .values_list("pk", "user_id")
        )
        whole = min(len(entries) // locked.circle_size, locked.circles)
        if whole == 0:
            locked.status = Event.Status.CANCELLED
            locked.finished_at = now
            locked.save(update_fields=["status", "finished_at"])
            return locked
        seated = entries[: whole * locked.circle_size]
        left = entries[whole * locked.circle_size :]
        if left:
            Entry.objects.filter(pk__in=[pk for pk, _ in left]).update(
                withdrawn=Entry.Withdrawn.NO_ROOM, withdrawn_at=now
            )
            league_tell(
                event_id=locked.pk,
                user_ids=[user_id for _, user_id in left],
                kind=EventNotice.Kind.WITHDRAWN,
                reason=Entry.Withdrawn.NO_ROOM,
                now=now,
            )
        people = [user_id for _, user_id in seated]
        _draw_random.shuffle(people)
        size = locked.circle_size
        locked.draw = [people[c * size : (c + 1) * size] for c in range(whole)]
        locked.circles = whole
        schedule = league_schedule(size, locked.seats)
        EventTable.objects.bulk_create(
            EventTable(event=locked, circle=circle, number=number, labels=list(labels))
            for circle in range(whole)
            for number, labels in enumerate(schedule.tables)
        )
        locked.status = Event.Status.RUNNING
        locked.started_at = now
        locked.ends_at = now + league_length(
            circle_size=size,
            seats=locked.seats,
            open_most=locked.open_tables_most,
            deadline_days=locked.deadline_days,
            spans=settings.PARLOUR_LEAGUE_TABLE_SPANS,
        )
        locked.save(update_fields=["draw", "circles", "status", "started_at", "ends_at"])
        # "Your first tables are open": one notice each, not one a table.
        league_tables_open(event=locked, now=now, tell=False)
        league_tell(event_id=locked.pk, user_ids=people, kind=EventNotice.Kind.STARTED, now=now)
    return locked

"""The leagues' sweep (docs/competitions.md, "Never waiting"), run by beat every
``PARLOUR_LEAGUE_EVERY`` seconds: start the leagues whose time came, and for each running
league withdraw the people absent too often, have the bots finish the tables past their
allowance, open the tables people now have room for, and end the league on its day; then
mail and push what the leagues and the ladder told (``competitions.notice_delivery``).

A league ends on its stated day whatever happens: at the first sweep at or after ``ends_at``
every table still running is played to its end by the bots (``games.services.play_out``) and
every table never opened is marked not played.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from competitions.league_entries import league_withdraw
from competitions.league_standings import forfeit_counts
from competitions.league_start import league_start
from competitions.league_tables import league_tables_open
from competitions.league_terms import table_allowance
from competitions.models import Entry, Event, EventTable
from competitions.notice_delivery import notices_deliver
from competitions.signals import event_finished
from games.models import Match
from games.services.play_out import match_play_out

logger = logging.getLogger(__name__)


def leagues_sweep(*, now: Any = None) -> int:
    """One sweep of every league that needs one. Returns how many leagues it looked at."""
    now = now or timezone.now()
    due = Event.objects.filter(
        kind=Event.Kind.LEAGUE, status=Event.Status.OPEN, starts_at__lte=now
    ).values_list("pk", flat=True)
    for event_id in list(due):
        league_start(event=Event(pk=event_id), now=now)
    running = list(
        Event.objects.filter(kind=Event.Kind.LEAGUE, status=Event.Status.RUNNING).values_list(
            "pk", flat=True
        )
    )
    for event_id in running:
        league_tend(event_id=event_id, now=now)
    notices_deliver(now=now)  # what the leagues and the ladder told, mailed and pushed
    return len(running)


def league_tend(*, event_id: int, now: Any = None) -> Event:
    """Everything a running league needs now, in order: absences, tables past their
    allowance, new tables, and the end on its day."""
    now = now or timezone.now()
    event = Event.objects.get(pk=event_id)
    if event.status != Event.Status.RUNNING:
        return event
    if event.ends_at is not None and now >= event.ends_at:
        return league_end(event=event, now=now)
    absentees_withdraw(event, now)
    allowance = table_allowance(
        deadline_days=event.deadline_days, spans=settings.PARLOUR_LEAGUE_TABLE_SPANS
    )
    overdue = EventTable.objects.filter(
        event_id=event.pk, match__status=Match.Status.ACTIVE, opened_at__lte=now - allowance
    ).values_list("match_id", flat=True)
    for match_id in list(overdue):
        match_play_out(match_id=match_id)
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.status == Event.Status.RUNNING:
            league_tables_open(event=locked, now=now)
    return locked


def absentees_withdraw(event: Event, now: Any) -> None:
    """Withdraw everyone whose forfeits reached the league's limit."""
    counts = forfeit_counts(event)
    playing = set(
        Entry.objects.filter(event_id=event.pk, withdrawn="").values_list("user_id", flat=True)
    )
    for user_id, forfeits in counts.items():
        if user_id in playing and forfeits >= event.absences_most:
            league_withdraw(
                event_id=event.pk, user_id=user_id, reason=Entry.Withdrawn.ABSENT, now=now
            )


def league_end(*, event: Event, now: Any = None) -> Event:
    """The event's day came (a league's, or a cup's): the bots play every running table to its
    end, the tables never opened are not played, and the event is finished (if a play-out
    stopped short, the next sweep goes on and finishes it). ``event_finished`` is sent after the
    commit; its receiver tells everyone their place."""
    now = now or timezone.now()
    running = EventTable.objects.filter(
        event_id=event.pk, match__status=Match.Status.ACTIVE
    ).values_list("match_id", flat=True)
    for match_id in list(running):
        match_play_out(match_id=match_id)
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.status != Event.Status.RUNNING:
            return locked
        if EventTable.objects.filter(
            event_id=locked.pk, match__status=Match.Status.ACTIVE
        ).exists():
            logger.warning("league %s: a table is still running at its end", locked.pk)
            return locked
        EventTable.objects.filter(event_id=locked.pk, match__isnull=True, dropped="").update(
            dropped=EventTable.Dropped.ENDED
        )
        locked.status = Event.Status.FINISHED
        locked.finished_at = now
        locked.save(update_fields=["status", "finished_at"])
        # Its people are told their places by the receiver of ``event_finished`` (a league's
        # circle standings or a cup's Swiss ones), after the commit: competitions.event_notices.
        transaction.on_commit(
            lambda: event_finished.send(sender=Event, event_id=locked.pk, kind=locked.kind)
        )
    return locked

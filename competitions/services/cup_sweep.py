"""The cups' sweep (docs/competitions.md, "Cups"), run by beat every ``PARLOUR_LEAGUE_EVERY``
seconds: start the occurrences whose time came, tend each running one (withdraw the people
absent too often, have the bots finish a round's tables past its allowance, pair the next round
once every table of the last has finished, end the cup on its day), and make each active
series' next occurrence once its last one has left the "open" state.

A cup ends on its stated day whatever happens: at the first sweep at or after ``ends_at`` its
running tables are played out by the bots (the leagues' end, ``league_end``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from competitions.cup_terms import next_start, round_due
from competitions.league_sweep import absentees_withdraw, league_end
from competitions.models import CupSeries, Event, EventTable
from competitions.services.cups import cup_round_pair, cup_start
from games.models import Match
from games.services.play_out import match_play_out


def cups_sweep(*, now: Any = None) -> int:
    """One sweep of every cup that needs one. Returns how many running cups it tended."""
    now = now or timezone.now()
    due = Event.objects.filter(
        kind=Event.Kind.CUP, status=Event.Status.OPEN, starts_at__lte=now
    ).values_list("pk", flat=True)
    for event_id in list(due):
        cup_start(event=Event(pk=event_id), now=now)
    running = list(
        Event.objects.filter(kind=Event.Kind.CUP, status=Event.Status.RUNNING).values_list(
            "pk", flat=True
        )
    )
    for event_id in running:
        cup_tend(event_id=event_id, now=now)
    occurrences_make(now=now)
    return len(running)


def occurrences_make(*, now: Any = None) -> int:
    """Give every active series with no occurrence open to enter its next one. Returns how
    many were made."""
    now = now or timezone.now()
    made = 0
    waiting = CupSeries.objects.filter(active=True).exclude(occurrences__status=Event.Status.OPEN)
    for series_id in list(waiting.values_list("pk", flat=True)):
        made += occurrence_make(series_id=series_id, now=now) is not None
    return made


def occurrence_make(*, series_id: int, now: Any = None) -> Event | None:
    """The series' next occurrence, open to enter, unless it has one open already (under the
    series' row lock, so two sweeps make one)."""
    now = now or timezone.now()
    with transaction.atomic():
        series = CupSeries.objects.select_for_update().get(pk=series_id)
        if not series.active or series.occurrences.filter(status=Event.Status.OPEN).exists():
            return None
        starts_at = None
        if series.weekday is not None and series.start_time is not None:
            starts_at = next_start(
                after=now,
                weekday=series.weekday,
                at=series.start_time,
                zone=timezone.get_default_timezone(),
            )
        return Event.objects.create(
            kind=Event.Kind.CUP,
            series=series,
            name=series.name,
            game=series.game,
            seats=series.seats,
            circle_size=series.places_most,
            circles=1,
            deadline_days=series.deadline_days,
            holidays=series.holidays,
            open_tables_most=1,
            absences_most=series.absences_most,
            rating_min=series.rating_min,
            rating_max=series.rating_max,
            starts_at=starts_at,
            places_least=series.places_least,
            rounds=series.rounds,
        )


def cup_tend(*, event_id: int, now: Any = None) -> Event:
    """Everything a running cup needs now, in order: its end on its day; absences; the bots
    finishing the round's tables past its allowance; the next round once this one is over."""
    now = now or timezone.now()
    event = Event.objects.get(pk=event_id)
    if event.status != Event.Status.RUNNING:
        return event
    if event.ends_at is not None and now >= event.ends_at:
        return league_end(event=event, now=now)
    absentees_withdraw(event, now)
    spans = settings.PARLOUR_LEAGUE_TABLE_SPANS
    if event.round_started_at is not None and now >= round_due(
        round_started_at=event.round_started_at, deadline_days=event.deadline_days, spans=spans
    ):
        overdue = EventTable.objects.filter(
            event_id=event.pk, match__status=Match.Status.ACTIVE
        ).values_list("match_id", flat=True)
        for match_id in list(overdue):
            match_play_out(match_id=match_id)
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if (
            locked.status == Event.Status.RUNNING
            and locked.round < locked.rounds
            and not EventTable.objects.filter(
                event_id=locked.pk, match__status=Match.Status.ACTIVE
            ).exists()
        ):
            cup_round_pair(event=locked, now=now)
    return locked

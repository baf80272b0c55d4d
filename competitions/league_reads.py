"""Leagues, read as data for their pages (docs/competitions.md): the list of leagues by state,
and one league's page (its entries, tables, standings, the asker's entry). A league's page costs
the same few statements however many people it has: the league, its entries with their names,
its tables with their matches' state, and the standings' two (``league_standings``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from competitions.league_standings import CircleStandings, league_standings
from competitions.models import Entry, Event, EventTable


@dataclass(frozen=True)
class EntryFacts:
    user_id: int
    name: str
    withdrawn: str  # an ``Entry.Withdrawn`` value, "" while playing


@dataclass(frozen=True)
class TableFacts:
    circle: int
    number: int
    user_ids: tuple[int, ...]  # in seat order; empty before the draw
    match_id: int | None
    match_status: str | None  # the match's status, ``None`` before it opens
    dropped: str


@dataclass(frozen=True)
class LeaguePage:
    event: Event
    entries: list[EntryFacts]
    names: dict[int, str]
    tables: list[TableFacts]
    standings: list[CircleStandings]
    mine: EntryFacts | None


def leagues_listed() -> dict[str, list[Event]]:
    """The leagues by state: open to enter, running, finished (newest first; one query)."""
    listed: dict[str, list[Event]] = {s: [] for s in (Event.Status.OPEN, "running", "finished")}
    for event in Event.objects.filter(kind=Event.Kind.LEAGUE).exclude(
        status=Event.Status.CANCELLED
    )[:300]:
        listed[event.status].append(event)
    return listed


def entry_counts(event_ids: list[int]) -> dict[int, int]:
    """How many people are in each league (withdrawn ones left out; one query)."""
    rows = (
        Entry.objects.filter(event_id__in=event_ids, withdrawn="")
        .values_list("event_id")
        .annotate(n=Count("pk"))
        .values_list("event_id", "n")
    )
    return dict(rows)


def league_page(*, event_id: int, user_id: int | None) -> LeaguePage | None:
    """Everything the league's page shows, or ``None`` for no such league."""
    event = Event.objects.filter(pk=event_id, kind=Event.Kind.LEAGUE).first()
    if event is None:
        return None
    entries = [
        EntryFacts(user_id=u, name=name, withdrawn=w)
        for u, name, w in Entry.objects.filter(event_id=event.pk)
        .order_by("entered_at", "pk")
        .values_list("user_id", "user__username", "withdrawn")
    ]
    names = {e.user_id: e.name for e in entries}
    tables: list[TableFacts] = []
    rows: Any = (
        EventTable.objects.filter(event_id=event.pk)
        .order_by("circle", "number")
        .values_list("circle", "number", "labels", "match_id", "match__status", "dropped")
    )
    for circle, number, labels, match_id, status, dropped in rows:
        people = event.draw[circle] if circle < len(event.draw) else []
        tables.append(
            TableFacts(
                circle=circle,
                number=number,
                user_ids=tuple(people[label] for label in labels) if people else (),
                match_id=match_id,
                match_status=status,
                dropped=dropped,
            )
        )
    withdrawn = {e.user_id for e in entries if e.withdrawn}
    standings = league_standings(event=event, withdrawn=withdrawn) if event.draw else []
    mine = next((e for e in entries if e.user_id == user_id), None)
    return LeaguePage(
        event=event,
        entries=entries,
        names=names,
        tables=tables,
        standings=standings,
        mine=mine,
    )

"""Cups, read as data for their pages (docs/competitions.md, "Cups"): the list of occurrences
by state (with each series' next one), and one occurrence's page: its entries, its rounds'
tables, its standings and the reader's entry. A cup's page costs the same few statements however
many people it has: the cup, its entries with their names, its tables with their matches' state,
and the standings' three (``competitions.cup_standings``)."""

from __future__ import annotations

from dataclasses import dataclass

from competitions.cup_scoring import CupLine
from competitions.cup_standings import cup_results
from competitions.league_reads import EntryFacts, TableFacts, entry_counts
from competitions.models import Entry, Event, EventTable


@dataclass(frozen=True)
class CupListed:
    """One occurrence in the list and how many people are in it."""

    event: Event
    people: int


@dataclass(frozen=True)
class RoundFacts:
    number: int  # 1 the first
    tables: list[TableFacts]  # top table first, byes last


@dataclass(frozen=True)
class CupPage:
    event: Event
    entries: list[EntryFacts]
    names: dict[int, str]
    rounds: list[RoundFacts]
    standings: list[CupLine]
    mine: EntryFacts | None


def cups_listed() -> dict[str, list[CupListed]]:
    """The cups by state: open to enter (each series' next occurrence), running, finished
    (newest first; two queries)."""
    events = list(
        Event.objects.filter(kind=Event.Kind.CUP)
        .exclude(status=Event.Status.CANCELLED)
        .select_related("series")[:300]
    )
    counts = entry_counts([event.pk for event in events])
    listed: dict[str, list[CupListed]] = {s: [] for s in ("open", "running", "finished")}
    for event in events:
        listed[event.status].append(CupListed(event=event, people=counts.get(event.pk, 0)))
    return listed


def cup_page(*, event_id: int, user_id: int | None) -> CupPage | None:
    """Everything the cup's page shows, or ``None`` for no such cup."""
    event = Event.objects.filter(pk=event_id, kind=Event.Kind.CUP).select_related("series").first()
    if event is None:
        return None
    entries = [
        EntryFacts(user_id=u, name=name, withdrawn=w)
        for u, name, w in Entry.objects.filter(event_id=event.pk)
        .order_by("entered_at", "pk")
        .values_list("user_id", "user__username", "withdrawn")
    ]
    names = {e.user_id: e.name for e in entries}
    rounds: dict[int, list[TableFacts]] = {}
    rows = (
        EventTable.objects.filter(event_id=event.pk)
        .order_by("circle", "number")
        .values_list("circle", "number", "labels", "match_id", "match__status", "dropped")
    )
    for circle, number, labels, match_id, status, dropped in rows:
        rounds.setdefault(circle, []).append(
            TableFacts(
                circle=circle,
                number=number,
                user_ids=tuple(labels),
                match_id=match_id,
                match_status=status,
                dropped=dropped,
            )
        )
    withdrawn = {e.user_id for e in entries if e.withdrawn}
    standings = cup_results(event=event, withdrawn=withdrawn).lines if event.draw else []
    return CupPage(
        event=event,
        entries=entries,
        names=names,
        rounds=[RoundFacts(number=c + 1, tables=t) for c, t in sorted(rounds.items())],
        standings=standings,
        mine=next((e for e in entries if e.user_id == user_id), None),
    )

"""A league's page in words, pure (docs/competitions.md): its terms, when it ends, each table's
state and the standings' lines with names. Dates stay dates: the template shows them in the
reader's time zone."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from competitions.league_reads import LeaguePage, TableFacts
from competitions.models import Entry, Event, EventTable
from competitions.schedules import league_schedule
from games.engines import get_engine
from games.models import Match


@dataclass(frozen=True)
class StandingLine:
    place: str
    name: str
    points: int
    played: int
    won: int
    forfeits: int
    note: str
    mine: bool


@dataclass(frozen=True)
class TableLine:
    circle: int
    number: int
    people: str
    state: str
    match_id: int | None
    linked: bool  # the reader sits there, so its page is open to them


def terms_line(event: Event) -> str:
    """What a league is, in one sentence."""
    schedule = league_schedule(event.circle_size, event.seats)
    each = schedule.tables_each
    meets = "once" if schedule.meetings == 1 else f"{schedule.meetings} times"
    holidays = "holidays allowed" if event.holidays else "no holidays: the deadline always runs"
    return (
        f"{get_engine(event.game).title} at tables of {event.seats}, in circles of "
        f"{event.circle_size}: each person plays {each} tables, at most "
        f"{event.open_tables_most} at once, and meets everyone in their circle {meets}. "
        f"A {event.deadline_days}-day turn deadline, {holidays}. "
        f"{event.absences_most} forfeits and you are withdrawn."
    )


def end_sentence(event: Event, length: dt.timedelta) -> str:
    """When the league ends, as entry promises it (dates are the template's when known)."""
    days = length.days
    if event.status == Event.Status.OPEN and event.starts_at is None:
        return (
            f"Starts when its {event.places} places are taken, and ends {days} days later, "
            "whatever happens."
        )
    return f"Ends {days} days after it starts, whatever happens."


def _table_state(table: TableFacts) -> str:
    if table.dropped:
        return EventTable.Dropped(table.dropped).label
    if table.match_status is None:
        return "Waiting for room"
    if table.match_status == Match.Status.ACTIVE:
        return "Being played"
    return "Finished"


def table_lines(page: LeaguePage, user_id: int | None) -> list[TableLine]:
    return [
        TableLine(
            circle=t.circle + 1,
            number=t.number + 1,
            people=", ".join(page.names.get(u, "?") for u in t.user_ids),
            state=_table_state(t),
            match_id=t.match_id,
            linked=t.match_id is not None and user_id in t.user_ids,
        )
        for t in page.tables
    ]


def standing_lines(page: LeaguePage, user_id: int | None) -> list[tuple[int, list[StandingLine]]]:
    withdrawn = {e.user_id: e.withdrawn for e in page.entries}
    return [
        (
            circle.circle + 1,
            [
                StandingLine(
                    place="" if row.place is None else str(row.place),
                    name=page.names.get(int(row.user), "?"),
                    points=row.points,
                    played=row.played,
                    won=row.won,
                    forfeits=row.forfeits,
                    note=Entry.Withdrawn(withdrawn.get(int(row.user), "")).label
                    if row.withdrawn
                    else "",
                    mine=row.user == user_id,
                )
                for row in circle.rows
            ],
        )
        for circle in page.standings
    ]


def entry_refusal_hint(event: Event) -> str:
    """What entering asks of a person, said before they press."""
    gates = ["a confirmed e-mail address", "turn mails or turn pushes on"]
    if event.rating_min is not None or event.rating_max is not None:
        low = event.rating_min if event.rating_min is not None else "any"
        high = event.rating_max if event.rating_max is not None else "any"
        gates.append(f"a rating from {low} to {high}")
    return "Entering needs " + ", ".join(gates) + "."


def entry_lines(page: LeaguePage) -> list[tuple[str, str]]:
    """Each entry's name, and why they no longer play ("" while they do)."""
    return [
        (e.name, Entry.Withdrawn(e.withdrawn).label if e.withdrawn else "") for e in page.entries
    ]

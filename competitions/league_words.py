"""A league's page in words, pure (docs/competitions.md): its terms, when it ends, each table's
state and the standings' lines with names. Dates stay dates: the template shows them in the
reader's time zone."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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
    if schedule.meetings == 1:
        meets = _("once")
    else:
        meets = ngettext("%(count)d time", "%(count)d times", schedule.meetings) % {
            "count": schedule.meetings
        }
    if event.holidays:
        holidays = _("holidays allowed")
    else:
        holidays = _("no holidays: the deadline always runs")
    play = _(
        "%(game)s at tables of %(seats)s, in circles of %(circle)s: each person plays %(each)s "
        "tables, at most %(open)s at once, and meets everyone in their circle %(meets)s."
    ) % {
        "game": get_engine(event.game).title,
        "seats": event.seats,
        "circle": event.circle_size,
        "each": each,
        "open": event.open_tables_most,
        "meets": meets,
    }
    deadline = ngettext(
        "A %(days)s-day turn deadline, %(holidays)s.",
        "A %(days)s-day turn deadline, %(holidays)s.",
        event.deadline_days,
    ) % {
        "days": event.deadline_days,
        "holidays": holidays,
    }
    forfeits = _("%(most)s forfeits and you are withdrawn.") % {"most": event.absences_most}
    return f"{play} {deadline} {forfeits}"


def end_sentence(event: Event, length: dt.timedelta) -> str:
    """When the league ends, as entry promises it (dates are the template's when known)."""
    days = length.days
    if event.status == Event.Status.OPEN and event.starts_at is None:
        return _(
            "Starts when its %(places)s places are taken, and ends %(days)s days later, "
            "whatever happens."
        ) % {"places": event.places, "days": days}
    return _("Ends %(days)s days after it starts, whatever happens.") % {"days": days}


def _table_state(table: TableFacts) -> str:
    if table.dropped:
        return EventTable.Dropped(table.dropped).label
    if table.match_status is None:
        return _("Waiting for room")
    if table.match_status == Match.Status.ACTIVE:
        return _("Being played")
    return _("Finished")


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
    if event.rating_min is None and event.rating_max is None:
        return _("Entering needs a confirmed e-mail address, turn mails or turn pushes on.")
    low = event.rating_min if event.rating_min is not None else _("any")
    high = event.rating_max if event.rating_max is not None else _("any")
    return _(
        "Entering needs a confirmed e-mail address, turn mails or turn pushes on, a rating "
        "from %(low)s to %(high)s."
    ) % {"low": low, "high": high}


def entry_lines(page: LeaguePage) -> list[tuple[str, str]]:
    """Each entry's name, and why they no longer play ("" while they do)."""
    return [
        (e.name, Entry.Withdrawn(e.withdrawn).label if e.withdrawn else "") for e in page.entries
    ]

"""A cup's pages in words, pure (docs/competitions.md, "Cups"): its terms, when it starts and
ends, each round's tables and their states, the standings' and entries' lines with names. Dates
stay dates: the templates show them in the reader's time zone and language."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.dates import WEEKDAYS
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines import get_engine

if TYPE_CHECKING:
    from competitions.league_reads import TableFacts
    from competitions.models import Event
    from competitions.selectors.cups import CupPage


@dataclass(frozen=True)
class CupStandingLine:
    place: str
    name: str
    points: float
    buchholz: float
    won: int
    played: int
    byes: int
    forfeits: int
    note: str
    mine: bool


@dataclass(frozen=True)
class CupTableLine:
    number: int
    people: str
    state: str
    match_id: int | None
    linked: bool  # the reader sits there, so its page is open to them


def withdrawn_words(reason: str) -> str:
    """Why an entry no longer plays, in words ("" while it does)."""
    words = {  # ``Entry.Withdrawn``'s values
        "self": _("Withdrew"),
        "absent": _("Withdrawn after too many absences"),
        "account": _("Account closed or deleted"),
        "no_room": _("Not seated: no place left"),
    }
    return words.get(reason, "")


def status_words(event: Event) -> str:
    words = {  # ``Event.Status``' values
        "open": _("Open to enter"),
        "running": _("Running"),
        "finished": _("Finished"),
        "cancelled": _("Cancelled: too few entries"),
    }
    return words.get(event.status, "")


def when_line(event: Event) -> str:
    """When the cup starts: its series' weekday and time, or when its places are taken."""
    series = event.series
    if series is not None and series.weekday is not None and series.start_time is not None:
        return _(
            "Every %(weekday)s at %(time)s, with at least %(least)d people; the next starts on"
            " the date below."
        ) % {
            "weekday": WEEKDAYS[series.weekday],
            "time": time_format(series.start_time, "H:i"),
            "least": max(event.places_least, 2),
        }
    return ngettext(
        "Starts as soon as its %(places)d place is taken.",
        "Starts as soon as its %(places)d places are taken.",
        event.places,
    ) % {"places": event.places}


def recurrence_words(event: Event) -> str:
    """How the cup's series recurs, in a few words for the list."""
    series = event.series
    if series is not None and series.weekday is not None and series.start_time is not None:
        return _("Every %(weekday)s at %(time)s") % {
            "weekday": WEEKDAYS[series.weekday],
            "time": time_format(series.start_time, "H:i"),
        }
    return _("Whenever full")


def terms_line(event: Event) -> str:
    """What the cup is, in a few sentences."""
    rounds = ngettext(
        "%(game)s at tables of %(seats)d, %(rounds)d Swiss round.",
        "%(game)s at tables of %(seats)d, %(rounds)d Swiss rounds.",
        event.rounds,
    ) % {"game": get_engine(event.game).title, "seats": event.seats, "rounds": event.rounds}
    pairing = _(
        "Each round is paired from the standings once every table of the one before has"
        " finished: tables filled top down by points, then people moved to avoid meeting"
        " again and to balance who moves first."
    )
    deadline = ngettext(
        "A %(days)d-day turn deadline.", "A %(days)d-day turn deadline.", event.deadline_days
    ) % {"days": event.deadline_days}
    holidays = (
        _("Holidays allowed.") if event.holidays else _("No holidays: the deadline always runs.")
    )
    absences = ngettext(
        "%(count)d forfeit and you are withdrawn.",
        "%(count)d forfeits and you are withdrawn.",
        event.absences_most,
    ) % {"count": event.absences_most}
    return " ".join([rounds, pairing, deadline, holidays, absences])


def length_sentence(length: dt.timedelta) -> str:
    """How long the cup lasts, said before it starts."""
    return ngettext(
        "Ends %(days)d day after it starts, whatever happens.",
        "Ends %(days)d days after it starts, whatever happens.",
        length.days,
    ) % {"days": length.days}


def gates_line(event: Event) -> str:
    """What entering asks of a person, said before they press."""
    if event.rating_min is None and event.rating_max is None:
        return _("Entering needs a confirmed e-mail address and turn mails or turn pushes on.")
    return _(
        "Entering needs a confirmed e-mail address, turn mails or turn pushes on, and a"
        " rating from %(low)s to %(high)s."
    ) % {
        "low": "-" if event.rating_min is None else event.rating_min,
        "high": "-" if event.rating_max is None else event.rating_max,
    }


def table_state(table: TableFacts) -> str:
    if table.dropped == "bye":  # ``EventTable.Dropped``' values
        return _("A bye: half a point")
    if table.dropped == "block":
        return _("Not played: a block stands between two people at it")
    if table.dropped:
        return _("Not played")
    if table.match_status == "active":
        return _("Being played")
    return _("Finished")


def round_lines(page: CupPage, user_id: int | None) -> list[tuple[int, list[CupTableLine]]]:
    return [
        (
            round_.number,
            [
                CupTableLine(
                    number=t.number + 1,
                    people=", ".join(page.names.get(u, "?") for u in t.user_ids),
                    state=table_state(t),
                    match_id=t.match_id,
                    linked=t.match_id is not None and user_id in t.user_ids,
                )
                for t in round_.tables
            ],
        )
        for round_ in reversed(page.rounds)
    ]


def standing_lines(page: CupPage, user_id: int | None) -> list[CupStandingLine]:
    reasons = {e.user_id: e.withdrawn for e in page.entries}
    return [
        CupStandingLine(
            place="" if line.place is None else str(line.place),
            name=page.names.get(int(line.user), "?"),
            points=float(line.points),
            buchholz=float(line.buchholz),
            won=line.firsts,
            played=line.played,
            byes=line.byes,
            forfeits=line.forfeits,
            note=withdrawn_words(reasons.get(int(line.user), "")) if line.withdrawn else "",
            mine=line.user == user_id,
        )
        for line in page.standings
    ]


def entry_lines(page: CupPage) -> list[tuple[str, str]]:
    """Each entry's name, and why they no longer play ("" while they do)."""
    return [(e.name, withdrawn_words(e.withdrawn)) for e in page.entries]

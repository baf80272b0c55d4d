"""The competitions' rows, one module a kind of competition (the ladder: ``ladder``; leagues:
``leagues``; recurring cups: ``cups``, whose occurrences are ``leagues``' events)."""

from competitions.models.cups import CupSeries
from competitions.models.ladder import (
    Ladder,
    LadderChallenge,
    LadderEvent,
    LadderNotice,
    LadderRung,
)
from competitions.models.leagues import Entry, Event, EventTable
from competitions.models.notices import EventNotice

__all__ = [
    "CupSeries",
    "Entry",
    "Event",
    "EventNotice",
    "EventTable",
    "Ladder",
    "LadderChallenge",
    "LadderEvent",
    "LadderNotice",
    "LadderRung",
]

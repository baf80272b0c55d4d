"""The competitions' rows, one module a kind of competition (the ladder: ``ladder``; leagues:
``leagues``)."""

from competitions.models.ladder import (
    Ladder,
    LadderChallenge,
    LadderEvent,
    LadderNotice,
    LadderRung,
)
from competitions.models.leagues import Entry, Event, EventTable

__all__ = [
    "Entry",
    "Event",
    "EventTable",
    "Ladder",
    "LadderChallenge",
    "LadderEvent",
    "LadderNotice",
    "LadderRung",
]

"""The competitions' rows, one module a kind of event (leagues: ``leagues``)."""

from competitions.models.leagues import Entry, Event, EventTable

__all__ = ["Entry", "Event", "EventTable"]

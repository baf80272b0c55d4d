"""Who is on holiday at a table, in words (docs/accounts.md, "Holidays"): the table's and the
match lists' "X is on holiday until ..." and what it does to the deadline."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.selectors.facts import MatchFacts, SeatFacts

# What the table says of a match whose creator refused holidays.
HOLIDAYS_REFUSED = "Holidays are refused in this match: the turn deadline runs for everyone."


@dataclass(frozen=True)
class AwayLine:
    """One person on holiday: "ann is on holiday until" ``until`` (a template prints the date,
    in the reader's zone), and whether this match holds their deadline meanwhile."""

    name: str
    until: datetime.datetime
    held: bool

    @property
    def note(self) -> str:
        if self.held:
            return "their turn deadline waits until they are back."
        return "this match refuses holidays, so their turn deadline still runs."


def deadline_waits(match: MatchFacts, seats: Iterable[SeatFacts], awaiting: Iterable[int]) -> bool:
    """Whether the deadline now running is held: someone it falls on is away, and the match
    allows holidays (the table then shows their holiday line instead of the deadline)."""
    awaited = set(awaiting)
    return match.holidays and any(s.away_until and s.index in awaited for s in seats)


def away_lines(match: MatchFacts, seats: Iterable[SeatFacts]) -> list[AwayLine]:
    """The seated people on holiday, while the match is in play."""
    if match.status != "active":
        return []
    return [
        AwayLine(name=s.username or "", until=s.away_until, held=match.holidays)
        for s in seats
        if s.away_until is not None and s.username is not None
    ]

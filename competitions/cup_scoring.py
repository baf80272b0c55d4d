"""A cup's standings from its tables' results, pure (docs/competitions.md, "Cups"): the
site's cup page, the next round's pairing and the offline verifier (``competitions.verify_cup``)
all call this, so what the page shows is what anyone can recompute from the cup's record.

The Swiss arithmetic is ``competitions.swiss_standings``' (a table's points are the share of the
others one finished ahead of; a bye is half a point; points, then the Buchholz-like sum, then
tables won, then entry order). What a cup adds: a seat the person *forfeited* (the deadline bot
moved for them there) or *resigned* (withdrawing resigns their running tables) counts as
finishing below everyone who played the table out, so it scores nothing against them; and
withdrawn people are listed after everyone still playing, without a place (they are not paired
again).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from competitions.league_scoring import SeatResult
from competitions.swiss_standings import TableResult, standings


@dataclass(frozen=True)
class CupLine:
    """One person's line: their place (``None`` when withdrawn), points, the tie-break sum,
    tables won, tables played (byes apart), byes and forfeits."""

    user: int | str
    place: int | None
    points: Fraction
    buchholz: Fraction
    firsts: int
    played: int
    byes: int
    forfeits: int
    withdrawn: bool


def table_result(seats: Sequence[SeatResult]) -> TableResult:
    """A finished table as the Swiss standings read it: each seat's place is its match rank,
    and a forfeited or resigned seat's is below every rank at the table."""
    below = max(s.rank for s in seats) + 1
    return TableResult(
        seats=tuple(s.user for s in seats),  # type: ignore[misc]
        places=tuple(below if s.forfeited or s.resigned else s.rank for s in seats),
    )


def cup_standings(
    entrants: Sequence[int | str],
    tables: Iterable[Sequence[SeatResult]],
    byes: Sequence[int | str] = (),
    withdrawn: Iterable[int | str] = (),
) -> list[CupLine]:
    """The cup's standings: ``entrants`` (everyone seated at the start, in entry order),
    ``tables`` (each finished table's seats in seat order), ``byes`` (the person of every bye
    given), ``withdrawn`` (listed last, without a place)."""
    played: Counter[int | str] = Counter()
    forfeits: Counter[int | str] = Counter()
    results = []
    for table in tables:
        results.append(table_result(table))
        for seat in table:
            played[seat.user] += 1
            forfeits[seat.user] += seat.forfeited
    gone = set(withdrawn)
    given = Counter(byes)
    # A seat whose person is no entrant (an account deleted since: its seat has no person)
    # scores for nobody and is not listed.
    known = set(entrants)
    strangers = [u for u in played if u not in known]
    ranked = standings([*entrants, *strangers], results, list(byes))  # type: ignore[arg-type]
    ranked = tuple(s for s in ranked if s.id in known)
    ordered = [s for s in ranked if s.id not in gone] + [s for s in ranked if s.id in gone]
    return [
        CupLine(
            user=s.id,
            place=None if s.id in gone else position,
            points=s.points,
            buchholz=s.buchholz,
            firsts=s.firsts,
            played=played[s.id],
            byes=given[s.id],
            forfeits=forfeits[s.id],
            withdrawn=s.id in gone,
        )
        for position, s in enumerate(ordered, start=1)
    ]

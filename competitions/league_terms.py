"""A league's terms as arithmetic: how long it lasts, so its end date can be stated on entry
(docs/competitions.md, "When a league ends"). Pure: no framework, clock or database.

Every person plays ``tables_each`` tables of their circle's schedule, at most ``open_most`` at
once, so they play in ``waves = ceil(tables_each / open_most)`` waves. A table is given an
allowance of ``spans`` turn deadlines (``deadline_days`` each): past it the bots finish it. The
league lasts ``waves`` allowances from its start, and on that day whatever still runs is played
out by the bots and whatever never opened is not played.
"""

from __future__ import annotations

import datetime as dt
import math

from competitions.schedules import league_schedule


def table_allowance(*, deadline_days: int, spans: int) -> dt.timedelta:
    """How long a league table may run before the bots finish it."""
    return dt.timedelta(days=deadline_days * spans)


def league_waves(*, circle_size: int, seats: int, open_most: int) -> int:
    """How many times over a person fills their open tables: their tables over the cap."""
    tables_each = league_schedule(circle_size, seats).tables_each
    return math.ceil(tables_each / max(open_most, 1))


def league_length(
    *, circle_size: int, seats: int, open_most: int, deadline_days: int, spans: int
) -> dt.timedelta:
    """From the start to the end date: one table allowance a wave."""
    waves = league_waves(circle_size=circle_size, seats=seats, open_most=open_most)
    return waves * table_allowance(deadline_days=deadline_days, spans=spans)

"""A cup's terms as arithmetic, pure (docs/competitions.md, "Cups"): how long an occurrence
lasts, so its end date is stated on entry, when each round must end, and when the next
occurrence of a weekly series starts. No framework, clock or database: the caller passes the
moments and the time zone.

Each round is given the leagues' table allowance (``spans`` turn deadlines): past it the bots
finish its tables. A round starts as soon as every table of the one before has finished, and at
the latest when the one before's allowance runs out, so the cup lasts at most ``rounds``
allowances from its start, and that is the end date it states.
"""

from __future__ import annotations

import datetime as dt

from competitions.league_terms import table_allowance


def cup_length(*, rounds: int, deadline_days: int, spans: int) -> dt.timedelta:
    """From the start to the end date: one table allowance a round."""
    return rounds * table_allowance(deadline_days=deadline_days, spans=spans)


def round_due(*, round_started_at: dt.datetime, deadline_days: int, spans: int) -> dt.datetime:
    """When a round's tables still running are finished by the bots."""
    return round_started_at + table_allowance(deadline_days=deadline_days, spans=spans)


def next_start(*, after: dt.datetime, weekday: int, at: dt.time, zone: dt.tzinfo) -> dt.datetime:
    """The first ``weekday`` (0 Monday) at ``at`` in ``zone`` strictly after ``after``."""
    if not 0 <= weekday <= 6:
        raise ValueError(f"A weekday is 0 (Monday) to 6, not {weekday}.")
    local = after.astimezone(zone)
    day = local.date() + dt.timedelta(days=(weekday - local.weekday()) % 7)
    moment = dt.datetime.combine(day, at, tzinfo=zone)
    if moment <= local:
        moment = dt.datetime.combine(day + dt.timedelta(days=7), at, tzinfo=zone)
    return moment

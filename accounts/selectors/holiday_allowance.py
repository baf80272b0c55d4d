"""The holiday arithmetic (docs/accounts.md, "Holidays"): pure functions of dates and counts.

A person earns a day of holiday every ``EARN_EVERY`` since they joined (or since the allowance
was last spent at the cap), up to ``CAP`` days. A holiday runs from now to the end of the
chosen day and costs one day per day it touches ("per started day"): going away on a Thursday
afternoon until Saturday costs three. Ending it early gives back the days not yet begun.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

EARN_EVERY = datetime.timedelta(days=7)
CAP = 30


@dataclass(frozen=True)
class Allowance:
    """``days`` to spend at some moment, and ``since``: when the next day began to be earned."""

    days: int
    since: datetime.datetime


def allowance_at(*, banked: int, banked_at: datetime.datetime, now: datetime.datetime) -> Allowance:
    """The allowance at ``now`` of ``banked`` days at ``banked_at``.

    Whole periods since ``banked_at`` add a day each; the part of a period already run keeps
    counting towards the next day, except at the cap, where nothing more is earned (so spending
    from a full allowance starts the next day's period then, not in the past).
    """
    periods = max(0, (now - banked_at) // EARN_EVERY)
    days = banked + periods
    if days >= CAP:
        return Allowance(days=CAP, since=now)
    return Allowance(days=days, since=banked_at + periods * EARN_EVERY)


def days_spent(*, today: datetime.date, until: datetime.date) -> int:
    """What a holiday from ``today`` to the end of ``until`` costs: the days it touches."""
    return (until - today).days + 1


def days_back(*, today: datetime.date, until: datetime.date) -> int:
    """What ending on ``today`` a holiday planned to the end of ``until`` gives back: the days
    after today (today has begun, so it stays spent)."""
    return max(0, (until - today).days)


def latest_until(*, today: datetime.date, days: int) -> datetime.date | None:
    """The last day a holiday starting today may run to with ``days`` to spend."""
    if days < 1:
        return None
    return today + datetime.timedelta(days=days - 1)

"""A cup's terms (competitions/cup_terms.py): its length, a round's due time and the next start
of a weekly series, across a week's end, on the day itself and across a clock change."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from competitions.cup_terms import cup_length, next_start, round_due

LONDON = ZoneInfo("Europe/London")


def test_a_cup_lasts_one_allowance_a_round():
    assert cup_length(rounds=3, deadline_days=1, spans=6) == dt.timedelta(days=18)
    assert cup_length(rounds=5, deadline_days=3, spans=6) == dt.timedelta(days=90)
    start = dt.datetime(2026, 12, 7, 19, tzinfo=dt.UTC)
    assert round_due(round_started_at=start, deadline_days=1, spans=6) == start + dt.timedelta(
        days=6
    )


def test_the_next_start_is_the_next_such_weekday_at_its_time():
    friday_noon = dt.datetime(2026, 12, 4, 12, tzinfo=dt.UTC)
    monday = next_start(after=friday_noon, weekday=0, at=dt.time(19), zone=LONDON)
    assert monday == dt.datetime(2026, 12, 7, 19, tzinfo=LONDON)
    # On the day, before the time: that day; at or after it: a week later.
    before = dt.datetime(2026, 12, 7, 18, 59, tzinfo=LONDON)
    assert next_start(after=before, weekday=0, at=dt.time(19), zone=LONDON).day == 7
    at = dt.datetime(2026, 12, 7, 19, tzinfo=LONDON)
    assert next_start(after=at, weekday=0, at=dt.time(19), zone=LONDON).day == 14


def test_the_time_is_the_zone_s_own_across_a_clock_change():
    # London's clocks go back on 25 October 2026: 19:00 is 18:00 UTC before, 19:00 after.
    before = next_start(
        after=dt.datetime(2026, 10, 20, tzinfo=dt.UTC), weekday=4, at=dt.time(19), zone=LONDON
    )
    after = next_start(after=before, weekday=4, at=dt.time(19), zone=LONDON)
    assert before.astimezone(dt.UTC).hour == 18 and after.astimezone(dt.UTC).hour == 19


def test_a_weekday_out_of_range_is_refused():
    with pytest.raises(ValueError, match="weekday"):
        next_start(
            after=dt.datetime(2026, 1, 1, tzinfo=dt.UTC), weekday=7, at=dt.time(9), zone=LONDON
        )

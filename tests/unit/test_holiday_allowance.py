"""The holiday arithmetic at its edges (accounts.selectors.holiday_allowance; docs/accounts.md)."""

from __future__ import annotations

import datetime

from accounts.selectors.holiday_allowance import (
    CAP,
    EARN_EVERY,
    allowance_at,
    days_back,
    days_spent,
    latest_until,
)

T0 = datetime.datetime(2026, 1, 1, 12, 0, tzinfo=datetime.UTC)
SECOND = datetime.timedelta(seconds=1)


def test_a_day_is_earned_each_whole_week_and_not_a_second_before():
    assert allowance_at(banked=0, banked_at=T0, now=T0).days == 0
    assert allowance_at(banked=0, banked_at=T0, now=T0 + EARN_EVERY - SECOND).days == 0
    assert allowance_at(banked=0, banked_at=T0, now=T0 + EARN_EVERY).days == 1
    assert allowance_at(banked=3, banked_at=T0, now=T0 + 5 * EARN_EVERY + SECOND).days == 8


def test_the_part_of_a_week_already_run_keeps_counting_after_a_spend():
    now = T0 + 2 * EARN_EVERY + datetime.timedelta(days=3)
    allowance = allowance_at(banked=0, banked_at=T0, now=now)
    assert allowance.days == 2
    assert allowance.since == T0 + 2 * EARN_EVERY  # three days into the next week already
    four_days_on = now + datetime.timedelta(days=4)
    assert allowance_at(banked=0, banked_at=allowance.since, now=four_days_on).days == 1


def test_the_allowance_stops_at_the_cap_and_restarts_the_week_from_then():
    long_after = T0 + 400 * EARN_EVERY
    full = allowance_at(banked=0, banked_at=T0, now=long_after)
    assert full.days == CAP
    assert full.since == long_after
    exactly = allowance_at(banked=CAP - 1, banked_at=T0, now=T0 + EARN_EVERY)
    assert exactly.days == CAP


def test_a_clock_behind_the_bank_earns_nothing_and_loses_nothing():
    assert allowance_at(banked=4, banked_at=T0, now=T0 - EARN_EVERY).days == 4


def test_a_holiday_costs_each_day_it_touches_and_gives_back_the_days_not_begun():
    today = datetime.date(2026, 12, 3)
    assert days_spent(today=today, until=today) == 1
    assert days_spent(today=today, until=datetime.date(2026, 12, 5)) == 3
    assert days_back(today=today, until=datetime.date(2026, 12, 5)) == 2
    assert days_back(today=datetime.date(2026, 12, 5), until=datetime.date(2026, 12, 5)) == 0
    assert days_back(today=datetime.date(2026, 12, 9), until=datetime.date(2026, 12, 5)) == 0


def test_the_latest_day_to_choose_spends_the_whole_allowance():
    today = datetime.date(2026, 12, 3)
    assert latest_until(today=today, days=0) is None
    assert latest_until(today=today, days=1) == today
    last = latest_until(today=today, days=CAP)
    assert last is not None and days_spent(today=today, until=last) == CAP

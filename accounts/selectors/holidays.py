"""A person's holiday row, read (docs/accounts.md, "Holidays"): what they have banked and the
holiday they are on, if any; the arithmetic is ``accounts.selectors.holiday_allowance``."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from accounts.models import Holiday
from accounts.selectors.holiday_allowance import CAP


def start_days() -> int:
    """The days an account has banked at ``date_joined`` until its first holiday
    (``PARLOUR_HOLIDAY_START_DAYS``, between 0 and the cap): a new player may try a holiday at
    once instead of waiting a week for the first day."""
    return max(0, min(CAP, settings.PARLOUR_HOLIDAY_START_DAYS))


def holiday_of(user: AbstractBaseUser) -> Holiday:
    """The person's ``Holiday`` row, or (never away yet) an unsaved one with ``start_days``
    banked when they joined, earning since (one query)."""
    row = Holiday.objects.filter(user_id=user.pk).first()
    if row is None:
        row = Holiday(user_id=user.pk, banked=start_days(), banked_at=user.date_joined)
    return row

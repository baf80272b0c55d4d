"""A person's holiday row, read (docs/accounts.md, "Holidays"): what they have banked and the
holiday they are on, if any; the arithmetic is ``accounts.selectors.holiday_allowance``."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from accounts.models import Holiday


def holiday_of(user: AbstractBaseUser) -> Holiday:
    """The person's ``Holiday`` row, or (never away yet) an unsaved one earning since they
    joined (one query)."""
    row = Holiday.objects.filter(user_id=user.pk).first()
    if row is None:
        row = Holiday(user_id=user.pk, banked=0, banked_at=user.date_joined)
    return row

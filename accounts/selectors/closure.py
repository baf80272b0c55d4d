"""Closed accounts, read (docs/accounts.md, "Closing and deleting"): until when one may still be
opened by signing in, which are due for the deletion sweep, and the condition that hides a
closed or deleted account from everyone else's pages."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import AccountClosure

CLOSED_DAYS = 30


def reopen_by(closure: AccountClosure | None) -> dt.datetime | None:
    """The moment until which a closed account may still be opened by signing in."""
    return None if closure is None else closure.closed_at + dt.timedelta(days=CLOSED_DAYS)


def closed_accounts_due(*, now: dt.datetime | None = None) -> QuerySet[AccountClosure]:
    """The closed accounts whose ``CLOSED_DAYS`` have run out, oldest first."""
    cutoff = (now or timezone.now()) - dt.timedelta(days=CLOSED_DAYS)
    return AccountClosure.objects.filter(closed_at__lte=cutoff).order_by("closed_at")


def hidden_people() -> Q:
    """The condition, on a user, of an account others may not see: closed or deleted. For a
    query on another model, prefix it (``hidden_people_on("user")``)."""
    return hidden_people_on("")


def hidden_people_on(prefix: str) -> Q:
    """``hidden_people`` for a query whose user is reached through ``prefix`` ("user")."""
    lead = f"{prefix}__" if prefix else ""
    return Q(**{f"{lead}is_active": False}) | Q(**{f"{lead}closure__isnull": False})

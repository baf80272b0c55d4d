"""Closing an account (docs/accounts.md, "Closing and deleting"): hidden and signed out
everywhere at once; open again when its person signs in within ``CLOSED_DAYS``; deleted by the
sweep (``closed_accounts_due``) once they have passed."""

from __future__ import annotations

import datetime as dt
import logging

from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import AccountClosure

logger = logging.getLogger(__name__)

CLOSED_DAYS = 30


def sessions_end(*, user_id: int) -> int:
    """Delete every session signed in as ``user_id`` from the session store (the database
    backend's table): each of the person's browsers is signed out at its next request. Returns
    how many went."""
    mine = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(session.get_decoded().get("_auth_user_id")) == str(user_id)
    ]
    Session.objects.filter(pk__in=mine).delete()
    return len(mine)


def account_close(*, user: AbstractBaseUser, now: dt.datetime | None = None) -> AccountClosure:
    """Close ``user``'s account: from now on hidden (no profile, no leaderboard line) and
    signed out on every device. Closing twice keeps the first closing time."""
    with transaction.atomic():
        closure, _ = AccountClosure.objects.get_or_create(
            user_id=user.pk, defaults={"closed_at": now or timezone.now()}
        )
        sessions_end(user_id=user.pk)
    logger.info("account closed: user id %s", user.pk)
    return closure


def account_reopen(*, user: AbstractBaseUser) -> bool:
    """Open ``user``'s closed account again (they signed in in time). ``False``: it was open."""
    deleted, _ = AccountClosure.objects.filter(user_id=user.pk).delete()
    if deleted:
        logger.info("account reopened: user id %s", user.pk)
    return bool(deleted)


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


def reopen_on_sign_in(
    sender: object, request: HttpRequest | None, user: AbstractBaseUser, **_: object
) -> None:
    """``user_logged_in``: signing in to a closed account opens it again, and says so."""
    if account_reopen(user=user) and request is not None:
        messages.success(request, "Welcome back: your account is open again.", fail_silently=True)

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
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import AccountClosure
from accounts.signals import account_closing

logger = logging.getLogger(__name__)


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
    signed out on every device. Closing twice keeps the first closing time. ``account_closing``
    goes out in the same transaction (the ladders let the person go)."""
    with transaction.atomic():
        closure, _ = AccountClosure.objects.get_or_create(
            user_id=user.pk, defaults={"closed_at": now or timezone.now()}
        )
        sessions_end(user_id=user.pk)
        account_closing.send(sender=AccountClosure, user_id=user.pk)
    logger.info("account closed: user id %s", user.pk)
    return closure


def account_reopen(*, user: AbstractBaseUser) -> bool:
    """Open ``user``'s closed account again (they signed in in time). ``False``: it was open."""
    deleted, _ = AccountClosure.objects.filter(user_id=user.pk).delete()
    if deleted:
        logger.info("account reopened: user id %s", user.pk)
    return bool(deleted)


def reopen_on_sign_in(
    sender: object, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: object
) -> None:
    """``user_logged_in``: signing in to a closed account opens it again, and says so."""
    if account_reopen(user=user) and request is not None:
        messages.success(
            request, _("Welcome back: your account is open again."), fail_silently=True
        )

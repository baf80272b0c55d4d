"""Confirmed e-mail addresses, written (docs/accounts.md, "E-mail"): an address asked for waits
in the person's ``PendingEmail`` row and its signed link is mailed; the link's POST confirms it.
The reads (what a link names, why it cannot confirm) are ``accounts.selectors.email_confirmation``.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import PendingEmail
from accounts.selectors.email_confirmation import (
    STALE,
    TAKEN,
    Link,
    address_confirmed_elsewhere,
    confirm_url,
)
from accounts.selectors.language import mail_language_of

logger = logging.getLogger(__name__)


def email_link_send(user: AbstractBaseUser, *, email: str) -> bool:
    """Mail the confirmation link for ``email`` to ``email``; ``False`` when sending failed
    (logged: the person can send it again from their account page)."""
    context = {
        "user": user,
        "email": email,
        "url": confirm_url(user.pk, email),
        "days": settings.PARLOUR_EMAIL_CONFIRM_DAYS,
    }
    try:
        # In the person's language (the one they registered in, or chose), whoever asks.
        with translation.override(mail_language_of(user.pk)):
            subject = _("Confirm your e-mail address for Parlour")
            message = render_to_string("accounts/mail/confirm_email.txt", context)
        send_mail(subject=subject, message=message, from_email=None, recipient_list=[email])
    except Exception:
        logger.exception("The confirmation mail for user %s could not be sent", user.pk)
        return False
    return True


def email_pending_hold(user: AbstractBaseUser, *, email: str) -> None:
    """Make ``email`` the person's pending address, replacing any earlier one (whose link stops
    working). The confirmed address is untouched."""
    PendingEmail.objects.update_or_create(
        user=user, defaults={"email": email, "requested_at": timezone.now()}
    )


def email_ask(user: AbstractBaseUser, *, email: str) -> bool:
    """Hold ``email`` as pending and mail its link; ``False`` when the mail could not be sent."""
    email_pending_hold(user, email=email)
    return email_link_send(user, email=email)


def email_pending_forget(user_id: int) -> None:
    """Forget the person's pending address (they chose their confirmed one again)."""
    PendingEmail.objects.filter(user_id=user_id).delete()


def email_link_confirm(link: Link) -> str | None:
    """Make ``link``'s address the account's confirmed one and forget the pending row, in one
    transaction; why not (``STALE``, ``TAKEN``) when it no longer fits. Two confirmations at
    once: the pending row's lock (and the unique index on addresses) lets one through."""
    User = get_user_model()
    try:
        with transaction.atomic():
            pending = (
                PendingEmail.objects.select_for_update()
                .filter(user_id=link.user_id, email=link.email)
                .first()
            )
            if pending is None:
                return STALE
            if address_confirmed_elsewhere(link.email, user_id=link.user_id):
                return TAKEN
            User.objects.filter(pk=link.user_id).update(email=link.email)
            pending.delete()
    except IntegrityError:
        return TAKEN  # another account confirmed it between the check and the write
    return None

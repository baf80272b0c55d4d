"""Confirmed e-mail addresses, read (docs/accounts.md, "E-mail"); the writes are
``accounts.services.email_confirmation``.

``User.email`` only ever holds an address its owner confirmed: every mail the site sends reads
it (``confirmed_address``), so nothing goes to an address until the link mailed to it was
opened. An address asked for (at registration, or a change on the notifications page) waits in
the person's ``PendingEmail`` row, and the confirmed one, if any, keeps receiving meanwhile.

The link is signed (``django.core.signing``, its own salt) and names one account and one
address; it expires after ``PARLOUR_EMAIL_CONFIRM_DAYS``. Opening it shows a page with a button
(a mail scanner following links confirms nothing); the button's POST confirms. A link that no
longer fits (forged, expired, the address changed since, another account signed in, the
address confirmed by another account meanwhile) gets a page saying so and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.http import HttpRequest
from django.urls import reverse

from accounts.models import PendingEmail

CONFIRM_SALT = "accounts.email_confirm"

# Why a link does not fit, each with its words in templates/accounts/confirm_email.html.
FORGED, EXPIRED, GONE, OTHER_ACCOUNT, STALE, TAKEN = (
    "forged",
    "expired",
    "gone",
    "other_account",
    "stale",
    "taken",
)


def confirmed_address(user: AbstractBaseUser) -> str | None:
    """The address mail to ``user`` may go to, or ``None``: only a confirmed one is ever kept in
    ``User.email``, the pending one never is."""
    return user.email or None


def pending_address(user_id: int) -> PendingEmail | None:
    """The address the person asked for and has not confirmed yet, if any."""
    return PendingEmail.objects.filter(user_id=user_id).first()


def address_confirmed_elsewhere(email: str, *, user_id: int | None) -> bool:
    """Whether an account other than ``user_id`` has confirmed ``email`` (in any case)."""
    others = get_user_model().objects.filter(email__iexact=email)
    return (others.exclude(pk=user_id) if user_id is not None else others).exists()


def confirm_token(user_id: int, email: str) -> str:
    """The signed, timestamped key of the link that confirms ``email`` for ``user_id``."""
    return signing.dumps({"u": user_id, "e": email}, salt=CONFIRM_SALT, compress=True)


def confirm_url(user_id: int, email: str) -> str:
    path = reverse("email_confirm", kwargs={"token": confirm_token(user_id, email)})
    return f"{settings.PARLOUR_SITE_URL}{path}"


@dataclass(frozen=True)
class Link:
    user_id: int
    email: str


def link_read(token: str) -> Link | str:
    """The account and address a link names, or why it names none (``FORGED``, ``EXPIRED``)."""
    max_age = settings.PARLOUR_EMAIL_CONFIRM_DAYS * 24 * 3600
    try:
        data = signing.loads(token, salt=CONFIRM_SALT, max_age=max_age)
    except signing.SignatureExpired:
        return EXPIRED
    except signing.BadSignature:
        return FORGED
    if not isinstance(data, dict):
        return FORGED
    user_id, email = data.get("u"), data.get("e")
    if not isinstance(user_id, int) or not isinstance(email, str) or not email:
        return FORGED
    return Link(user_id=user_id, email=email)


def link_problem(link: Link, request: HttpRequest) -> str | None:
    """Why ``link`` cannot confirm now (``GONE``, ``OTHER_ACCOUNT``, ``STALE``, ``TAKEN``), or
    ``None`` when it can. Reads only."""
    if request.user.is_authenticated and request.user.pk != link.user_id:
        return OTHER_ACCOUNT
    if not get_user_model().objects.filter(pk=link.user_id, is_active=True).exists():
        return GONE
    pending = pending_address(link.user_id)
    if pending is None or pending.email != link.email:
        return STALE
    if address_confirmed_elsewhere(link.email, user_id=link.user_id):
        return TAKEN
    return None


def already_confirmed(link: Link) -> bool:
    """Whether ``link``'s address is its account's confirmed one already (the link was used)."""
    User = get_user_model()
    return User.objects.filter(pk=link.user_id, email=link.email).exists()

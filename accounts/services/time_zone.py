"""A person's time zone, written (docs/accounts.md, "Time zones"): stored, and copied into the
session when the person signs in (``remember_at_sign_in``, on Django's ``user_logged_in``,
connected by ``accounts.apps``) and when they change it. Another browser signed in earlier
keeps the zone it had until it signs in again.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import TimeZoneSetting
from accounts.selectors.time_zone import SESSION_KEY, zone_of


def zone_store(*, user: AbstractBaseUser, zone: zoneinfo.ZoneInfo) -> None:
    """Keep ``zone`` as ``user``'s time zone."""
    TimeZoneSetting.objects.update_or_create(user=user, defaults={"zone": zone})


def remember_in_session(request: HttpRequest, zone: zoneinfo.ZoneInfo) -> None:
    """Copy ``zone`` into the session and use it for the rest of this request."""
    request.session[SESSION_KEY] = zone.key
    timezone.activate(zone)


def remember_at_sign_in(
    sender: Any, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """At sign-in (and registration), the person's zone goes into their new session."""
    if request is not None and hasattr(request, "session"):
        remember_in_session(request, zone_of(user.pk))

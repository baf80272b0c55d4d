"""A person's time zone: stored, remembered in the session, chosen on the account page.

The zone lives in ``TimeZoneSetting`` (no row: UTC). Reading that row on every request would
add a statement to every page, the move POST and the 204 poll included, so the session keeps a
copy: written when the person signs in (``remember_at_sign_in``, on Django's
``user_logged_in``) and when they change it here; ``accounts.time_zone_middleware`` activates
it for the request. Another browser signed in earlier keeps the zone it had until it signs in
again.

Mail is rendered in the recipient's zone by the sender (``zone_of``, read once per mail).
"""

from __future__ import annotations

import zoneinfo
from functools import lru_cache
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods
from timezone_field import TimeZoneFormField

from accounts.models import TimeZoneSetting

SESSION_KEY = "parlour_time_zone"
DEFAULT_ZONE = "UTC"


@lru_cache(maxsize=64)
def zone_named(name: str) -> zoneinfo.ZoneInfo:
    """The zone called ``name``, or UTC for anything that is not one of the known zone names
    (never a path or a garbage key: only names from the zone database are looked up)."""
    if name not in known_zone_names():
        return zoneinfo.ZoneInfo(DEFAULT_ZONE)
    return zoneinfo.ZoneInfo(name)


@lru_cache(maxsize=1)
def known_zone_names() -> frozenset[str]:
    """Every IANA zone name the form offers (the zone database's, less ``Factory``)."""
    return frozenset(TimeZoneSetting._meta.get_field("zone").tz_backend.base_tzstrs)


def zone_of(user_id: int) -> zoneinfo.ZoneInfo:
    """The zone ``user_id`` reads times in (one query; UTC when they never chose one)."""
    name = TimeZoneSetting.objects.filter(user_id=user_id).values_list("zone", flat=True).first()
    return zone_named(str(name)) if name is not None else zone_named(DEFAULT_ZONE)


def zone_store(*, user: AbstractBaseUser, zone: zoneinfo.ZoneInfo) -> None:
    """Keep ``zone`` as ``user``'s time zone."""
    TimeZoneSetting.objects.update_or_create(user=user, defaults={"zone": zone})


def remember_in_session(request: HttpRequest, zone: zoneinfo.ZoneInfo) -> None:
    """Copy ``zone`` into the session and use it for the rest of this request."""
    request.session[SESSION_KEY] = zone.key
    timezone.activate(zone)


@receiver(user_logged_in, dispatch_uid="accounts.time_zone.remember_at_sign_in")
def remember_at_sign_in(
    sender: Any, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """At sign-in (and registration), the person's zone goes into their new session."""
    if request is not None and hasattr(request, "session"):
        remember_in_session(request, zone_of(user.pk))


def zone_field(
    *, help_text: str, initial: str | None = None, required: bool = True
) -> TimeZoneFormField:
    """A list of the zone database's names; anything else is refused with a message."""
    return TimeZoneFormField(
        label="Time zone",
        initial=initial,
        required=required,
        help_text=help_text,
        error_messages={
            "required": "Choose a time zone.",
            "invalid_choice": "That is not a time zone we know: choose one from the list.",
        },
    )


class TimeZoneForm(forms.Form):
    """The account page's choice of zone."""

    zone = zone_field(help_text="Every date, deadline and mail shows in this zone.")


@login_required
@require_http_methods(["GET", "POST"])
def time_zone_change(request: HttpRequest) -> HttpResponse:
    """``/accounts/time-zone/``: the zone chosen from the list; a refusal shows the form again
    with its message (400) and changes nothing."""
    if request.method == "POST":
        form = TimeZoneForm(request.POST)
        if form.is_valid():
            zone = form.cleaned_data["zone"]
            zone_store(user=request.user, zone=zone)
            remember_in_session(request, zone)
            messages.success(request, f"Times now show in {zone.key}.")
            return redirect(reverse("account") + "#account-time-zone")
        return render(request, "accounts/time_zone.html", {"form": form}, status=400)
    form = TimeZoneForm(initial={"zone": zone_of(request.user.pk).key})
    return render(request, "accounts/time_zone.html", {"form": form})


def time_zone_context(request: HttpRequest) -> dict[str, Any]:
    """The account page's section: the zone in use and the form to change it."""
    zone = zone_of(request.user.pk)
    return {"zone": zone.key, "form": TimeZoneForm(initial={"zone": zone.key})}

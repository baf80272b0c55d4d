"""The time zone on the account page (docs/accounts.md, "Time zones"): its section and
``/accounts/time-zone/``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import TimeZoneForm
from accounts.selectors.time_zone import zone_of
from accounts.services.time_zone import remember_in_session, zone_store


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
            messages.success(request, _("Times now show in %(zone)s.") % {"zone": zone.key})
            return redirect(reverse("account") + "#account-time-zone")
        return render(request, "accounts/time_zone.html", {"form": form}, status=400)
    form = TimeZoneForm(initial={"zone": zone_of(request.user.pk).key})
    return render(request, "accounts/time_zone.html", {"form": form})


def time_zone_context(request: HttpRequest) -> dict[str, Any]:
    """The account page's section: the zone in use and the form to change it."""
    zone = zone_of(request.user.pk)
    return {"zone": zone.key, "form": TimeZoneForm(initial={"zone": zone.key})}

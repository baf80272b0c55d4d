"""Holidays on the account page (docs/accounts.md, "Holidays"): the section (registered on the
account page by ``games.apps``) and the two posts, going away until a day and coming back
early. The writes are ``games.services.holidays``; the arithmetic is
``accounts.selectors.holiday_allowance``; the form is ``games.forms.HolidayForm``."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.selectors.holiday_allowance import CAP, EARN_EVERY, allowance_at, latest_until
from accounts.selectors.holidays import holiday_of, start_days
from games.forms import HolidayForm
from games.services.errors import Rejected
from games.services.holidays import holiday_end, holiday_start

SECTION_TEMPLATE = "accounts/account/_holidays.html"


def holiday_context(request: HttpRequest, form: HolidayForm | None = None) -> dict[str, Any]:
    """The allowance now, the holiday the person is on (if any) and the form to go away."""
    now = timezone.now()
    today = timezone.localdate(now)
    row = holiday_of(request.user)
    allowance = allowance_at(banked=row.banked, banked_at=row.banked_at, now=now)
    away = (
        row.away_since is not None
        and row.away_until is not None
        and row.away_since <= now < row.away_until
    )
    latest = latest_until(today=today, days=allowance.days)
    form = form or HolidayForm(initial={"until": latest})
    if latest is not None:
        form.fields["until"].widget.attrs.update(min=today.isoformat(), max=latest.isoformat())
    return {
        "days": allowance.days,
        "cap": CAP,
        "start": start_days(),
        "next_day_at": None if allowance.days >= CAP else allowance.since + EARN_EVERY,
        "away_until": row.away_until if away else None,
        "last_day": (
            timezone.localdate(row.away_until - datetime.timedelta(microseconds=1))
            if away
            else None
        ),
        "latest": latest,
        "form": form,
    }


def _refused(
    request: HttpRequest, message: str, status: int, form: HolidayForm | None = None
) -> HttpResponse:
    """The account page's holidays section alone, saying why nothing changed."""
    context = holiday_context(request, form)
    context["error"] = message
    sections = [(SECTION_TEMPLATE, context)]
    return render(request, "accounts/account.html", {"sections": sections}, status=status)


def _back() -> HttpResponse:
    return redirect(reverse("account") + "#account-holidays")


@login_required
@require_POST
def holiday_go(request: HttpRequest) -> HttpResponse:
    """``POST /accounts/holiday/``: go on holiday from now until the end of the chosen day."""
    form = HolidayForm(request.POST)
    if not form.is_valid():
        refusal = form.errors["until"][0]
        return _refused(request, _("Nothing changed: %(why)s") % {"why": refusal}, 400, form)
    try:
        row = holiday_start(user=request.user, until=form.cleaned_data["until"])
    except Rejected as exc:
        why = _("Nothing changed: %(why)s") % {"why": exc.message}
        return _refused(request, why, exc.status, form)
    messages.success(
        request,
        ngettext(
            "You are on holiday until the end of %(day)s: %(count)d day spent.",
            "You are on holiday until the end of %(day)s: %(count)d days spent.",
            row.days_taken,
        )
        % {"day": date_format(form.cleaned_data["until"], "j M Y"), "count": row.days_taken},
    )
    return _back()


@login_required
@require_POST
def holiday_return(request: HttpRequest) -> HttpResponse:
    """``POST /accounts/holiday/end/``: come back early; the days not yet begun come back."""
    try:
        back = holiday_end(user=request.user)
    except Rejected as exc:
        return _refused(request, _("Nothing changed: %(why)s") % {"why": exc.message}, exc.status)
    messages.success(
        request,
        ngettext(
            "Welcome back: %(count)d day returned to your allowance.",
            "Welcome back: %(count)d days returned to your allowance.",
            back,
        )
        % {"count": back},
    )
    return _back()

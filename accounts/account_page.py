"""The account page (``/accounts/``): everything a person can do to their own account, in one
place, one section each.

A section is a template under ``templates/accounts/account/`` and a function that gives its
context from the request. ``SECTIONS`` lists them in page order; a capability that adds to the
account (a time zone, holidays, closing it) adds its section here and keeps its forms and
views in a module of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts import email_confirmation, holidays, notify, people, rename, time_zone
from accounts.closing import closing_context
from accounts.data_export import data_context
from accounts.models import NotificationSettings


@dataclass(frozen=True)
class Section:
    template: str
    context: Callable[[HttpRequest], dict[str, Any]]


IDENTITY = "accounts/account/_identity.html"


def identity_context(request: HttpRequest) -> dict[str, Any]:
    """The name (and its form, or when it may change next), the confirmed e-mail address and
    the one waiting for confirmation, and where each is changed."""
    return {
        "username": request.user.get_username(),
        "email": request.user.email,
        "pending": email_confirmation.pending_address(request.user.pk),
        "next_rename": rename.next_change_at(request.user.pk),
        "rename_form": rename.RenameForm(user=request.user),
    }


def notifications_context(request: HttpRequest) -> dict[str, Any]:
    """Which mails are on (the full choice is on the notifications page)."""
    chosen = notify.settings_for(request.user.pk)
    fields = [NotificationSettings._meta.get_field(name) for name in notify.KINDS.values()]
    on = [field.verbose_name for field in fields if getattr(chosen, field.name)]
    return {"mails_on": on, "has_email": bool(request.user.email)}


SECTIONS: tuple[Section, ...] = (
    Section(IDENTITY, identity_context),
    Section("accounts/account/_notifications.html", notifications_context),
    Section("accounts/account/_time_zone.html", time_zone.time_zone_context),
    Section(holidays.SECTION_TEMPLATE, holidays.holiday_context),
    Section(people.CHALLENGES_SECTION, people.challenge_setting_context),
    Section(people.BLOCKED_SECTION, people.blocked_context),
    Section("accounts/account/_data.html", data_context),
    Section("accounts/account/_closing.html", closing_context),
)


@login_required
@require_GET
def account(request: HttpRequest) -> HttpResponse:
    """``/accounts/``: one section per thing the person may do to their account."""
    return page(request)


def page(
    request: HttpRequest,
    *,
    status: int = 200,
    notice: str | None = None,
    overrides: dict[str, dict[str, Any]] | None = None,
) -> HttpResponse:
    """The account page, for ``account`` and for a section's refused POST: ``notice`` (a
    refusal's message) at the top, and ``overrides`` (by section template: a bound form with
    its errors, say) over that section's context."""
    overrides = overrides or {}
    sections = [
        (section.template, {**section.context(request), **overrides.get(section.template, {})})
        for section in SECTIONS
    ]
    context = {"sections": sections, "notice": notice}
    return render(request, "accounts/account.html", context, status=status)

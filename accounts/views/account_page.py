"""The account page (``/accounts/``): everything a person can do to their own account, in one
place, one section each.

A section is a template under ``templates/accounts/account/`` and a function that gives its
context from the request, at a place on the page (``order``). ``SECTIONS`` lists accounts' own;
a capability above accounts adds its section with ``section_add`` from its app's ``ready``
(``games.apps``: holidays), and keeps its forms and views in its own modules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.forms import RenameForm
from accounts.models import NotificationSettings
from accounts.selectors import notify
from accounts.selectors.email_confirmation import pending_address
from accounts.selectors.names import next_change_at
from accounts.views import language, people, play_settings, time_zone
from accounts.views.closing import closing_context
from accounts.views.data_export import data_context


@dataclass(frozen=True)
class Section:
    template: str
    context: Callable[[HttpRequest], dict[str, Any]]
    order: int  # the place on the page: lower first


IDENTITY = "accounts/account/_identity.html"


def identity_context(request: HttpRequest) -> dict[str, Any]:
    """The name (and its form, or when it may change next), the confirmed e-mail address and
    the one waiting for confirmation, and where each is changed."""
    return {
        "username": request.user.get_username(),
        "email": request.user.email,
        "pending": pending_address(request.user.pk),
        "next_rename": next_change_at(request.user.pk),
        "rename_form": RenameForm(user=request.user),
    }


def notifications_context(request: HttpRequest) -> dict[str, Any]:
    """Which mails are on (the full choice is on the notifications page)."""
    chosen = notify.settings_for(request.user.pk)
    fields = [NotificationSettings._meta.get_field(name) for name in notify.KINDS.values()]
    on = [field.verbose_name for field in fields if getattr(chosen, field.name)]
    return {"mails_on": on, "has_email": bool(request.user.email)}


# Accounts' own sections; ``section_add`` places the others between them (holidays at 40).
SECTIONS: list[Section] = [
    Section(IDENTITY, identity_context, 10),
    Section("accounts/account/_notifications.html", notifications_context, 20),
    Section("accounts/account/_time_zone.html", time_zone.time_zone_context, 30),
    Section(language.LANGUAGE_SECTION, language.language_context, 32),
    Section(play_settings.PLAY_SECTION, play_settings.play_settings_context, 35),
    Section(people.CHALLENGES_SECTION, people.challenge_setting_context, 50),
    Section(people.BLOCKED_SECTION, people.blocked_context, 60),
    Section("accounts/account/_data.html", data_context, 70),
    Section("accounts/account/_closing.html", closing_context, 80),
]


def section_add(
    template: str, context: Callable[[HttpRequest], dict[str, Any]], *, order: int
) -> None:
    """Add a section to the account page at ``order`` (once: adding a template twice, as a
    second ``ready`` would, changes nothing)."""
    if any(section.template == template for section in SECTIONS):
        return
    SECTIONS.append(Section(template, context, order))
    SECTIONS.sort(key=lambda section: section.order)


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

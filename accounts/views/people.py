"""Who may challenge me and the blocked people, two sections of the account page
(docs/accounts.md, "Friends and blocks"). Following and blocking from a profile are
``games.views.profiles``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import ChallengeSettingForm
from accounts.models import ChallengeSetting
from accounts.selectors.relations import blocked_names, challenge_setting
from accounts.services.relations import challenge_setting_save


def challenge_setting_context(request: HttpRequest) -> dict[str, Any]:
    """The section "Who may challenge me": the choice in use and its form."""
    who = challenge_setting(request.user.pk)
    return {
        "who": ChallengeSetting.Who(who).label,
        "form": ChallengeSettingForm(initial={"who": who}),
    }


@login_required
@require_POST
def challenge_setting_change(request: HttpRequest) -> HttpResponse:
    """``/accounts/challenges/``: save who may challenge the person; a refusal shows the section
    alone with its message (400) and changes nothing."""
    form = ChallengeSettingForm(request.POST)
    if not form.is_valid():
        context = {**challenge_setting_context(request), "form": form}
        context["error"] = _("Nothing changed: choose one of the offered answers.")
        sections = [(CHALLENGES_SECTION, context)]
        return render(request, "accounts/account.html", {"sections": sections}, status=400)
    who = form.cleaned_data["who"]
    challenge_setting_save(user_id=request.user.pk, who=who)
    messages.success(
        request, _("Who may challenge you: %(who)s.") % {"who": ChallengeSetting.Who(who).label}
    )
    return redirect(reverse("account") + "#account-challenges")


CHALLENGES_SECTION = "accounts/account/_challenges.html"
BLOCKED_SECTION = "accounts/account/_blocked.html"


def blocked_context(request: HttpRequest) -> dict[str, Any]:
    """The section "Blocked people": those the person blocked, newest first, each with Unblock
    (one query)."""
    return {"blocked": blocked_names(request.user.pk)}

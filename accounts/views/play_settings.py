"""The play settings on the account page (docs/accounts.md, "Play settings"): its section and
``/accounts/play/``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.errors import AccountRefused
from accounts.forms import PlaySettingsForm
from accounts.models import PlaySettings
from accounts.selectors.play_settings import play_choices
from accounts.services.play_settings import play_settings_save

PLAY_SECTION = "accounts/account/_play.html"


def play_settings_context(request: HttpRequest) -> dict[str, Any]:
    """The section "Play": the settings in use and their form."""
    chosen = play_choices(request.user.pk)
    initial = {
        "confirm_moves": chosen.confirm_moves,
        "next_table_at_once": chosen.next_table_at_once,
        "keyboard_shortcuts": chosen.keyboard_shortcuts,
        "text_mode": chosen.text_mode,
    }
    return {"chosen": chosen, "form": PlaySettingsForm(initial=initial)}


# How the saved message words each answer to "Confirm each move".
CONFIRM_WORDS = {
    PlaySettings.Confirm.AUTO: gettext_lazy("confirm moves on a touch screen only"),
    PlaySettings.Confirm.ON: gettext_lazy("confirm moves always"),
    PlaySettings.Confirm.OFF: gettext_lazy("confirm moves never"),
}


def _saved_words(chosen: Any) -> str:
    """The line after the play settings are saved: every setting as it now stands."""
    if chosen.next_table_at_once:
        next_table = _("the next table waiting for you opens at once")
    else:
        next_table = _("the next table waiting for you opens by its link")
    keys = _("keyboard shortcuts on") if chosen.keyboard_shortcuts else _("keyboard shortcuts off")
    text = _("text mode on") if chosen.text_mode else _("text mode off")
    return _("Play settings saved: %(confirm)s; %(next)s; %(keys)s; %(text)s.") % {
        "confirm": CONFIRM_WORDS[PlaySettings.Confirm(chosen.confirm_moves)],
        "next": next_table,
        "keys": keys,
        "text": text,
    }


@login_required
@require_POST
def play_settings_change(request: HttpRequest) -> HttpResponse:
    """``/accounts/play/``: save the play settings; a refusal shows the section alone with its
    message (400) and changes nothing."""
    form = PlaySettingsForm(request.POST)
    if form.is_valid():
        try:
            play_settings_save(user_id=request.user.pk, **form.cleaned_data)
        except AccountRefused as refused:
            form.add_error(None, refused.message)
        else:
            chosen = play_choices(request.user.pk)
            messages.success(request, _saved_words(chosen))
            return redirect(reverse("account") + "#account-play")
    context = {**play_settings_context(request), "form": form}
    context["error"] = _("Nothing changed: choose one of the offered answers.")
    sections = [(PLAY_SECTION, context)]
    return render(request, "accounts/account.html", {"sections": sections}, status=400)

"""The language on the account page (docs/translation.md): its section and
``/accounts/language/``; and the footer's switch for everyone (``/language/``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts.errors import AccountRefused
from accounts.forms import LanguageForm
from accounts.selectors.language import language_known, language_of
from accounts.services.language import language_store, remember_in_session

LANGUAGE_SECTION = "accounts/account/_language.html"


def language_context(request: HttpRequest) -> dict[str, Any]:
    """The section "Language": the language in use (chosen, or the browser's) and the form."""
    chosen = language_of(request.user.pk)
    current = chosen or translation.get_language()
    return {
        "chosen": chosen,
        "current_name": dict(LanguageForm.base_fields["language"].choices).get(current, current),
        "form": LanguageForm(initial={"language": current}),
    }


@login_required
@require_POST
def language_change(request: HttpRequest) -> HttpResponse:
    """``/accounts/language/``: keep the chosen language and read in it at once; a refusal
    shows the section alone with its message (400) and changes nothing."""
    form = LanguageForm(request.POST)
    if form.is_valid():
        try:
            language_store(user_id=request.user.pk, language=form.cleaned_data["language"])
        except AccountRefused as refused:
            form.add_error(None, refused.message)
        else:
            remember_in_session(request, form.cleaned_data["language"])
            messages.success(request, _("From now on Parlour speaks your language."))
            return redirect(reverse("account") + "#account-language")
    context = {**language_context(request), "form": form}
    sections = [(LANGUAGE_SECTION, context)]
    return render(request, "accounts/account.html", {"sections": sections}, status=400)


@require_POST
def language_switch(request: HttpRequest) -> HttpResponse:
    """``/language/``: the footer's switch, for anyone. Django's ``set_language`` keeps the
    choice in a cookie and goes back to ``next`` (a path of this site only); for a signed-in
    person it is also stored on the account, as the account page's choice is. A language the
    site does not speak is a 400 and changes nothing."""
    language = request.POST.get("language")
    if not language_known(language):
        return HttpResponseBadRequest(
            _("Choose one of the offered languages."), content_type="text/plain; charset=utf-8"
        )
    if request.user.is_authenticated:
        language_store(user_id=request.user.pk, language=language)
        remember_in_session(request, language)
    return set_language(request)

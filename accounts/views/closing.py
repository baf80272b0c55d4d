"""The pages that close or delete one's own account (docs/accounts.md, "Closing and
deleting"): each a page saying what will happen, confirmed by the password. The writes are
``accounts.services.closure`` and ``accounts.services.deletion``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.forms import PasswordConfirmForm
from accounts.selectors.closure import CLOSED_DAYS, reopen_by
from accounts.services.closure import account_close
from accounts.services.deletion import account_delete
from accounts.throttling import _wait, in_minutes

CONFIRM_RATE = "10/h"  # close and delete posts per person: a held session cannot guess on


def closing_context(request: HttpRequest) -> dict[str, Any]:
    """The account page's section: links to the close and delete pages."""
    return {"closed_days": CLOSED_DAYS}


def _confirm(
    request: HttpRequest, template: str
) -> tuple[PasswordConfirmForm, HttpResponse | None]:
    """The form, and the refusal to answer with (``None``: a valid POST, go ahead)."""
    posted = request.method == "POST"
    form = PasswordConfirmForm(request.POST if posted else None, user=request.user)
    context = {"form": form, "closed_days": CLOSED_DAYS}
    if not posted:
        return form, render(request, template, context)
    minutes = _wait(request, group="account_confirm", rate=CONFIRM_RATE, key="user")
    if minutes is not None:
        context["throttle_message"] = _(
            "Too many tries: try again in about %(wait)s. Nothing was changed."
        ) % {"wait": in_minutes(minutes)}
        return form, render(request, template, context, status=429)
    if not form.is_valid():
        return form, render(request, template, context, status=400)
    return form, None


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def account_close_page(request: HttpRequest) -> HttpResponse:
    """``/accounts/close/``: what closing does; the password closes the account, signs the
    person out everywhere and answers with the sign-in page, saying how to reopen it."""
    _form, refusal = _confirm(request, "accounts/close.html")
    if refusal is not None:
        return refusal
    closure = account_close(user=request.user)
    logout(request)
    until = reopen_by(closure)
    messages.info(
        request,
        _(
            "Your account is closed and you are signed out everywhere. Sign in before "
            "%(date)s to open it again; after that it is deleted."
        )
        % {"date": f"{until:%Y-%m-%d}"},
    )
    # The sign-in page itself, not a redirect to it: what follows is a sign-in, not a refusal.
    context = {"form": AuthenticationForm(request), "next": ""}
    return render(request, "registration/login.html", context)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def account_delete_page(request: HttpRequest) -> HttpResponse:
    """``/accounts/delete/``: what deleting does; the password deletes the account at once."""
    _form, refusal = _confirm(request, "accounts/delete.html")
    if refusal is not None:
        return refusal
    user = request.user
    logout(request)
    account_delete(user=user)
    messages.info(request, _("Your account is deleted. Thank you for playing."))
    return redirect("home")

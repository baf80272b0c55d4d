"""Changing one's name from the account page, and following an old name to the person's
profile (docs/accounts.md, "Your name"); the rules are ``accounts.forms.RenameForm``'s and
``accounts.services.rename``'s."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import RenameForm
from accounts.views import account_page


@login_required
@require_POST
def rename(request: HttpRequest) -> HttpResponse:
    """``/accounts/name/``: the identity section's form. Refused: the account page again with
    the form's errors, a 400, nothing changed."""
    form = RenameForm(request.POST, user=request.user)
    if form.is_valid() and form.save():
        messages.success(
            request, _("Your name is now %(name)s.") % {"name": request.user.get_username()}
        )
        return redirect("account")
    return account_page.page(
        request, status=400, overrides={account_page.IDENTITY: {"rename_form": form}}
    )

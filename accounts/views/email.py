"""The confirmation link's page and sending the link again (docs/accounts.md, "E-mail"); what
they do is ``accounts.services.email_confirmation``'s."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import throttling
from accounts.selectors.email_confirmation import (
    STALE,
    already_confirmed,
    link_problem,
    link_read,
    pending_address,
)
from accounts.services.email_confirmation import email_link_confirm, email_link_send
from accounts.views import account_page

TEMPLATE = "accounts/confirm_email.html"


def _refused(request: HttpRequest, problem: str) -> HttpResponse:
    return render(request, TEMPLATE, {"problem": problem}, status=400)


@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """``/accounts/email/confirm/<token>/``: the link's page (GET: the address and a button),
    and the button (POST: confirm). No sign-in needed, the signed token is the proof; signed in
    as another account, the link is refused."""
    link = link_read(token)
    if isinstance(link, str):
        return _refused(request, link)
    problem = link_problem(link, request)
    if problem == STALE and already_confirmed(link):
        # The link was used already (a second click, the mail opened twice): no change.
        return render(request, TEMPLATE, {"email": link.email, "done": True})
    if problem is not None:
        return _refused(request, problem)
    if request.method == "GET":
        return render(request, TEMPLATE, {"email": link.email, "token": token})
    problem = email_link_confirm(link)
    if problem is not None:
        return _refused(request, problem)
    return render(request, TEMPLATE, {"email": link.email, "done": True})


@login_required
@require_POST
def email_resend(request: HttpRequest) -> HttpResponse:
    """``/accounts/email/resend/``: mail the pending address's link again, at most
    ``PARLOUR_EMAIL_CONFIRM_RATE`` per account (over it: the account page, the message, 429)."""
    pending = pending_address(request.user.pk)
    if pending is None:
        messages.info(request, _("There is no address waiting for confirmation."))
        return redirect("account")
    refusal = throttling.confirmation_refusal(request)
    if refusal is not None:
        return account_page.page(request, status=429, notice=refusal)
    if email_link_send(request.user, email=pending.email):
        messages.success(
            request, _("We sent the link again to %(email)s.") % {"email": pending.email}
        )
    else:
        messages.error(request, _("The mail could not be sent just now: try again later."))
    return redirect("account")

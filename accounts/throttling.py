"""Sign-in throttling: who gets locked out, for how long, and the page they see (docs/hardening.md).

Failed sign-ins are counted by django-axes (through ``authenticate``, so the site's login page
and the admin's are covered alike). Two locks, both lasting ``AXES_COOLOFF_TIME`` counted from
the failure that set them off:

- the pair: ``AXES_FAILURE_LIMIT`` failures for one account from one address lock that account
  for that address only. Someone guessing a password cannot go on, while the account's owner,
  signing in from elsewhere, is not locked out by a stranger, and the other people behind the
  same address (a household, an office) can still sign in to their own accounts;
- the address: ``PARLOUR_LOGIN_ADDRESS_FAILURES`` failures from one address across any
  accounts lock every sign-in from that address. This is password spraying (one common password
  tried on many accounts), which the pair lock alone never sees. The threshold is well above the
  pair's so that a shared address with a few forgetful people is not caught by it.

Registration and password reset are limited per address (and reset per e-mail address too) with
django-ratelimit, counted in the ``throttle`` cache (accounts/throttle_cache.py).

Every refusal is the form's own page, in the site's look, with the message and status 429.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.db.models import Max, Sum
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.timezone import now
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django_ratelimit.core import get_usage

from accounts.client_address import client_address
from accounts.sign_in import SignInForm, sign_in_reason

PAIR_PARAMETERS: list[Any] = [["username", "ip_address"]]
ADDRESS_PARAMETERS: list[Any] = ["ip_address"]

# Each worded when refused, in the reader's language; ``%(wait)s`` is ``in_minutes``' words.
PAIR_MESSAGE = gettext_lazy(
    "Too many failed sign-ins for this account from your address. Try again in about %(wait)s."
)
ADDRESS_MESSAGE = gettext_lazy(
    "Too many failed sign-ins from your address. Try again in about %(wait)s."
)
REGISTER_MESSAGE = gettext_lazy(
    "Too many registrations from your address. Try again in about %(wait)s."
)
RESET_MESSAGE = gettext_lazy("Too many password-reset requests. Try again in about %(wait)s.")
CONFIRM_MESSAGE = gettext_lazy(
    "Too many confirmation mails asked for this account. Try again in about %(wait)s."
)


def attempted_username(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the username tried, as axes can store it.

    Axes' own lookup (the credentials, else the POST) passes the value on as sent, and its row
    holds 255 characters; a longer one (the login form caps nothing it hands ``authenticate``)
    or one with a NUL in it makes PostgreSQL refuse the row, a 500. No account has such a name,
    so trimming it only ever merges counts of names no one can sign in with.
    """
    field = settings.AXES_USERNAME_FORM_FIELD
    value = (
        credentials.get(field) if credentials else getattr(request, "data", request.POST).get(field)
    )
    if value is None:
        return None
    return str(value).replace("\x00", "")[:255]


def _cool_off() -> timedelta:
    return get_cool_off() or timedelta(0)


def _recent_failures(**filters: Any):
    """Axes' failure rows matching ``filters`` that still count (inside the cool-off)."""
    return AccessAttempt.objects.filter(attempt_time__gte=now() - _cool_off(), **filters)


def address_locked(ip_address: str) -> bool:
    """Whether ``ip_address`` has failed often enough, over all accounts, to be locked itself."""
    total = _recent_failures(ip_address=ip_address).aggregate(n=Sum("failures_since_start"))["n"]
    return (total or 0) >= settings.PARLOUR_LOGIN_ADDRESS_FAILURES


def lockout_parameters(request_or_attempt: Any, credentials: dict | None = None) -> list[Any]:
    """``AXES_LOCKOUT_PARAMETERS``: the pair, or the address alone once it is spraying.

    Axes compares one failure count with one limit; counting the address alone (every account's
    failures from it) reaches ``AXES_FAILURE_LIMIT`` at once, which is why the switch to it waits
    for the much larger ``PARLOUR_LOGIN_ADDRESS_FAILURES``. Axes also calls this with a stored
    attempt row (not a request) when it lists or resets rows: those always get the pair.
    """
    if not isinstance(request_or_attempt, HttpRequest):
        return PAIR_PARAMETERS
    ip_address = getattr(request_or_attempt, "axes_ip_address", None) or client_address(
        request_or_attempt
    )
    return ADDRESS_PARAMETERS if address_locked(ip_address) else PAIR_PARAMETERS


def in_minutes(minutes: int) -> str:
    """A wait in whole minutes, in words ("1 minute", "5 minutes")."""
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def _minutes_left(last_failure: datetime | None) -> int:
    """Whole minutes (at least 1) until the lock set at ``last_failure`` lifts."""
    cool_off = _cool_off()
    remaining = cool_off if last_failure is None else last_failure + cool_off - now()
    return max(1, math.ceil(remaining.total_seconds() / 60))


def lockout_message(request: HttpRequest, credentials: dict | None = None) -> str:
    """The refusal's text: which lock holds, and roughly how long it has left."""
    ip_address = getattr(request, "axes_ip_address", None) or client_address(request)
    if address_locked(ip_address):
        rows, template = _recent_failures(ip_address=ip_address), ADDRESS_MESSAGE
    else:
        username = get_client_username(request, credentials)
        rows = _recent_failures(ip_address=ip_address, username=username)
        template = PAIR_MESSAGE
    last_failure = rows.aggregate(last=Max("attempt_time"))["last"]
    return str(template) % {"wait": in_minutes(_minutes_left(last_failure))}


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` the form carried, if it is a URL of this site (as LoginView checks it)."""
    target = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME, "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the login page again, with the message, as a 429.

    The form is unbound (only the username is filled back in): validating it would call
    ``authenticate`` once more, and the password is not echoed anyway. The admin's login gets
    the admin's own page, the message shown as the form's error.
    """
    message = lockout_message(request, credentials)
    username = (get_client_username(request, credentials) or "")[:150]
    status = settings.AXES_HTTP_RESPONSE_CODE
    match = getattr(request, "resolver_match", None)
    if match is not None and match.app_name == "admin":
        form = AdminAuthenticationForm(request, initial={"username": username})
        form._errors = ErrorDict({"__all__": form.error_class([message], error_class="nonfield")})
        context = {
            **admin.site.each_context(request),
            "title": _("Log in"),
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
            "form": form,
            REDIRECT_FIELD_NAME: _safe_next(request),
        }
        return render(request, "admin/login.html", context, status=status)
    form = SignInForm(request, initial={"username": username})
    target = _safe_next(request)
    context = {
        "form": form,
        "lockout_message": message,
        REDIRECT_FIELD_NAME: target,
        "sign_in_reason": sign_in_reason(target, request),
    }
    return render(request, "registration/login.html", context, status=status)


def _email_key(group: str, request: HttpRequest) -> str:
    return request.POST.get("email", "").strip().lower()


def _wait(request: HttpRequest, *, group: str, rate: str, key: Any) -> int | None:
    """Count this POST against ``rate``; the minutes until the window ends if it is over."""
    usage = get_usage(request, group=group, key=key, rate=rate, method="POST", increment=True)
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, math.ceil(usage["time_left"] / 60))


def registration_refusal(request: HttpRequest) -> str | None:
    """The message refusing this registration POST, or None if it may go ahead."""
    minutes = _wait(request, group="register", rate=settings.PARLOUR_REGISTER_RATE, key="ip")
    return None if minutes is None else str(REGISTER_MESSAGE) % {"wait": in_minutes(minutes)}


def password_reset_refusal(request: HttpRequest) -> str | None:
    """The message refusing this password-reset POST, or None if it may go ahead.

    Per address first; a POST refused there does not count against the e-mail address, so a
    stranger spending their own allowance cannot also use up the owner's. The per-address limit
    stops one client mailing many people; the per-e-mail one stops many clients (or one behind
    many addresses) flooding one person's mailbox.
    """
    minutes = _wait(
        request, group="password_reset", rate=settings.PARLOUR_RESET_RATE_ADDRESS, key="ip"
    )
    if minutes is None and _email_key("", request):
        minutes = _wait(
            request,
            group="password_reset_email",
            rate=settings.PARLOUR_RESET_RATE_EMAIL,
            key=_email_key,
        )
    return None if minutes is None else str(RESET_MESSAGE) % {"wait": in_minutes(minutes)}


def _account_key(group: str, request: HttpRequest) -> str:
    return str(request.user.pk)


def confirmation_refusal(request: HttpRequest) -> str | None:
    """The message refusing this POST that would mail a confirmation link (a new address, or
    the link again), or None if it may go ahead. Counted per account: one person cannot flood
    an address, whatever addresses they post from."""
    minutes = _wait(
        request, group="email_confirm", rate=settings.PARLOUR_EMAIL_CONFIRM_RATE, key=_account_key
    )
    return None if minutes is None else str(CONFIRM_MESSAGE) % {"wait": in_minutes(minutes)}

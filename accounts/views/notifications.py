"""The person's notification settings page (``/accounts/notifications/``: the boxes, the address
mail goes to, the push devices) and the one-click unsubscribe link of every mail
(docs/notifications.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts import throttling
from accounts.forms import EmailAddressForm, NotificationSettingsForm
from accounts.selectors import notify
from accounts.selectors.email_confirmation import pending_address
from accounts.selectors.push_devices import devices_of, push_device_lines
from accounts.services.notify import unsubscribe_apply
from accounts.views.push import device_label
from accounts.views.register import CONFIRM_NOT_SENT

EMAIL_FORM = "email"  # the ``form`` value of the address's form; any other POST is the boxes'


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: HttpRequest) -> HttpResponse:
    """``/accounts/notifications/``: turn each kind of mail on or off, and add or change the
    address the mail goes to (two forms on one page; a POST is the address's when its ``form``
    says so)."""
    instance = notify.settings_for(request.user.pk)
    posted = request.POST if request.method == "POST" else None
    for_email = posted is not None and posted.get("form") == EMAIL_FORM
    # All boxes off: an empty POST.
    form = NotificationSettingsForm(None if for_email else posted, instance=instance)
    email_form = EmailAddressForm(
        posted if for_email else None, user=request.user, initial={"email": request.user.email}
    )
    context = {
        "form": form,
        "email_form": email_form,
        "has_email": bool(request.user.email),
        "pending": pending_address(request.user.pk),
        # Each device with its name in the reader's words ("Chrome on Android").
        "devices": [
            (line, device_label(line.browser, line.system))
            for line in push_device_lines(devices_of(request.user.pk))
        ],
        "vapid_public_key": settings.PARLOUR_VAPID_PUBLIC_KEY,
    }
    if posted is None:
        return render(request, "accounts/notifications.html", context)
    if for_email:
        return _email_posted(request, email_form, context)
    if form.is_valid():
        form.save()
        messages.success(request, _("Your notification settings are saved."))
        return redirect("notification_settings")
    return render(request, "accounts/notifications.html", context, status=400)


def _email_posted(
    request: HttpRequest, email_form: EmailAddressForm, context: dict[str, Any]
) -> HttpResponse:
    """A new address: held as pending and its link mailed, each mail counted against the
    account's confirmation limit (over it: the page, the message, a 429, nothing held)."""
    if not email_form.is_valid():
        return render(request, "accounts/notifications.html", context, status=400)
    if email_form.is_confirmed_already():
        email_form.save()
        messages.success(
            request,
            _("%(email)s is your confirmed address already.") % {"email": request.user.email},
        )
        return redirect("notification_settings")
    pending = context["pending"]
    if pending is not None and pending.email == email_form.cleaned_data["email"]:
        # A double click, or the form sent again: its link went already.
        messages.info(
            request,
            _(
                "The link went to %(email)s already: open it, or send it again from your "
                "account page."
            )
            % {"email": pending.email},
        )
        return redirect("notification_settings")
    refusal = throttling.confirmation_refusal(request)
    if refusal is not None:
        context["throttle_message"] = refusal
        return render(request, "accounts/notifications.html", context, status=429)
    email = email_form.cleaned_data["email"]
    if email_form.save():
        if request.user.email:
            words = _(
                "We mailed a link to %(email)s: open it to confirm. "
                "Mail goes to %(old)s until then."
            ) % {"email": email, "old": request.user.email}
        else:
            words = _("We mailed a link to %(email)s: open it to confirm.") % {"email": email}
        messages.success(request, words)
    else:
        messages.error(request, CONFIRM_NOT_SENT)
    return redirect("notification_settings")


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The one-click unsubscribe link of every mail (RFC 8058), no sign-in needed.

    GET shows a page with a confirm button (so a mail scanner following links changes nothing);
    POST, from that button or from the mail client's ``List-Unsubscribe-Post``, turns the kind
    off. It is exempt from CSRF because the mail client's POST carries no token: the signed
    token in the URL is the proof. A forged or tampered token is a 400.
    """
    target = notify.unsubscribe_read(token)
    if target is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    context = {"kind": target.kind, "token": token, "done": False}
    if request.method == "POST":
        if not unsubscribe_apply(target):
            return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
        context["done"] = True
    return render(request, "accounts/unsubscribe.html", context)

"""The devices section of the notifications page: "Notify this device" posts the browser's
push subscription here (``static/js/push_devices.js``), and each device's "Remove" is a plain
form (docs/notifications.md, "Web push")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.errors import AccountRefused
from accounts.services.push_devices import (
    device_keep,
    device_remove,
    subscription_read,
)


def device_label(browser: str, system: str) -> str:
    """What the devices list calls a device, in the reader's language: "Chrome on Android",
    "Chrome" or "Android" alone, else "A browser" (the names are stored: ``PushSubscription``)."""
    if browser and system:
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return browser or system or _("A browser")


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """``/accounts/notifications/devices/``: keep this browser's subscription (JSON) as one of
    the person's devices; a 201 naming it, or a 400 with the reason and nothing kept."""
    if request.content_type != "application/json":
        # A form's body may already be read as a stream (CSRF reads a multipart POST for its
        # token), after which request.body raises: the subscription is JSON or nothing.
        return JsonResponse({"error": _("The subscription is sent as JSON.")}, status=400)
    try:
        subscription = subscription_read(request.body)
    except AccountRefused as refused:
        return JsonResponse({"error": refused.message}, status=refused.status)
    device = device_keep(
        user_id=request.user.pk,
        subscription=subscription,
        user_agent=request.headers.get("User-Agent", ""),
    )
    label = device_label(device.browser, device.system)
    return JsonResponse({"device": device.pk, "label": label}, status=201)


@login_required
@require_POST
def push_device_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """``/accounts/notifications/devices/<pk>/remove/``: stop pushing to one of the person's
    devices; anyone else's device (or none) is a 404."""
    if not device_remove(user_id=request.user.pk, device_id=pk):
        raise Http404(_("No such device of yours."))
    messages.success(request, _("That device gets no more notifications from Parlour."))
    return redirect("notification_settings")

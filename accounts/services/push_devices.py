"""A person's devices for web push: reading a browser's subscription, keeping it, at most
``PARLOUR_PUSH_DEVICES`` a person, and removing one (docs/notifications.md, "Web push").

A subscription is what ``PushSubscription.toJSON()`` gives in the browser:
``{"endpoint": "https://…", "keys": {"p256dh": "…", "auth": "…"}}``. Every part is checked
before anything is stored: the worker will POST to that endpoint, so it must be a push service
the site knows (``PARLOUR_PUSH_HOSTS``, https), or with ``PARLOUR_PUSH_LOOPBACK`` an http address
on this machine's loopback; the keys must be base64url of the right lengths, the public one a
point of the P-256 curve.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.errors import AccountRefused
from accounts.models import PushSubscription

ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length
BODY_MAX = 4096  # bytes of a subscription's JSON: an endpoint and two keys fit many times over
B64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")
LOOPBACK_NAMES = {"localhost"}


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str


def _b64url_bytes(value: Any, name: str) -> bytes:
    if not isinstance(value, str) or not B64URL.fullmatch(value):
        raise AccountRefused(_("The key %(name)s is not base64url text.") % {"name": name}, 400)
    try:
        return base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise AccountRefused(
            _("The key %(name)s is not base64url text.") % {"name": name}, status=400
        ) from None


def _loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _endpoint_checked(endpoint: Any) -> str:
    if not isinstance(endpoint, str) or not endpoint:
        raise AccountRefused(_("The subscription has no endpoint."), status=400)
    if len(endpoint) > ENDPOINT_MAX or any(ord(c) <= 32 or ord(c) >= 127 for c in endpoint):
        raise AccountRefused(_("The endpoint is not an address the site can use."), status=400)
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - raises ValueError on a port out of range
    except ValueError:
        raise AccountRefused(
            _("The endpoint is not an address the site can use."), status=400
        ) from None
    if parts.username is not None or parts.password is not None or not host:
        raise AccountRefused(_("The endpoint is not an address the site can use."), status=400)
    if parts.scheme == "http" and settings.PARLOUR_PUSH_LOOPBACK and _loopback(host):
        return endpoint
    if parts.scheme != "https":
        raise AccountRefused(_("The endpoint must be an https address."), status=400)
    host = host.lower().rstrip(".")
    known = settings.PARLOUR_PUSH_HOSTS
    if not any(host == service or host.endswith("." + service) for service in known):
        raise AccountRefused(
            _("This browser's push service is not one Parlour sends to: try another browser."),
            status=400,
        )
    return endpoint


def subscription_read(body: bytes) -> Subscription:
    """The subscription in a request's JSON ``body``, every part checked; refused with its
    reason (``AccountRefused``, status 400) when any part is missing, malformed or not allowed."""
    if len(body) > BODY_MAX:
        raise AccountRefused(_("The subscription is too long."), status=400)
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise AccountRefused(_("The subscription is not readable JSON."), status=400) from None
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise AccountRefused(_("The subscription has no keys."), status=400)
    endpoint = _endpoint_checked(data.get("endpoint"))
    keys = data["keys"]
    point = _b64url_bytes(keys.get("p256dh"), "p256dh")
    if len(point) != 65 or point[0] != 4:
        raise AccountRefused(_("The key p256dh is not an uncompressed P-256 point."), status=400)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise AccountRefused(
            _("The key p256dh is not a point of the P-256 curve."), status=400
        ) from None
    if len(_b64url_bytes(keys.get("auth"), "auth")) != 16:
        raise AccountRefused(_("The key auth is not 16 bytes."), status=400)
    return Subscription(
        endpoint=endpoint, p256dh=keys["p256dh"].rstrip("="), auth=keys["auth"].rstrip("=")
    )


BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"))
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def device_names(user_agent: str) -> tuple[str, str]:
    """The browser's and the system's names in a User-Agent, ``("Chrome", "Android")``; ``""``
    for either not recognised. Proper names, the same in every language: the devices list words
    them for its reader ("Chrome on Android": ``accounts.views.push.device_label``). The
    User-Agent itself is not kept."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "")
    if not browser and "Safari/" in user_agent:
        browser = "Safari"
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    return browser, system


def device_keep(
    *, user_id: int, subscription: Subscription, user_agent: str, now: datetime | None = None
) -> PushSubscription:
    """Keep ``subscription`` as one of the person's devices and drop their oldest past the
    limit. The same endpoint again (the browser subscribed anew, or another account signed in
    on it) is that device, now this person's, with its new keys."""
    now = now or timezone.now()
    browser, system = device_names(user_agent)
    with transaction.atomic():
        device, _ = PushSubscription.objects.update_or_create(
            endpoint=subscription.endpoint,
            defaults={
                "user_id": user_id,
                "p256dh": subscription.p256dh,
                "auth": subscription.auth,
                "browser": browser,
                "system": system,
                "created_at": now,
                "last_success_at": None,
            },
        )
        kept = PushSubscription.objects.filter(user_id=user_id).order_by("-created_at", "-pk")
        over = list(kept.values_list("pk", flat=True)[settings.PARLOUR_PUSH_DEVICES :])
        if over:
            PushSubscription.objects.filter(pk__in=over).delete()
    return device


def device_remove(*, user_id: int, device_id: int) -> bool:
    """Remove one of the person's devices; ``False`` when they have no such device."""
    removed, _ = PushSubscription.objects.filter(user_id=user_id, pk=device_id).delete()
    return bool(removed)

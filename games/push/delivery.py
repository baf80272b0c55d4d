"""Sending one push to each of a person's devices (docs/notifications.md, "Web push").

Each push is encrypted for its device (RFC 8291, ``aes128gcm``) and signed with the site's VAPID
key (RFC 8292) by ``pywebpush``, and carries the RFC 8030 headers: ``TTL`` (how long the push
service keeps it for a device that is off), ``Urgency`` and ``Topic`` (a newer push of the same
topic replaces one not yet delivered). A device whose push service answers 404 or 410 has
unsubscribed or expired: it is removed. Any other failure (a 5xx, a 429, a timeout, a refused
connection) is logged with the device's id and kept for the next push. Nothing in a payload or
a log line is more than the caller's ``PushMessage``: a title, a short text and a link.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

import requests
from django.conf import settings
from django.utils import timezone
from pywebpush import WebPushException, webpush

from accounts.models import PushSubscription

logger = logging.getLogger(__name__)

GONE = {404, 410}  # RFC 8030 §7.3: the subscription is no more
URGENCIES = {"very-low", "low", "normal", "high"}


@dataclass(frozen=True)
class PushMessage:
    title: str
    body: str
    url: str  # a path on the site ("/matches/12/")
    topic: str  # RFC 8030 Topic: at most 32 characters of the base64url alphabet
    urgency: str = "normal"

    def payload(self) -> str:
        """What the service worker reads (``static/sw.js``): the notification's words, link
        and tag (the topic, so a newer notification replaces an unread one on the device)."""
        return json.dumps(
            {"title": self.title, "body": self.body, "url": self.url, "tag": self.topic},
            separators=(",", ":"),
        )


@dataclass(frozen=True)
class Delivery:
    sent: int = 0  # devices whose push service took the push (2xx)
    removed: int = 0  # devices gone (404/410), deleted
    failed: int = 0  # devices kept after another failure


def _send_one(device: PushSubscription, message: PushMessage) -> int | None:
    """The push service's status for ``device`` (``None``: no answer at all)."""
    try:
        response = webpush(
            subscription_info={
                "endpoint": device.endpoint,
                "keys": {"p256dh": device.p256dh, "auth": device.auth},
            },
            data=message.payload(),
            vapid_private_key=settings.PARLOUR_VAPID_PRIVATE_KEY,
            # A fresh dict each time: webpush writes this device's origin ("aud") into it.
            vapid_claims={"sub": settings.PARLOUR_VAPID_SUBJECT},
            ttl=settings.PARLOUR_PUSH_TTL,
            timeout=settings.PARLOUR_PUSH_TIMEOUT,
            headers={"Urgency": message.urgency, "Topic": message.topic},
        )
    except WebPushException as exc:
        if exc.response is None:
            logger.warning("push to device %s failed: %s", device.pk, type(exc).__name__)
            return None
        return exc.response.status_code
    except requests.RequestException as exc:
        logger.warning("push to device %s got no answer: %s", device.pk, type(exc).__name__)
        return None
    return response.status_code


def push_deliver(*, user_id: int, message: PushMessage) -> Delivery:
    """Send ``message`` to every device of the person, one after another, each bounded by
    ``PARLOUR_PUSH_TIMEOUT``; remove the devices that are gone."""
    if message.urgency not in URGENCIES or len(message.topic) > 32:
        raise ValueError(f"not a push message RFC 8030 allows: {message.urgency}, {message.topic}")
    sent = removed = failed = 0
    for device in PushSubscription.objects.filter(user_id=user_id).order_by("pk"):
        status = _send_one(device, message)
        if status is not None and 200 <= status < 300:
            sent += 1
            PushSubscription.objects.filter(pk=device.pk).update(last_success_at=timezone.now())
        elif status in GONE:
            removed += 1
            PushSubscription.objects.filter(pk=device.pk).delete()
            logger.info("push device %s is gone (%s): removed", device.pk, status)
        else:
            failed += 1
            if status is not None:
                logger.warning("push to device %s refused with %s: kept", device.pk, status)
    return Delivery(sent=sent, removed=removed, failed=failed)

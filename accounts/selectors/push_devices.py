"""The person's push devices, read (docs/notifications.md, "Web push"): the rows, and each as
the notifications page lists it (never its keys)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from accounts.models import PushSubscription


def devices_of(user_id: int) -> list[PushSubscription]:
    """The person's devices, newest first."""
    return list(PushSubscription.objects.filter(user_id=user_id).order_by("-created_at", "-pk"))


@dataclass(frozen=True)
class DeviceLine:
    """One device as the notifications page lists it: never its keys; its endpoint only as a
    digest, which the page's script compares with this browser's to say "this device"."""

    pk: int
    browser: str  # its browser's name ("Chrome"), "" when not known
    system: str  # its system's ("Android"), "" when not known
    created_at: datetime
    last_success_at: datetime | None
    endpoint_digest: str  # SHA-256 of the endpoint, hex


def push_device_lines(devices: list[PushSubscription]) -> list[DeviceLine]:
    return [
        DeviceLine(
            pk=device.pk,
            browser=device.browser,
            system=device.system,
            created_at=device.created_at,
            last_success_at=device.last_success_at,
            endpoint_digest=hashlib.sha256(device.endpoint.encode()).hexdigest(),
        )
        for device in devices
    ]

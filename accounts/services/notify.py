"""The person's notification settings, written by the one-click unsubscribe link
(docs/notifications.md); the settings page's form saves the rest (``accounts.forms``)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from accounts.models import NotificationSettings
from accounts.selectors.notify import KINDS, Unsubscribe


def unsubscribe_apply(target: Unsubscribe) -> bool:
    """Turn the kind off for the person; ``False`` when the person no longer exists."""
    if not get_user_model().objects.filter(pk=target.user_id).exists():
        return False
    NotificationSettings.objects.update_or_create(
        user_id=target.user_id, defaults={KINDS[target.kind]: False}
    )
    return True

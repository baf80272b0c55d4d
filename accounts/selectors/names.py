"""Names, read (docs/accounts.md, "Your name"): when a person may change theirs next, and
who holds a name given up recently (``NAME_HELD``: it leads to their profile, and no one else
may register it or take it by a rename)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import NameChange

RENAME_EVERY = timedelta(days=30)
NAME_HELD = timedelta(days=90)


def next_change_at(user_id: int) -> datetime | None:
    """When the person may change their name again, or ``None`` when they may now."""
    last = (
        NameChange.objects.filter(user_id=user_id)
        .order_by("-changed_at")
        .values_list("changed_at", flat=True)
        .first()
    )
    if last is None or last + RENAME_EVERY <= timezone.now():
        return None
    return last + RENAME_EVERY


def held_for(name: str) -> int | None:
    """The account an old name still belongs to (changed within ``NAME_HELD``), if any."""
    since = timezone.now() - NAME_HELD
    return (
        NameChange.objects.filter(old_name__iexact=name, changed_at__gte=since)
        .order_by("-changed_at")
        .values_list("user_id", flat=True)
        .first()
    )


def name_unavailable(name: str, *, user_id: int | None) -> bool:
    """Whether ``name`` is another account's, now or as an old name still held."""
    others = get_user_model().objects.filter(username__iexact=name)
    if user_id is not None:
        others = others.exclude(pk=user_id)
    holder = held_for(name)
    return others.exists() or (holder is not None and holder != user_id)

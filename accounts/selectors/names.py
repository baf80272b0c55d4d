"""Names, read (docs/accounts.md, "Your name"): when a person may change theirs next, who holds
a name given up recently by a rename (``NAME_HELD``: it leads to their profile, and no one else
may register it or take it by a rename), which names a deleted account gave up (held the same
way, leading nowhere), and the one refusal registration and a rename both give."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.models import HeldName, NameChange
from accounts.services.deleted_names import name_refusal

RENAME_EVERY = timedelta(days=30)
NAME_HELD = timedelta(days=90)
TAKEN = gettext_lazy("That name is taken: choose another.")  # worded when refused


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


def held_after_deletion(name: str) -> bool:
    """Whether ``name`` was given up by an account deleted within ``NAME_HELD``."""
    since = timezone.now() - NAME_HELD
    return HeldName.objects.filter(name__iexact=name, given_up_at__gte=since).exists()


def name_unavailable(name: str, *, user_id: int | None) -> bool:
    """Whether ``name`` is another account's, now or as an old name still held (by a rename,
    or by a deletion: then it is no one's, so not ``user_id``'s either)."""
    others = get_user_model().objects.filter(username__iexact=name)
    if user_id is not None:
        others = others.exclude(pk=user_id)
    holder = held_for(name)
    return (
        others.exists() or (holder is not None and holder != user_id) or held_after_deletion(name)
    )


def name_choice_refusal(name: str, *, user_id: int | None) -> str | None:
    """Why ``name`` may not be taken, by registration (``user_id`` ``None``) or by ``user_id``'s
    rename, in the same words for both: another account's name, a name held after a rename or a
    deletion (``TAKEN``: which of them is not said), or the shape kept for deleted accounts.
    ``None``: it may be taken."""
    if name_unavailable(name, user_id=user_id):
        return str(TAKEN)
    return name_refusal(name)

"""A new name (docs/accounts.md, "Your name").

A person may change their name once every ``RENAME_EVERY``. Each change is a ``NameChange`` row;
for ``NAME_HELD`` after it the old name leads to the person's profile (``/players/<old>/``
redirects) and no one else may register it or take it by a rename. Names follow registration's
rules (Django's username validator and length, unique whatever their case).

Records and pages show the current name: they read it from the account when they are shown,
never store it (records keep names outside the hash chain), so a rename (and a deletion's
"deleted player N") reaches every page and record at once.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.errors import AccountRefused
from accounts.models import NameChange
from accounts.selectors.names import TAKEN, name_unavailable, next_change_at

__all__ = ["STALE_PAGE", "TAKEN", "name_change"]
STALE_PAGE = gettext_lazy("This page is out of date: reload it and try again. Nothing was changed.")


def name_change(user: AbstractBaseUser, *, name: str, current: str) -> None:
    """Rename ``user`` to ``name``, in one transaction with the person's row locked. Refused
    (``AccountRefused``, 409) when a change got there first: their name is no longer
    ``current`` (the name the page showed), they renamed less than ``RENAME_EVERY`` ago, or
    the name was taken meanwhile; an ``IntegrityError`` when the same name was registered or
    renamed to at the same moment."""
    User = get_user_model()
    with transaction.atomic():
        person = User.objects.select_for_update().get(pk=user.pk)
        if person.get_username() != current:
            raise AccountRefused(_("Your name has changed meanwhile: nothing was changed."))
        if next_change_at(person.pk) is not None:
            raise AccountRefused(_("Your name has changed meanwhile: nothing was changed."))
        if name_unavailable(name, user_id=person.pk):
            raise AccountRefused(TAKEN)
        NameChange.objects.create(
            user=person,
            old_name=person.get_username(),
            new_name=name,
            changed_at=timezone.now(),
        )
        User.objects.filter(pk=person.pk).update(username=name)

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

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import NameChange
from accounts.services.deleted_names import name_refusal

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


TAKEN = "That name is taken: choose another."
STALE_PAGE = "This page is out of date: reload it and try again. Nothing was changed."


class RenameForm(forms.Form):
    """The new name, confirmed by the password; ``current`` is the name the page showed, so a
    page left open across a change (or a second click) is refused rather than applied again."""

    new_name = forms.CharField(
        label="New name",
        max_length=150,
        help_text="Letters, digits and @/./+/-/_ only; once every 30 days.",
    )
    password = forms.CharField(
        label="Your password",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        strip=False,
    )
    current = forms.CharField(
        widget=forms.HiddenInput,
        max_length=150,
        error_messages={"required": STALE_PAGE, "max_length": STALE_PAGE},
    )

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        # Its own ids: other sections of the account page ask for the password too.
        kwargs.setdefault("auto_id", "rename-%s")
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["new_name"].validators.append(get_user_model().username_validator)
        self.fields["current"].initial = user.get_username()

    def clean_new_name(self) -> str:
        name = self.cleaned_data["new_name"]
        if name == self.user.get_username():
            raise forms.ValidationError("That is your name already.")
        if name_unavailable(name, user_id=self.user.pk):
            raise forms.ValidationError(TAKEN)
        refusal = name_refusal(name)  # the shape kept for deleted accounts
        if refusal is not None:
            raise forms.ValidationError(refusal)
        return name

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("current") not in (None, self.user.get_username()):
            raise forms.ValidationError(
                "Your name has changed since this page was shown: nothing was changed."
            )
        allowed = next_change_at(self.user.pk)
        if allowed is not None:
            raise forms.ValidationError(
                f"You changed your name less than 30 days ago: the next change is allowed "
                f"from {timezone.localtime(allowed):%d %B %Y, %H:%M} "
                f"({timezone.get_current_timezone_name()})."
            )
        return cleaned

    def save(self) -> bool:
        """Rename, in one transaction with the person's row locked; ``False`` (with the form's
        error) when a rename racing this one got there first: the name taken meanwhile, or
        this person's own other rename."""
        User = get_user_model()
        name = self.cleaned_data["new_name"]
        try:
            with transaction.atomic():
                user = User.objects.select_for_update().get(pk=self.user.pk)
                if user.get_username() != self.cleaned_data["current"]:
                    raise _Raced("Your name has changed meanwhile: nothing was changed.")
                if next_change_at(user.pk) is not None:
                    raise _Raced("Your name has changed meanwhile: nothing was changed.")
                if name_unavailable(name, user_id=user.pk):
                    raise _Raced(TAKEN)
                NameChange.objects.create(
                    user=user,
                    old_name=user.get_username(),
                    new_name=name,
                    changed_at=timezone.now(),
                )
                User.objects.filter(pk=user.pk).update(username=name)
        except _Raced as raced:
            self.add_error(None, str(raced))
            return False
        except IntegrityError:
            self.add_error("new_name", TAKEN)  # the same name, registered or renamed meanwhile
            return False
        self.user.username = name
        return True


class _Raced(Exception):
    """A rename found, once the row was locked, that another change got there first."""

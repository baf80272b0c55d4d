"""The sign-in page's words (docs/accounts.md, "Signing in"): what the person was going to
(``next=``), and the refusal of a name given up by a rename.

Both are decided without telling anything the person could not learn otherwise. The reason
is read from the shape of ``next=`` alone (a URL of this site they already hold), never from
the database, so "Sign in to see this match" is said alike of a public match, a private one
and none at all. The renamed-name refusal names no new name, and is said whatever password
was typed (no account has that name, so the password is never checked).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy

from accounts.selectors.closure import hidden_people
from accounts.selectors.names import held_for

# ``next=`` pointing at one of these URL names: what the sign-in leads on to.
MATCH_PAGES = frozenset(
    {"match_detail", "match_table", "match_replay", "match_analysis", "match_record"}
)
SEAT_PAGES = frozenset({"match_invite", "match_join"})
# Worded when said, in the reader's language.
SEE_MATCH = gettext_lazy("Sign in to see this match.")
PLAY_HERE = gettext_lazy("Sign in to play at this table.")
NEW_MATCH = gettext_lazy("Sign in to start your new match: the form comes back as you filled it.")
SEE_PAGE = gettext_lazy("Sign in to see this page.")
RENAMED = gettext_lazy("The name “%(name)s” was changed: sign in with the account’s new name.")


def sign_in_reason(target: str, request: HttpRequest) -> str:
    """What the sign-in page says the person is going to: ``target`` is the ``next=`` asked
    for; "" when there is none or it is not a URL of this site."""
    if not target or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return ""
    try:
        name = resolve(urlsplit(target).path).url_name
    except Resolver404:
        return str(SEE_PAGE)
    if name in MATCH_PAGES:
        return str(SEE_MATCH)
    if name in SEAT_PAGES:
        return str(PLAY_HERE)
    if name == "match_new":
        return str(NEW_MATCH)
    return str(SEE_PAGE)


def renamed_name(name: str) -> bool:
    """Whether ``name`` is no account's now but an old name a shown account gave up by a
    rename (held ``NAME_HELD``): a closed or deleted account's old names say nothing, as its
    profile does not."""
    User = get_user_model()
    # No name longer than the column was ever held; SQLite's ``iexact`` is a LIKE, which
    # refuses a pattern of tens of thousands of characters (a 503, not the form's words).
    longest = User._meta.get_field(User.USERNAME_FIELD).max_length or 150
    if not name or len(name) > longest or "\x00" in name:
        return False
    if User.objects.filter(username__iexact=name).exists():
        return False
    holder = held_for(name)
    if holder is None:
        return False
    return User.objects.filter(pk=holder).exclude(hidden_people()).exists()


class SignInForm(AuthenticationForm):
    """Django's sign-in form, which says so when the name typed was changed by a rename
    (instead of "Please enter a correct username and password")."""

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError as refusal:
            name = self.cleaned_data.get("username") or ""
            if refusal.code == "invalid_login" and renamed_name(name):
                raise ValidationError(str(RENAMED) % {"name": name}, code="renamed_login") from None
            raise

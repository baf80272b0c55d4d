"""A person's language, written (docs/translation.md): stored, and copied into the session
when the person signs in (``remember_at_sign_in``, on Django's ``user_logged_in``, connected by
``accounts.apps``) and when they change it. Another browser signed in earlier keeps the
language it had until it signs in again.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.errors import AccountRefused
from accounts.models import LanguageSetting
from accounts.selectors.language import SESSION_KEY, language_known, language_of


def language_store(*, user_id: int, language: str) -> None:
    """Keep ``language`` as the person's; one the site does not speak is refused (400) and
    changes nothing."""
    if not language_known(language):
        raise AccountRefused(_("Choose one of the offered languages."), 400)
    LanguageSetting.objects.update_or_create(user_id=user_id, defaults={"language": language})


def remember_in_session(request: HttpRequest, language: str | None) -> None:
    """Copy ``language`` into the session (none: the browser's is used) and use it for the rest
    of this request."""
    if language is None:
        request.session.pop(SESSION_KEY, None)
        return
    request.session[SESSION_KEY] = language
    translation.activate(language)
    request.LANGUAGE_CODE = language  # type: ignore[attr-defined]


def remember_at_sign_in(
    sender: Any, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """At sign-in (and registration), the person's language goes into their new session."""
    if request is not None and hasattr(request, "session"):
        remember_in_session(request, language_of(user.pk))

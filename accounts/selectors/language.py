"""A person's language, read (docs/translation.md): the one they chose (``LanguageSetting``),
else none; and the languages offered.

Reading that row on every request would add a statement to every page, the move POST and the
204 poll included, so the session keeps a copy (``SESSION_KEY``, written by
``accounts.services.language``); ``accounts.language_middleware`` activates it. A mail or a
push is worded in its recipient's language, read once per send (``mail_language_of``), never
the sender's.
"""

from __future__ import annotations

from django.conf import settings

from accounts.models import LanguageSetting

SESSION_KEY = "parlour_language"


def offered_languages() -> list[tuple[str, str]]:
    """``(code, name)`` of every language the site speaks, each named in itself."""
    return [(code, str(name)) for code, name in settings.LANGUAGES]


def language_known(code: object) -> bool:
    """Whether ``code`` names one of the site's languages exactly (garbage is not)."""
    return isinstance(code, str) and code in dict(settings.LANGUAGES)


def language_of(user_id: int | None) -> str | None:
    """The language ``user_id`` chose (one query), or None when they never chose one (or it is
    no longer offered)."""
    if user_id is None:
        return None
    code = (
        LanguageSetting.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    )
    return code if language_known(code) else None


def mail_language_of(user_id: int | None) -> str:
    """The language a mail or a push to ``user_id`` is worded in: theirs, else the site's."""
    return language_of(user_id) or settings.LANGUAGE_CODE

"""Each request in the reader's language, without a query of its own (docs/translation.md).

A signed-in person's choice comes from the session (``accounts.services.language`` writes it at
sign-in and when it is changed), which a signed-in request reads anyway; it wins over the
browser. Without one (a visitor, or a person who never chose) the language is Django's guess:
the language switch's cookie (``set_language``), else the browser's ``Accept-Language``, else
British English. A request without a session cookie is not made to open one. URLs carry no
language prefix: a table's address is the same for every seat whatever they read.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from accounts.selectors.language import SESSION_KEY, language_known


class ReaderLanguageMiddleware:
    """Activate the reader's language for the request, and say which in the response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = None
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            chosen = request.session.get(SESSION_KEY)
            if language_known(chosen):
                language = chosen
        if language is None:
            language = translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()  # type: ignore[attr-defined]
        try:
            response = self.get_response(request)
            patch_vary_headers(response, ("Accept-Language",))
            response.headers.setdefault("Content-Language", translation.get_language())
            return response
        finally:
            translation.deactivate()

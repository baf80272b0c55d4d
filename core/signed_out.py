"""The sign-in gate for views that htmx also calls (docs/accounts.md, "Signed out").

A plain request from someone signed out goes to the sign-in page (``next=`` the page asked
for), as Django's ``login_required`` sends it. An htmx request (a move click, a poll, a phrase,
a follow) gets a 401 whose body is one sentence with a link: the page stays as it was (an
``HX-Redirect`` would throw it away, and a plain redirect would have htmx swap the sign-in
page into the table), and ``static/js/request_errors.js`` shows the sentence in the notice at
the viewport's foot. The link signs in with ``next=`` the page the request came from
(``HX-Current-URL``, as a path on this site). Nothing was done: the view never ran.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils.html import format_html

SIGNED_OUT_STATUS = 401
SIGNED_OUT_WORDS = "You are signed out: nothing here was changed."
SIGN_IN_AGAIN = "Sign in again"
COME_BACK = "to come back to this page."


def login_required_htmx(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``login_required`` that answers a signed-out htmx request with the worded 401."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            if getattr(request, "htmx", False):
                return signed_out_response(request)
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def signed_out_response(request: HttpRequest) -> HttpResponse:
    """The 401 for a signed-out htmx request: the words and the way back, as a small HTML
    fragment (the notice shows it; ``text/html`` so htmx and a reader agree on what it is)."""
    login = f"{resolve_url(settings.LOGIN_URL)}?next={quote(came_from(request), safe='/')}"
    body = format_html(
        '<p class="signed-out">{} <a href="{}" id="signed-out-sign-in">{}</a> {}</p>',
        SIGNED_OUT_WORDS,
        login,
        SIGN_IN_AGAIN,
        COME_BACK,
    )
    response = HttpResponse(body, status=SIGNED_OUT_STATUS, content_type="text/html; charset=utf-8")
    # Nothing keeps it: the same request answers differently once signed in.
    response["Cache-Control"] = "no-store"
    return response


def came_from(request: HttpRequest) -> str:
    """The page an htmx request came from (its ``HX-Current-URL``), as a path on this site
    (with its query); "/" when the header is missing or malformed (``http://[::1`` makes URL
    parsing raise) or names another site."""
    try:
        path = request.htmx.current_url_abs_path or "/"
    except (AttributeError, ValueError):
        return "/"
    return path if path.startswith("/") and not path.startswith("//") else "/"

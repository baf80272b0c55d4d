"""``/friends/``: the person's friends and follows (docs/accounts.md, "Friends and blocks"),
read by ``games.selectors.friends`` and worded by ``games.presentation.friends``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.presentation.friends import friends_page_words
from games.selectors.friends import friends_page_data


@login_required
@require_GET
def friends_page(request: HttpRequest) -> HttpResponse:
    """The friends page (three queries, whatever the number of friends)."""
    page = friends_page_words(friends_page_data(viewer=request.user))
    return render(request, "accounts/friends.html", {"page": page})

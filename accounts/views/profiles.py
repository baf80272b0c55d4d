"""Where ``/accounts/`` sends a person looking for a profile (docs/accounts.md, "Profiles"):
one's own, and the old ``/accounts/<username>/`` links. The profile itself is
``games.views.profiles``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET


@login_required
@require_GET
def profile_self(request: HttpRequest) -> HttpResponse:
    return redirect("profile", username=request.user.get_username())


@require_GET
def profile_moved(request: HttpRequest, username: str) -> HttpResponse:
    """``/accounts/<username>/``, where profiles used to be: a permanent redirect."""
    return redirect("profile", username=username, permanent=True)

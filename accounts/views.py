from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.forms import RegisterForm
from games.filters import HistoryFilters, page_number
from games.selectors.history import match_history, user_stats


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Parlour, {user.username}.")
        return redirect("lobby")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/register.html", {"form": form}, status=status)


@login_required
@require_GET
def profile_self(request: HttpRequest) -> HttpResponse:
    return redirect("profile", username=request.user.get_username())


@require_GET
def profile_moved(request: HttpRequest, username: str) -> HttpResponse:
    """``/accounts/<username>/``, where profiles used to be: a permanent redirect."""
    return redirect("profile", username=username, permanent=True)


@login_required
@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/``: figures per game, the recent form, head-to-head records and
    the matches, each over the matches ``request.user`` may see (all of them on one's own)."""
    owner = get_object_or_404(get_user_model(), username=username)
    stats = user_stats(
        owner=owner,
        viewer=request.user,
        head_to_head_page=page_number(request.GET.get("vs")),
    )
    matches = match_history(
        user=owner,
        filters=HistoryFilters(page=page_number(request.GET.get("page"))),
        viewer=request.user,
    )
    return render(
        request,
        "accounts/profile.html",
        {
            "owner": owner,
            "stats": stats,
            "matches": matches,
            "is_self": owner.pk == request.user.pk,
        },
    )

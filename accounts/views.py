from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.forms import RegisterForm
from games.selectors import user_matches


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


@login_required
@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    owner = get_object_or_404(get_user_model(), username=username)
    return render(
        request,
        "accounts/profile.html",
        {"owner": owner, "matches": user_matches(user=owner), "is_self": owner == request.user},
    )

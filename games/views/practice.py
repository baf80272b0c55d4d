"""The practice match's start (docs/lessons.md, "The first match, with hints"):
``/learn/<game>/practice/``. A GET is the page with the one button (for a visitor signed out,
the links to register or sign in that come back here); the POST starts the match, or finds the
one already running, and goes to its table."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from games.engines import get_engine
from games.services import Rejected
from games.services.practice import practice_running, practice_start


@require_http_methods(["GET", "POST"])
def practice_start_page(request: HttpRequest, game: str) -> HttpResponse:
    try:
        engine = get_engine(game)
    except KeyError as exc:
        raise Http404("No such game.") from exc
    here = reverse("practice_start", args=[engine.name])
    back = urlencode({"next": here})
    if not request.user.is_authenticated:
        if request.method == "POST":
            # A POST cannot survive the redirect: registering comes back to this page's button.
            return redirect(f"{reverse('register')}?{back}")
        context = {"engine": engine, "register_url": f"{reverse('register')}?{back}"}
        context["login_url"] = f"{reverse('login')}?{back}"
        return render(request, "games/practice.html", context)
    if request.method == "POST":
        try:
            match = practice_start(game=engine.name, user=request.user)
        except Rejected as exc:
            raise Http404(exc.message) from exc
        return redirect("match_detail", pk=match.pk)
    running = practice_running(game=engine.name, user_id=request.user.pk)
    return render(request, "games/practice.html", {"engine": engine, "running": running})

"""The site's URLs plus ``/bench/trivial/`` for ``bench/web.py`` (``PARLOUR_BENCH=1``): a
signed-in page that pays what every such request pays and nothing else, the yardstick."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_GET

from config.urls import urlpatterns as site_urlpatterns


@login_required
@require_GET
def trivial(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/trivial/", trivial, name="bench_trivial"),
    *site_urlpatterns,
]

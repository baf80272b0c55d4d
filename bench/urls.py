"""The site's URLs plus one page that exists only for ``bench/web.py`` (``PARLOUR_BENCH=1``).

Settings use this module instead of ``config.urls`` when ``PARLOUR_BENCH`` is set. The extra page
is the benchmark's yardstick: it pays what every logged-in request pays (the middleware, the
session and the user) and nothing else, so other requests are reported as multiples of it.
"""

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

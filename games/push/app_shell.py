"""What makes Parlour an installable app: the web app manifest and the service worker, both at
the site's root (docs/notifications.md, "Web push").

The service worker is the file ``static/sw.js`` served from ``/sw.js``: a worker controls only
the paths under its own, so under ``/static/`` it could not show the whole site's pushes. Its
colours are the stylesheet's (``--felt``, ``--paper`` in ``static/css/parlour.css``), read from
there rather than said twice (the ``theme_colour`` tag, ``games/templatetags/app_shell.py``, reads
them here too). ``config/urls.py`` routes both views at the root.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

STYLESHEET = settings.BASE_DIR / "static" / "css" / "parlour.css"
SERVICE_WORKER = settings.BASE_DIR / "static" / "sw.js"
ICON_SIZES = (192, 512)


@lru_cache(maxsize=1)
def theme_colours() -> dict[str, str]:
    """The stylesheet's custom properties (``--felt: #2f6b4f;`` and the like) by name."""
    text = STYLESHEET.read_text()
    return dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{3,8})\s*;", text))


def manifest_data() -> dict[str, object]:
    """The web app manifest: the name, the start page, a window of its own, the colours and
    the icons (each size plain and maskable, drawn by ``tools/draw_icons.py``)."""
    colours = theme_colours()
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in ICON_SIZES
    ] + [
        {
            "src": static(f"icons/maskable-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "maskable",
        }
        for size in ICON_SIZES
    ]
    return {
        "name": "Parlour",
        "short_name": "Parlour",
        "description": "Two vintage card games, played turn by turn.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": colours["felt"],
        "background_color": colours["paper"],
        "icons": icons,
    }


@require_safe
@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> HttpResponse:
    """``/manifest.webmanifest``."""
    response = JsonResponse(manifest_data(), json_dumps_params={"indent": 1})
    response["Content-Type"] = "application/manifest+json"
    return response


@lru_cache(maxsize=1)
def _service_worker_source() -> bytes:
    return SERVICE_WORKER.read_bytes()


@require_safe
@cache_control(no_cache=True)  # a browser checks for a new worker at every visit
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker, whose scope is the whole site."""
    return HttpResponse(_service_worker_source(), content_type="text/javascript")

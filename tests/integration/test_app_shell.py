"""The installable app (docs/notifications.md, "Web push"): the web app manifest, the service
worker served from the site's root, and their icons, under the Content Security Policy."""

from __future__ import annotations

import json
import re
import struct

from django.contrib.staticfiles import finders
from django.test import Client

from tests.integration.test_security_headers import assert_secured

STYLESHEET = finders.find("css/parlour.css")


def _colour(name: str) -> str:
    with open(STYLESHEET) as handle:
        return re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", handle.read()).group(1)


def _png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as handle:
        head = handle.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_names_the_app_its_start_its_window_colours_and_icons():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert_secured(response)
    manifest = json.loads(response.content)
    assert manifest["name"] == "Parlour" and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    assert manifest["theme_color"] == _colour("felt")
    assert manifest["background_color"] == _colour("paper")
    icons = {(icon["sizes"], icon.get("purpose", "any")): icon["src"] for icon in manifest["icons"]}
    assert set(icons) >= {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _purpose), src in icons.items():
        assert Client().get(src).status_code == 200, src
        found = finders.find(src.removeprefix("/static/"))
        assert found and _png_size(found) == tuple(map(int, sizes.split("x"))), src


def test_the_service_worker_is_served_from_the_root_as_javascript():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert_secured(response)
    body = response.content.decode()
    assert 'addEventListener("push"' in body and 'addEventListener("notificationclick"' in body
    with open(finders.find("sw.js")) as handle:
        assert handle.read() == body  # the file under static/, as it is
    assert Client().post("/sw.js").status_code == 405
    assert Client().head("/manifest.webmanifest").status_code == 200


def test_every_page_links_the_manifest_and_the_theme_colour():
    page = Client().get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert f'<meta name="theme-color" content="{_colour("felt")}">' in page
    assert 'src="/static/js/service_worker.js"' in page

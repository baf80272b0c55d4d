"""The refusals a person may meet, in a real browser at desktop and phone width: the sign-in
lockout, the 404 page and the 503 page. Each is in the site's look and fits the screen.

With ``PARLOUR_SCREENSHOTS=1`` they are photographed into ``docs/screenshots/``
(``login-lockout``, ``error-404``, ``error-503``, each also ``-phone``).
"""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import RequestFactory
from playwright.sync_api import Route, expect

from core.unavailable import database_unavailable_response
from tests import factories
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_lockout_404_and_503_pages_read_well(live_server, make_context, viewport, tmp_path):
    factories.user_make("ann")
    suffix = "" if viewport is DESKTOP else "-phone"
    page = make_context(viewport=viewport).new_page()
    base = live_server.url

    # Five wrong passwords through the form: the sixth try, even the right one, is refused.
    for _ in range(5):
        page.goto(f"{base}/accounts/login/")
        page.get_by_label("Username").fill("ann")
        page.get_by_label("Password").fill("not her password")
        page.get_by_role("button", name="Log in").click()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(factories.PASSWORD)
    with page.expect_response(lambda r: r.url.endswith("/accounts/login/")) as answer:
        page.get_by_role("button", name="Log in").click()
    assert answer.value.status == 429
    expect(page.get_by_text("Too many failed sign-ins")).to_be_visible()
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"login-lockout{suffix}", tmp_path)))

    response = page.goto(f"{base}/no/such/page/")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="There is no such page")).to_be_visible()
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"error-404{suffix}", tmp_path)))

    # The 503 answer the site gives while its database is down (tests/faults makes it for real,
    # with PostgreSQL stopped); here the browser is handed that same answer for one address.
    down = database_unavailable_response(
        RequestFactory().get("/matches/"), OperationalError("connection refused")
    )

    def unavailable(route: Route) -> None:
        route.fulfill(status=503, body=down.content, headers=dict(down.items()))

    page.route(f"{base}/matches/", unavailable)
    response = page.goto(f"{base}/matches/")
    assert response is not None and response.status == 503
    expect(page.get_by_text("Parlour is briefly unavailable")).to_be_visible()
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"error-503{suffix}", tmp_path)))

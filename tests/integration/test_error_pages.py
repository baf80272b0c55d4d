"""The error pages (400, 403, the CSRF 403, 404, 500, 503) as production serves them: DEBUG off,
the site's look, a plain message, the right status, and nothing from the failure itself (no
traceback, no exception text, no settings).

The views that fail on purpose live in this module, which is also the URLconf the tests point
``ROOT_URLCONF`` at: they exist only while a test routes to them.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.template import Context, Engine, loader
from django.test import Client, RequestFactory, override_settings
from django.urls import path
from django.utils.functional import SimpleLazyObject

from config import urls as site_urls
from tests.integration.test_security_headers import POLICY, parse_policy

# A secret that must never reach an error page: where it shows, the failure leaked.
LEAK = "seed-4242-hidden-hand-17"


def raises_error(request: HttpRequest) -> HttpResponse:
    raise RuntimeError(f"boom {LEAK}")


def raises_suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation(f"odd {LEAK}")


def raises_denied(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied(f"no {LEAK}")


urlpatterns = [
    path("boom/", raises_error),
    path("odd/", raises_suspicious),
    path("denied/", raises_denied),
]
# The site's own 500 handler (config/urls.py), so the crash test goes the way a real one does.
handler500 = getattr(site_urls, "handler500", "django.views.defaults.server_error")
FAILING_URLS = override_settings(ROOT_URLCONF=__name__, DEBUG=False)


def assert_error_page(response, status: int, heading: str) -> str:
    """Status, the site's look (stylesheet, header, a way home), the message, the policy, and
    none of a debug page's parts."""
    page = response.content.decode()
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    assert heading in page
    assert 'class="site-header"' in page and "css/parlour.css" in page
    assert 'href="/"' in page
    for debug in ("Traceback", "Exception Value", "Request Method", "settings.py", LEAK):
        assert debug not in page
    assert parse_policy(response["Content-Security-Policy"]) == POLICY
    return page


@pytest.mark.django_db
def test_an_unknown_address_gets_the_404_page(ann_client):
    for client in (Client(), ann_client):
        page = assert_error_page(client.get("/no/such/page/"), 404, "There is no such page")
        assert "Log out" not in page  # the error base has no user menu


@pytest.mark.django_db
def test_a_private_match_is_the_same_404_to_a_stranger(ann, bea, cal_client):
    from tests import factories

    match = factories.match_make(players=[ann, bea], public=False)
    assert_error_page(cal_client.get(f"/matches/{match.pk}/"), 404, "There is no such page")


@FAILING_URLS
def test_a_crash_gets_the_500_page_without_the_traceback():
    client = Client(raise_request_exception=False)
    assert_error_page(client.get("/boom/"), 500, "Sorry, something broke on our side")


@FAILING_URLS
def test_a_suspicious_request_gets_the_400_page():
    client = Client(raise_request_exception=False)
    assert_error_page(client.get("/odd/"), 400, "That request could not be understood")


@pytest.mark.django_db
def test_a_bad_host_header_gets_the_400_page():
    response = Client().get("/", headers={"host": "evil.example.net"})
    assert_error_page(response, 400, "That request could not be understood")


@FAILING_URLS
def test_a_refusal_gets_the_403_page():
    client = Client(raise_request_exception=False)
    assert_error_page(client.get("/denied/"), 403, "You are not allowed to see this page")


@pytest.mark.django_db
def test_a_form_without_its_csrf_token_gets_the_csrf_page_and_changes_nothing(ann):
    from django.contrib.auth import get_user_model

    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/accounts/register/",
        {
            "username": "mallory",
            "email": "m@example.com",
            "password1": "x-long-enough-pw-91",
            "password2": "x-long-enough-pw-91",
        },
    )
    page = assert_error_page(response, 403, "This form has expired")
    assert "CSRF cookie not set" not in page  # Django's reason stays out of the page
    assert not get_user_model().objects.filter(username="mallory").exists()


def test_the_503_page_renders_with_no_context_and_no_database():
    """No ``django_db`` mark: pytest-django refuses any query, so a template that touched the
    user, the session or the turn badge would fail here, as it would with PostgreSQL down."""
    page = loader.render_to_string("503.html", {})
    assert "Parlour is briefly unavailable" in page
    assert "try again in a moment" in page
    assert "css/parlour.css" in page
    assert "in about 30 seconds" in loader.render_to_string("503.html", {"retry_after": 30})
    assert "in about 1 second." in loader.render_to_string("503.html", {"retry_after": 1})


@pytest.mark.parametrize("name", ["400", "403", "403_csrf", "404", "500", "503"])
def test_every_error_template_renders_from_an_empty_context_without_the_database(name):
    """As Django's server_error renders 500.html: a bare Context, no request, no queries."""
    template = Engine.get_default().get_template(f"{name}.html")
    page = template.render(Context())
    assert '<main id="main" class="error-page">' in page
    assert f"Error {name[:3]}" in page


class _Unreachable:
    """Stands for what needs the database while PostgreSQL is down: any use of it fails."""

    def __getattr__(self, name: str):
        raise AssertionError(f"an error page touched the user or the session ({name})")

    def __str__(self) -> str:
        raise AssertionError("an error page printed the user or the session")


@pytest.mark.parametrize("name", ["400", "403", "403_csrf", "404", "500", "503"])
def test_every_error_template_renders_with_a_request_whose_user_and_session_are_unreachable(
    name,
):
    """As a 503 during an outage (or a 404 rendered with the request) would: the context
    processors run, and the page must use neither the user, the session nor the turn badge."""
    request = RequestFactory().get("/somewhere/")
    request.user = SimpleLazyObject(_Unreachable)
    request.session = _Unreachable()
    page = loader.render_to_string(f"{name}.html", {}, request=request)
    assert f"Error {name[:3]}" in page

"""The 503 answer for a lost database, without a database: which errors count, what the page
and the htmx fragment say, and that answering runs no query (test_postgres_restart.py checks
the same through gunicorn and a real PostgreSQL restart)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, InterfaceError, OperationalError, ProgrammingError
from django.test import RequestFactory

from core.unavailable import DatabaseUnavailableMiddleware, server_error

# No database access is allowed here at all: pytest-django blocks it outside db tests, so a
# query while answering would fail these tests.

PAGE_TEXT = "Parlour is briefly unavailable"


def _middleware() -> DatabaseUnavailableMiddleware:
    return DatabaseUnavailableMiddleware(lambda request: pytest.fail("not called"))


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("connection refused"),
        OperationalError("terminating connection due to administrator command"),
        InterfaceError("connection already closed"),
    ],
)
def test_a_lost_connection_in_a_view_is_a_503_page(error):
    request = RequestFactory().get("/matches/1/")
    response = _middleware().process_exception(request, error)
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Cache-Control"] == "no-store"
    body = response.content.decode()
    assert PAGE_TEXT in body and "in about 5 seconds" in body
    assert "Traceback" not in body and str(error) not in body


def test_an_htmx_request_gets_a_short_fragment():
    request = RequestFactory().post("/matches/1/move/", headers={"HX-Request": "true"})
    response = _middleware().process_exception(request, OperationalError("gone"))
    assert response.status_code == 503
    body = response.content.decode()
    assert "<html" not in body and 'id="move-error"' in body and "nothing was changed" in body


@pytest.mark.parametrize(
    "error", [IntegrityError("duplicate key"), ProgrammingError("no such column"), KeyError("x")]
)
def test_other_errors_are_left_to_the_500_handler(error):
    assert _middleware().process_exception(RequestFactory().get("/"), error) is None


def test_the_500_handler_answers_503_for_a_connection_error_outside_a_view():
    request = RequestFactory().get("/")
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 503
    assert PAGE_TEXT in response.content.decode()


def test_the_500_handler_is_still_a_500_for_anything_else():
    request = RequestFactory().get("/")
    try:
        raise IntegrityError("duplicate key")
    except IntegrityError:
        response = server_error(request)
    assert response.status_code == 500
    assert PAGE_TEXT not in response.content.decode()


def test_the_project_routes_its_500s_through_the_handler():
    from config import urls

    assert urls.handler500 == "core.unavailable.server_error"

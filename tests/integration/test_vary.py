"""``Vary: HX-Request`` (core/htmx_vary.py): a page and its htmx fragment share a URL, so every
answer says it varies on that header, once, beside what else it varies on."""

from __future__ import annotations

import pytest
from django.test import Client

from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _vary(response) -> list[str]:
    return [v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()]


def _varies_once(response) -> None:
    vary = _vary(response)
    assert vary.count("hx-request") == 1, response.get("Vary")
    assert len(vary) == len(set(vary)), response.get("Vary")  # nothing listed twice


def test_the_table_page_and_its_partial_both_vary_on_hx_request(ann, bea, ann_client):
    match = factories.match_make(players=[ann, bea], seed=4)
    page = ann_client.get(f"/matches/{match.pk}/")
    partial = ann_client.get(f"/matches/{match.pk}/", headers=HTMX)
    assert page.status_code == partial.status_code == 200
    assert "<html" in page.content.decode() and "<html" not in partial.content.decode()
    for response in (page, partial):
        _varies_once(response)
        assert "cookie" in _vary(response)  # the session's Vary is kept


def test_the_history_varies_once_though_its_view_asks_too(ann, bea, ann_client):
    factories.match_make(players=[ann, bea], seed=4)
    for response in (ann_client.get("/history/"), ann_client.get("/history/", headers=HTMX)):
        assert response.status_code == 200
        _varies_once(response)


def test_a_signed_out_htmx_request_and_a_plain_one_are_told_apart(ann, bea):
    """``login_required_htmx``: a 302 for a browser, the worded 401 for htmx, same URL."""
    match = factories.match_make(players=[ann, bea], seed=4)
    plain = Client().get(f"/matches/{match.pk}/table/")
    htmx = Client().get(f"/matches/{match.pk}/table/", headers=HTMX)
    assert plain.status_code == 302 and htmx.status_code == 401
    _varies_once(plain)
    _varies_once(htmx)


def test_pages_without_an_htmx_branch_and_errors_carry_it_too(ann_client):
    for response in (
        Client().get("/"),
        ann_client.get("/matches/"),
        ann_client.get("/no-such-page/"),
        ann_client.get("/no-such-page/", headers=HTMX),
    ):
        _varies_once(response)

"""The table and the badge agree: the page's script (static/js/live.js) fetches the badge after
every table it swaps in (the browser side is in tests/functional/test_table_browser.py); the 204
poll stays as cheap as it was. The tab's title says when a move is awaited."""

from __future__ import annotations

import pytest

from games.engines import get_engine
from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def test_the_204_poll_stays_as_cheap_as_it_was(ann, bea, ann_client, django_assert_max_num_queries):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=8)
    url = f"/matches/{match.pk}/table/"
    with django_assert_max_num_queries(3):  # session, user, one match column: as before
        unchanged = ann_client.get(f"{url}?version={match.version}", headers=HTMX)
    assert unchanged.status_code == 204 and unchanged.content == b""


def test_the_badge_and_the_table_are_fetched_by_the_page_script(ann, bea, ann_client):
    """Neither polls by itself: static/js/live.js fires their ``parlour-poll`` (from the stream's
    events, or its timers while there is no stream), and the badge after every table swap."""
    match = factories.match_make(game="faraway", players=[ann, bea], seed=8)
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="turn-badge"' in page and page.count('hx-trigger="parlour-poll"') == 2
    assert "every 30s" not in page and "every 2s" not in page


def test_the_title_says_whose_turn_it_is(ann, bea, ann_client, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=8)
    seat = factories.awaited_seat(match)
    awaited, other = (
        (ann_client, bea_client)
        if match.seats.get(index=seat).user_id == ann.pk
        else (bea_client, ann_client)
    )
    title = f"{get_engine('faraway').title} #{match.pk} · Parlour</title>"
    assert f"<title>Your turn · {title}" in awaited.get(f"/matches/{match.pk}/").content.decode()
    waiting = other.get(f"/matches/{match.pk}/").content.decode()
    assert f"<title>{title}" in waiting
    assert "<title>(1) " in awaited.get("/matches/").content.decode()  # elsewhere: the count
    assert "<title>(" not in other.get("/matches/").content.decode()

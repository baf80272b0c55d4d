"""The table tells the rest of the page when it changed: every table htmx swaps in (a move's
answer, a refusal, a poll that found a new version) carries the ``parlour-table-changed`` event
the nav badge listens for, so the badge fetches its count at once; the 204 poll stays as cheap as
it was. The tab's title says when a move is awaited."""

from __future__ import annotations

import json

import pytest

from games.engines import get_engine
from games.models import Match
from games.views.table import TABLE_CHANGED
from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _triggers(response) -> set[str]:
    header = response.headers.get("HX-Trigger")
    return set() if header is None else set(json.loads(header))


def test_each_table_swapped_in_tells_the_badge_and_the_204_poll_does_not(
    ann, bea, ann_client, bea_client, django_assert_max_num_queries
):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=8)
    clients = {ann.pk: ann_client, bea.pk: bea_client}
    url = f"/matches/{match.pk}/table/"
    with django_assert_max_num_queries(3):  # session, user, one match column: as before
        unchanged = ann_client.get(f"{url}?version={match.version}", headers=HTMX)
    assert unchanged.status_code == 204 and _triggers(unchanged) == set()

    seat = factories.awaited_seat(match)
    mover = clients[match.seats.get(index=seat).user_id]
    old = match.version
    played = factories.post_move(mover, match, factories.legal_moves(match, seat)[0])
    assert played.status_code == 200 and TABLE_CHANGED in _triggers(played)
    refused = factories.post_move(mover, match, {"type": "draw", "source": "pack"}, version=old)
    assert refused.status_code == 409 and TABLE_CHANGED in _triggers(refused)
    changed = ann_client.get(f"{url}?version={old}", headers=HTMX)
    assert changed.status_code == 200 and TABLE_CHANGED in _triggers(changed)

    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    over = ann_client.get(f"{url}?version={old}", headers=HTMX)
    assert over.status_code == 286 and TABLE_CHANGED in _triggers(over)


def test_the_badge_fetches_itself_when_a_table_changes(ann, ann_client):
    page = ann_client.get("/matches/").content.decode()
    assert f'hx-trigger="parlour-poll, {TABLE_CHANGED} from:body"' in page


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

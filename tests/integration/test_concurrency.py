"""Two identical move requests at the same instant play once (PostgreSQL row locks)."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from django.test import Client

from games.models import Match, Move
from tests import factories


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_the_same_move_posted_twice_at_once_is_played_once():
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=99)
    seat = match.awaiting[0]
    user = [ann, bea][seat]
    move = {"type": "draw", "source": "pack"}
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def post() -> None:
        try:
            client = Client()
            client.force_login(user)
            barrier.wait(timeout=10)
            response = client.post(
                f"/matches/{match.pk}/move/",
                {"move": json.dumps(move), "version": match.version},
                headers={"HX-Request": "true"},
            )
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [200, 409]
    assert Move.objects.filter(match=match).count() == 1
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.version == match.version + 1
    assert fresh.state["hands"][seat] != match.state["hands"][seat]


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_two_people_taking_the_last_seat_at_once_get_one_seat_each_at_most():
    ann = factories.user_make("ann")
    others = [factories.user_make(name) for name in ("bea", "cal")]
    match = factories.match_make(game="faraway", players=[ann], seats=2)
    barrier = threading.Barrier(2)

    def join(user) -> None:
        try:
            client = Client()
            client.force_login(user)
            barrier.wait(timeout=10)
            client.post(f"/matches/{match.pk}/join/")
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(u,)) for u in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.seats.count() == 2
    assert fresh.status == Match.Status.ACTIVE
    assert fresh.version == match.version + 2  # one seat taken, one start

"""The invite page for every kind of holder of the link: public or private, waiting, in play or
over, held by a seated member, a stranger or the creator who only watches. Every link it offers
answers that person (no dead "Watch it" on a private table), and its words say the case."""

from __future__ import annotations

import random
import re

import pytest

from games.engines import get_engine
from games.models import Match
from games.services import match_create, match_join, move_submit
from tests import factories

# The words each case must show; a person who may see the table is offered it.
WORDS = {
    ("waiting", True): "Take a seat",
    ("waiting", False): "Take a seat",
    ("active", True): "This match has started: every seat is taken. ",
    ("active", False): "It is private, so only its players can watch it.",
    ("finished", True): "This match is over. ",
    ("finished", False): "It was private, so only its players can see it.",
}


def _match(*, creator, member, public: bool, status: str) -> Match:
    """A Faraway match whose creator watches (a bot holds seat 1) and ``member`` sits in seat 2:
    a third seat left free while waiting; played to the end (both seats at random) when finished."""
    seats = 3 if status == "waiting" else 2
    match = match_create(
        game="faraway",
        num_players=seats,
        created_by=creator,
        bots={0: "random"},
        creator_plays=False,
        seed=7,
        public=public,
    )
    match_join(match=match, user=member)
    match.refresh_from_db()
    if status == "finished":
        engine, rng = get_engine("faraway"), random.Random(3)
        seats = {s.index: s for s in match.seats.all()}
        while match.status == Match.Status.ACTIVE:
            state = engine.load(match.state)
            index = engine.awaiting(state)[0]
            move = rng.choice(engine.legal_moves(state, index))
            move_submit(match=match, seat=seats[index], move=move, expected_version=match.version)
            match.refresh_from_db()
    assert match.status == status
    return match


def _links(page: str) -> list[str]:
    main = page.split("<main", 1)[1].split("</main>", 1)[0]
    return re.findall(r'<a [^>]*href="(/[^"]*)"', main)


@pytest.mark.django_db
@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
@pytest.mark.parametrize("status", ["waiting", "active", "finished"])
def test_every_link_on_the_invite_page_answers_the_person_holding_it(ann, bea, cal, public, status):
    match = _match(creator=ann, member=bea, public=public, status=status)
    invite = f"/matches/join/{match.invite_token}/"
    # A seated member is sent to the table itself, which answers them.
    member = factories.client_for(bea)
    landing = member.get(invite)
    assert landing.status_code == 302 and landing["Location"] == f"/matches/{match.pk}/"
    assert member.get(landing["Location"]).status_code == 200

    for person, may_watch in ((ann, True), (cal, public)):
        client = factories.client_for(person)
        response = client.get(invite)
        assert response.status_code == 200
        page = response.content.decode()
        assert WORDS[(status, may_watch)] in page, (person.username, page)
        links = _links(page)
        assert (f"/matches/{match.pk}/" in links) == (may_watch and status != "waiting")
        for link in links:
            answer = client.get(link)
            assert answer.status_code not in (404, 500), (person.username, link)


@pytest.mark.django_db
def test_a_refused_seat_at_a_private_table_comes_back_to_the_invite_page(ann, bea, cal):
    """Taking a seat that is gone: the message on the invite page, not a 404 at the table."""
    match = _match(creator=ann, member=bea, public=False, status="active")
    invite = f"/matches/join/{match.invite_token}/"
    client = factories.client_for(cal)
    response = client.post(invite)
    assert response.status_code == 302 and response["Location"] == invite
    page = client.get(invite).content.decode()
    assert "This match has already started: every seat is taken." in page
    assert "you can watch" not in page
    assert WORDS[("active", False)] in page
    assert not match.seats.filter(user=cal).exists()

"""Events on profiles and in history (docs/competitions.md, "On profiles and in history"): a
profile lists the person's leagues and cups (open, running, finished with their place) and
ladder places; a history row of a league's or a cup's table or a ladder challenge says so and
links the event, on the history page and on the profile, to those who may see the match; a
person in twenty leagues and cups costs the statements of one of each (cups' own cases:
tests/integration/test_cup_notices.py)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competitions.league_entries import league_enter
from competitions.league_standings import league_standings
from competitions.league_sweep import league_end, leagues_sweep
from competitions.models import EventTable
from competitions.profile_events import LEAGUES_SHOWN
from competitions.services.cups import cup_enter
from competitions.services.ladder import ladder_challenge, ladder_join
from games.models import Invitation
from games.services import match_resign
from games.services.invitations import invitation_accept
from tests import factories
from tests.integration.cup_helpers import cup_make
from tests.integration.league_helpers import league_make, people

pytestmark = pytest.mark.django_db


def _section(page: str) -> str:
    return page.split('id="profile-events"')[1].split("</section>")[0]


def _row(page: str, match_id: int) -> str:
    found = re.search(rf'<li class="history-row" id="history-row-{match_id}".*?</li>', page, re.S)
    assert found, f"no row of match {match_id}"
    return found.group(0)


def test_a_profile_lists_the_persons_leagues_with_their_place_and_ladder_places(
    django_capture_on_commit_callbacks,
):
    running = league_make(name="Winter league", circle_size=3)
    finished = league_make(name="Autumn league", circle_size=3)
    waiting = league_make(name="Spring league", circle_size=5)
    users = people("p", 3)
    for user in users:
        league_enter(event_id=finished.pk, user=user)
    finished.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):  # the end's place: event_finished
        leagues_sweep(now=finished.ends_at)
    for user in users:
        league_enter(event_id=running.pk, user=user)
    ann = users[0]
    league_enter(event_id=waiting.pk, user=ann)
    ladder_join(game="faraway", user=ann)
    places = {
        row.user: row.place
        for circle in league_standings(event=finished, withdrawn=set())
        for row in circle.rows
    }
    viewer = factories.user_make("viewer")
    page = factories.client_for(viewer).get(f"/players/{ann.username}/").content.decode()
    section = _section(page)
    assert f'<a href="/leagues/{running.pk}/">Winter league</a>: running' in section
    assert (
        f'<a href="/leagues/{finished.pk}/">Autumn league</a>: finished: place {places[ann.pk]}'
        in section
    )
    assert f'<a href="/leagues/{waiting.pk}/">Spring league</a>: entered, not started' in section
    assert '<a href="/ladder/faraway/">The ladder of The Faraway Tree</a>: place 1' in section
    empty = factories.client_for(ann).get("/players/viewer/").content.decode()
    assert "No leagues, no cups and no ladder places yet." in _section(empty)


def test_a_league_table_and_a_ladder_match_are_marked_in_history_with_a_link():
    event = league_make(name="Winter league", circle_size=3)
    users = people("h", 3)
    for user in users:
        league_enter(event_id=event.pk, user=user)
    table = EventTable.objects.filter(event=event, match__isnull=False).first()
    seated = list(table.match.seats.values_list("user__username", flat=True))
    ann, bea = (next(u for u in users if u.username == name) for name in seated)
    ladder_join(game="faraway", user=ann)
    ladder_join(game="faraway", user=bea)
    challenge = ladder_challenge(game="faraway", challenger=bea, target_name=ann.username)
    invitation = Invitation.objects.get(match_id=challenge.match_id, user=ann)
    invitation_accept(invitation_id=invitation.pk, user=ann)
    match_resign(match_id=challenge.match_id, user=ann)
    plain = factories.match_make(players=[ann, bea])
    client = factories.client_for(ann)
    for page in (
        client.get("/history/").content.decode(),
        client.get(f"/players/{ann.username}/").content.decode(),
    ):
        league_row = _row(page, table.match_id)
        assert f'href="/leagues/{event.pk}/">League: Winter league</a>' in league_row
        ladder_row = _row(page, challenge.match_id)
        assert 'href="/ladder/faraway/">Ladder challenge</a>' in ladder_row
        assert "hr-event" not in _row(page, plain.pk)
    # Someone not at the private table sees neither its row nor its mark.
    outsider = next(u for u in users if u not in (ann, bea))
    theirs = factories.client_for(outsider).get(f"/players/{ann.username}/").content.decode()
    assert f"history-row-{table.match_id}" not in theirs


def _events_played(capture, users, count: int, start: int) -> None:
    """``count`` leagues (circles of three) and ``count`` cups (tables of two) that ``users``
    played to their end, each telling its people their place."""
    for number in range(start, start + count):
        league = league_make(name=f"League {number}", circle_size=3)
        cup = cup_make(name=f"Cup {number}", places_most=2, seats=2, rounds=1)
        with capture(execute=True):
            for user in users:
                league_enter(event_id=league.pk, user=user)
            for user in users[:2]:
                cup_enter(event_id=cup.pk, user=user)
        for event in (league, cup):
            event.refresh_from_db()
            with capture(execute=True):
                league_end(event=event, now=event.ends_at)


def test_a_person_in_twenty_leagues_and_cups_costs_the_statements_of_one_of_each(
    django_capture_on_commit_callbacks,
):
    users = people("n", 3)
    ann, bea = users[0], users[1]
    _events_played(django_capture_on_commit_callbacks, users, 1, 0)
    clients = [factories.client_for(ann), factories.client_for(bea)]
    urls = ["/history/", f"/players/{ann.username}/"]

    def counts() -> list[int]:
        found = []
        for client in clients:
            for url in urls:
                client.get(url)  # the session and the like, read once
                with CaptureQueriesContext(connection) as queries:
                    assert client.get(url).status_code == 200
                found.append(len(queries))
        return found

    few = counts()
    _events_played(django_capture_on_commit_callbacks, users, 9, 1)
    assert counts() == few
    page = clients[1].get(f"/players/{ann.username}/").content.decode()
    section = _section(page)
    assert section.count('class="profile-league"') == LEAGUES_SHOWN  # the newest twenty
    assert re.search(r'href="/cups/\d+/">Cup 9</a>: finished: place \d', section)
    assert re.search(r'href="/leagues/\d+/">League 9</a>: finished: place \d', section)
    history = clients[0].get("/history/").content.decode()
    assert "Cup: Cup 9" in history and "League: League 9" in history

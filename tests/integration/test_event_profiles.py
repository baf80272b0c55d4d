"""Events on profiles and in history (docs/competitions.md, "On profiles and in history"): a
profile lists the person's leagues (open, running, finished with their place) and ladder places;
a history row of a league table or a ladder challenge says so and links the event, on the
history page and on the profile, to those who may see the match."""

from __future__ import annotations

import re

import pytest

from competitions.league_entries import league_enter
from competitions.league_standings import league_standings
from competitions.league_sweep import leagues_sweep
from competitions.models import EventTable
from competitions.services.ladder import ladder_challenge, ladder_join
from games.models import Invitation
from games.services import match_resign
from games.services.invitations import invitation_accept
from tests import factories
from tests.integration.league_helpers import league_make, people

pytestmark = pytest.mark.django_db


def _section(page: str) -> str:
    return page.split('id="profile-events"')[1].split("</section>")[0]


def _row(page: str, match_id: int) -> str:
    found = re.search(rf'<li class="history-row" id="history-row-{match_id}".*?</li>', page, re.S)
    assert found, f"no row of match {match_id}"
    return found.group(0)


def test_a_profile_lists_the_persons_leagues_with_their_place_and_ladder_places():
    running = league_make(name="Winter league", circle_size=3)
    finished = league_make(name="Autumn league", circle_size=3)
    waiting = league_make(name="Spring league", circle_size=5)
    users = people("p", 3)
    for user in users:
        league_enter(event_id=finished.pk, user=user)
    finished.refresh_from_db()
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
    assert "No leagues and no ladder places yet." in _section(empty)


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

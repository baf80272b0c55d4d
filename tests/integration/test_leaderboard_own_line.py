"""A leaderboard that does not list its reader shows their own line: the rating, the rated
matches and what is still needed to be listed, by the listing's own rule; a listed reader gets
none; the page costs the same statements either way."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import skill
from games.selectors.ratings import LEADERBOARD_MIN_MATCHES
from tests import factories
from tests.integration.test_ratings import rated

pytestmark = pytest.mark.django_db


def _own_line(client) -> tuple[str | None, int]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/leaderboard/faraway/")
    assert response.status_code == 200
    found = re.search(r'<p class="lb-you" id="lb-you">([^<]*)</p>', response.content.decode())
    return (found.group(1) if found else None), len(ctx.captured_queries)


def test_an_unlisted_reader_sees_where_they_stand_and_what_is_needed(ann, bea, cal, dee_eve):
    dee, eve = dee_eve
    rated(ann, mu=30)  # listed
    rated(bea, mu=20, matches=3)  # two short
    rated(dee, mu=35, days_ago=91)  # enough, but none in the last 90 days
    # cal: never rated at Faraway; eve: rated at Gulliver only.
    rated(eve, mu=25, game="gulliver")

    listed, cost = _own_line(factories.client_for(ann))
    assert listed is None

    line, bea_cost = _own_line(factories.client_for(bea))
    shown = skill.display_ordinal(20, 3.0)
    needed = LEADERBOARD_MIN_MATCHES - 3
    assert line == f"You (bea): {shown}?, 3 rated matches; {needed} more to be listed."

    line, dee_cost = _own_line(factories.client_for(dee))
    assert line == (
        f"You (dee): {skill.display_ordinal(35, 3.0)}, 12 rated matches, none in the last 90"
        " days; finish one more to be listed again."
    )

    for who, client in (("cal", factories.client_for(cal)), ("eve", factories.client_for(eve))):
        line, other_cost = _own_line(client)
        assert line == f"You ({who}) have no rated match of The Faraway Tree yet: 5 to be listed."
        assert other_cost == cost
    assert cost == bea_cost == dee_cost


@pytest.fixture
def dee_eve():
    return factories.user_make("dee"), factories.user_make("eve")

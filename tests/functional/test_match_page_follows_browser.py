"""Everything on a match page follows the match (issue 33, bugs 2 and 3; docs/live.md): what the
page shows outside ``#table`` (the header's replay link, the invitations, "Seat a bot", "Play
again") is swapped out-of-band from the same partial as the table, so it changes without a
reload. Served by the test's WSGI server, the page polls (no stream): the same partial either way.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Invitation, Match
from games.services import match_resign
from games.services.invitations import invitation_accept
from games.services.matches import match_join
from tests import factories
from tests.functional.pages import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_table_that_ends_while_open_shows_play_again_and_the_replay(live_server, make_context):
    ann_user, bea_user = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann_user, bea_user], seed=7)
    ann = make_context().new_page()
    log_in(ann, live_server.url, "ann")
    ann.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(ann.locator("#replay-head-link")).to_have_text("Replay so far")
    expect(ann.locator("#rematch")).to_have_count(0)

    match_resign(match_id=match.pk, user=bea_user)

    expect(ann.locator("#table")).to_have_attribute("data-status", "finished")
    expect(ann.get_by_role("button", name="Play again")).to_be_visible()
    expect(ann.locator("#replay-head-link")).to_have_text("Replay")
    ann.get_by_role("button", name="Play again").click()
    expect(ann.locator("#messages")).to_contain_text("Rematch offered")


def test_a_waiting_match_that_starts_drops_seat_a_bot_and_the_invited_list(
    live_server, make_context
):
    factories.user_make("ann")
    bea_user, cal_user = factories.user_make("bea"), factories.user_make("cal")
    ann = make_context().new_page()
    log_in(ann, live_server.url, "ann")
    ann.goto(f"{live_server.url}/matches/new/?challenge=bea")
    ann.locator("#id_num_players").fill("3")
    ann.locator("#create-match").click()
    expect(ann.locator("#invitation-list")).to_contain_text("bea, seat 2 of 3: invited")
    expect(ann.locator("#seat-bot-seat")).to_have_value("3")
    match = Match.objects.get(created_by__username="ann")

    invitation = Invitation.objects.get(match=match, user=bea_user)
    invitation_accept(invitation_id=invitation.pk, user=bea_user)
    match_join(match=match, user=cal_user)  # the last seat, taken by someone else

    expect(ann.locator("#table")).to_have_attribute("data-status", "active")
    expect(ann.locator("#seat-bot")).to_have_count(0)
    expect(ann.locator("#invitations")).to_have_count(0)
    expect(ann.locator("#replay-head-link")).to_have_text("Replay so far")

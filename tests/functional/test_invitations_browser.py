"""Invitations in a real browser (docs/invitations.md): a challenge by name from the new-match
form, answered with htmx and without JavaScript; a declined seat filled by a bot; "Play again"
on a finished table, the offer seen and accepted by the other person; the screenshots of both,
desktop and phone; a seat held for a person invited, as the lobby and a visitor see it
(``lobby-held``, ``held-seat``, each with ``-phone``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.models import Match
from games.services import match_resign
from games.services.invitations import match_challenge_create
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_a_challenge_by_name_is_accepted_and_the_match_begins(
    live_server, make_context, javascript
):
    factories.user_make("ann")
    factories.user_make("bea")
    ann = make_context(java_script_enabled=javascript).new_page()
    log_in(ann, live_server.url, "ann")
    ann.goto(f"{live_server.url}/matches/new/?challenge=bea")
    expect(ann.locator("#id_challenge_1")).to_have_value("bea")
    if javascript:  # the name shows only for a seat that challenges
        ann.locator("#id_num_players").fill("3")
        expect(ann.locator("#id_challenge_2")).to_be_hidden()
        ann.locator("#id_seat_2").select_option("challenge")
        expect(ann.locator("#id_challenge_2")).to_be_visible()
        ann.locator("#id_seat_2").select_option("greedy")
        ann.locator("#id_num_players").fill("2")
    ann.locator("#create-match").click()
    expect(ann.locator("#invitation-list")).to_contain_text("bea, seat 2 of 2: invited")
    table = ann.url

    bea = make_context(java_script_enabled=javascript).new_page()
    log_in(bea, live_server.url, "bea")
    bea.goto(table)
    expect(bea.locator("#invitation-list")).to_contain_text("ann challenges you to")
    bea.get_by_role("button", name="Accept").click()
    bea.wait_for_url(table)
    expect(bea.locator("#messages")).to_contain_text("The match has begun.")
    expect(bea.locator("#table")).to_have_attribute("data-status", "active")


def test_a_declined_challenge_is_shown_to_the_inviter(live_server, make_context):
    factories.user_make("ann")
    factories.user_make("bea")
    ann = make_context().new_page()
    log_in(ann, live_server.url, "ann")
    ann.goto(f"{live_server.url}/matches/new/?challenge=bea")
    ann.locator("#create-match").click()
    table = ann.url
    bea = make_context().new_page()
    log_in(bea, live_server.url, "bea")
    bea.goto(table)
    bea.get_by_role("button", name="Decline", exact=True).click()
    bea.wait_for_url(f"{live_server.url}/matches/")
    expect(bea.locator("#messages")).to_contain_text("You declined the invitation.")
    ann.reload()
    expect(ann.locator("#invitation-list")).to_contain_text("bea, seat 2 of 2: declined")
    # The freed seat, filled by a bot: the match begins.
    expect(ann.locator("#seat-bot-seat")).to_have_value("2")
    ann.locator("#seat-bot-level").select_option("greedy")
    ann.locator("#seat-bot-add").click()
    expect(ann.locator("#messages")).to_contain_text("The match has begun.")
    expect(ann.locator("#table")).to_have_attribute("data-status", "active")
    expect(ann.locator("#seat-bot")).to_have_count(0)


@pytest.mark.parametrize(
    ("viewport", "suffix"), [(DESKTOP, ""), (PHONE, "-phone")], ids=["desktop", "phone"]
)
def test_play_again_offers_a_rematch_the_other_accepts(
    live_server, make_context, tmp_path: Path, viewport, suffix
):
    ann_user, bea_user = factories.user_make("ann"), factories.user_make("bea")
    old = factories.match_make(players=[ann_user, bea_user], seed=7)
    match_resign(match_id=old.pk, user=bea_user)
    ann = make_context(viewport=viewport).new_page()
    log_in(ann, live_server.url, "ann")
    ann.goto(f"{live_server.url}/matches/{old.pk}/")
    offer = ann.get_by_role("button", name="Play again")
    expect(offer).to_be_visible()
    assert not overflowing(ann)
    ann.screenshot(
        path=str(screenshot_path(f"rematch-offer{suffix}", tmp_path)),
        full_page=True,
        animations="disabled",
    )
    offer.click()
    expect(ann.locator("#messages")).to_contain_text("Rematch offered")
    rematch = Match.objects.get(rematch_of=old)
    assert ann.url == f"{live_server.url}/matches/{rematch.pk}/"

    bea = make_context(viewport=viewport).new_page()
    log_in(bea, live_server.url, "bea")
    bea.goto(f"{live_server.url}/matches/{rematch.pk}/")
    # The offer names the match played (issue 33), and the seat held for bea reads so.
    expect(bea.locator("#invitation-list")).to_contain_text(
        f"ann offers a rematch of The Faraway Tree #{old.pk} (seat 2 of 2 at the new table"
    )
    expect(bea.locator("#invitation-list .rematch-of-link")).to_have_attribute(
        "href", f"/matches/{old.pk}/"
    )
    expect(bea.locator("#seat-list")).to_contain_text("held for bea (invited)")
    expect(bea.locator("#seat-list")).not_to_contain_text("(open seat)")
    expect(bea.locator("#take-seat")).to_be_visible()  # hers: taking it accepts
    assert not overflowing(bea)
    bea.screenshot(
        path=str(screenshot_path(f"invitation{suffix}", tmp_path)),
        full_page=True,
        animations="disabled",
    )
    bea.get_by_role("button", name="Accept").click()
    expect(bea.locator("#table")).to_have_attribute("data-status", "active")
    rematch.refresh_from_db()
    assert rematch.status == Match.Status.ACTIVE


@pytest.mark.parametrize(
    ("viewport", "suffix"), [(DESKTOP, ""), (PHONE, "-phone")], ids=["desktop", "phone"]
)
def test_a_held_seat_is_no_open_seat_in_the_lobby_or_on_the_table(
    live_server, make_context, tmp_path: Path, viewport, suffix
):
    """Issue 33: a seat held for a challenged person read "(open seat)", with Join and Take a
    seat offered to everyone, and "1 seat still free" to the creator."""
    ann, bea, _ = (factories.user_make(name) for name in ("ann", "bea", "cal"))
    held_only = match_challenge_create(
        created_by=ann, challenges={1: bea}, game="faraway", num_players=2, public=True
    )
    partly = match_challenge_create(
        created_by=ann, challenges={1: bea}, game="gulliver", num_players=3, public=True
    )
    cal = make_context(viewport=viewport).new_page()
    log_in(cal, live_server.url, "cal")
    cal.goto(f"{live_server.url}/matches/")
    open_list = cal.locator("#open-matches")
    expect(open_list.locator(f'[data-match-id="{partly.pk}"]')).to_contain_text(
        "held for an invited player"
    )
    expect(open_list.locator(f'[data-match-id="{held_only.pk}"]')).to_have_count(0)
    assert not overflowing(cal)
    cal.screenshot(
        path=str(screenshot_path(f"lobby-held{suffix}", tmp_path)),
        full_page=True,
        animations="disabled",
    )
    cal.goto(f"{live_server.url}/matches/{held_only.pk}/")
    expect(cal.locator("#seat-list")).to_contain_text("held for an invited player")
    expect(cal.locator("#take-seat")).to_have_count(0)
    expect(cal.locator("#invitation-list")).not_to_contain_text("bea")

    creator = make_context(viewport=viewport).new_page()
    log_in(creator, live_server.url, "ann")
    creator.goto(f"{live_server.url}/matches/{held_only.pk}/")
    expect(creator.locator("#seat-list")).to_contain_text("held for bea (invited)")
    expect(creator.locator("#free-seats")).to_contain_text(
        "0 seats still free, 1 held for the player invited"
    )
    assert not overflowing(creator)
    creator.screenshot(
        path=str(screenshot_path(f"held-seat{suffix}", tmp_path)),
        full_page=True,
        animations="disabled",
    )

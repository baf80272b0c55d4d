"""Issue 24's whole journey in two real browsers: ann and bea follow each other from their
profiles, ann challenges bea from bea's profile to a three-seat match with a greedy bot, bea
accepts from her notices, they play it to the end against the bot, exchange a phrase at the
table, and take a rematch from the finished table.

The middle of the match (a few hundred plies of draws and discards) is played through the same
service the move view calls, so the test stays short; the first move, the phrases and every
step around the match go through the pages.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games.engines import get_engine
from games.models import Match
from games.services import move_submit
from tests import factories
from tests.functional.pages import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _say(page, words: str) -> None:
    page.locator("#phrase-key").select_option(label=words)
    page.locator("#phrase-say").click()


def _play_the_people_to_the_end(match: Match, rng: random.Random) -> None:
    """Random legal moves for the two people until the match is over; the greedy bot answers
    each of its turns on commit (tasks run eagerly in tests), as the worker would."""
    engine = get_engine(match.game)
    seats = {s.index: s for s in match.seats.filter(user__isnull=False)}
    for _ in range(5000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        state = engine.load(match.state)
        seat = engine.awaiting(state)[0]
        move = rng.choice(engine.legal_moves(state, seat))
        move_submit(match=match, seat=seats[seat], move=move, expected_version=match.version)
    raise AssertionError("the match did not end")


def test_friends_challenge_play_a_bot_talk_and_take_a_rematch(live_server, make_context):
    factories.user_make("ann")
    factories.user_make("bea")
    ann = make_context().new_page()
    bea = make_context().new_page()
    log_in(ann, live_server.url, "ann")
    log_in(bea, live_server.url, "bea")

    # They follow each other from their profiles: friends.
    ann.goto(f"{live_server.url}/players/bea/")
    ann.locator("#profile-follow").click()
    expect(ann.locator("#profile-unfollow")).to_be_visible()
    bea.goto(f"{live_server.url}/players/ann/")
    expect(bea.locator("#profile-follow")).to_have_text("Follow back")
    bea.locator("#profile-follow").click()
    expect(bea.get_by_text("You follow each other")).to_be_visible()
    bea.goto(f"{live_server.url}/friends/")
    expect(bea.locator("main")).to_contain_text("ann")

    # Ann challenges bea from her profile, with the greedy bot in the third seat.
    ann.goto(f"{live_server.url}/players/bea/")
    ann.locator("#profile-challenge").click()
    expect(ann.locator("#id_challenge_1")).to_have_value("bea")
    ann.locator("#id_num_players").fill("3")
    ann.locator("#id_seat_2").select_option("greedy")
    ann.locator("#create-match").click()
    expect(ann.locator("#invitation-list")).to_contain_text("bea, seat 2 of 3: invited")
    match = Match.objects.get(created_by__username="ann")

    # Bea sees it in her notices and accepts there; the match begins.
    bea.goto(f"{live_server.url}/notices/")
    expect(bea.locator("#invitation-notices")).to_contain_text("ann challenges you to")
    bea.locator(".invitation-accept").first.click()
    bea.wait_for_url(f"{live_server.url}/matches/{match.pk}/")
    expect(bea.locator("#table")).to_have_attribute("data-status", "active")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert sorted(s.bot_level or s.user.username for s in match.seats.all()) == [
        "ann",
        "bea",
        "greedy",
    ]

    # They play it to the end against the bot: the first move from the awaited person's page.
    match.refresh_from_db()
    first = {"ann": ann, "bea": bea}[match.seats.get(index=match.awaiting[0]).user.username]
    first.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(first.locator("#turn-line")).to_contain_text("Your turn")
    version = int(first.locator("#table").get_attribute("data-version"))
    first.locator("#table button.move").first.click()
    expect(first.locator("#table")).not_to_have_attribute("data-version", str(version))

    # A word at the table each way, reaching the other seat's open table through its poll.
    for page in (ann, bea):
        page.goto(f"{live_server.url}/matches/{match.pk}/")
    _say(ann, "Good luck")
    expect(bea.locator("#event-log li").first).to_have_text("ann: \u201cGood luck\u201d")
    _say(bea, "Thanks")
    expect(ann.locator("#event-log li").first).to_have_text("bea: \u201cThanks\u201d")
    _play_the_people_to_the_end(match, random.Random(24))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    ann.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(ann.locator("#outcome")).to_be_visible()

    # Ann offers a rematch from the finished table; bea accepts from her notices.
    ann.get_by_role("button", name="Play again").click()
    expect(ann.locator("#messages")).to_contain_text("Rematch offered")
    rematch = Match.objects.get(rematch_of=match)
    bea.goto(f"{live_server.url}/notices/")
    expect(bea.locator("#invitation-notices")).to_contain_text("ann offers a rematch of")
    bea.locator(".invitation-accept").first.click()
    bea.wait_for_url(f"{live_server.url}/matches/{rematch.pk}/")
    expect(bea.locator("#table")).to_have_attribute("data-status", "active")
    rematch.refresh_from_db()
    assert rematch.status == Match.Status.ACTIVE
    assert rematch.seats.count() == 3 and rematch.seats.filter(bot_level="greedy").exists()

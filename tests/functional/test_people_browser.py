"""Following back and blocking from a profile, in a browser with htmx; the profile's buttons and
the friends page photographed on desktop and phone (``profile-actions``, ``friends``;
docs/accounts.md, "Friends and blocks")."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Block, Follow
from accounts.selectors.relations import are_friends
from accounts.services.relations import follow_add
from games.models import Match, Seat
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_follow_back_then_block_from_a_profile(live_server, make_context) -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    ann_page = make_context().new_page()
    log_in(ann_page, live_server.url, "ann")
    ann_page.goto(f"{live_server.url}/players/bea/")
    ann_page.locator("#profile-follow").click()
    expect(ann_page.locator("#profile-actions-notice")).to_have_text("You follow bea.")
    expect(ann_page.locator("#profile-unfollow")).to_be_visible()

    bea_page = make_context().new_page()
    log_in(bea_page, live_server.url, "bea")
    bea_page.goto(f"{live_server.url}/players/ann/")
    expect(bea_page.locator("#profile-follows-you")).to_have_text("ann follows you.")
    bea_page.locator("#profile-follow", has_text="Follow back").click()
    expect(bea_page.locator("#profile-friends")).to_have_text("You follow each other")
    assert are_friends(ann.pk, bea.pk)

    bea_page.locator("#profile-block").click()  # htmx: the question in place of the buttons
    expect(bea_page.locator("#block-confirm")).to_contain_text("hides no public match")
    assert bea_page.url.endswith("/players/ann/")
    bea_page.locator("#block-confirm-submit").click()
    expect(bea_page.locator("#profile-actions-notice")).to_have_text("You blocked ann.")
    expect(bea_page.locator("#profile-unblock")).to_be_visible()
    assert not Follow.objects.exists() and Block.objects.count() == 1

    ann_page.reload()
    expect(ann_page.locator("#profile-challenge-refused")).to_have_text(
        "bea does not take challenges from you."
    )
    expect(ann_page.locator("#profile-follow")).to_have_count(0)  # nothing to follow across it
    expect(ann_page.locator("#profile-block")).to_be_visible()

    bea_page.goto(f"{live_server.url}/accounts/")
    bea_page.locator("#blocked-list button", has_text="Unblock").click()
    expect(bea_page.locator("#blocked-none")).to_be_visible()
    assert not Block.objects.exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    ("viewport", "name"), [(DESKTOP, "profile-actions"), (PHONE, "profile-actions-phone")]
)
def test_profile_actions_screenshot(
    viewport, name: str, live_server, make_context, tmp_path: Path
) -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    follow_add(follower_id=bea.pk, followed_id=ann.pk)
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/players/bea/")
    expect(page.locator("#profile-follow")).to_have_text("Follow back")
    expect(page.locator("#profile-challenge")).to_be_visible()
    expect(page.locator("#profile-block")).to_be_visible()
    wide = overflowing(page)
    assert not wide, f"the profile scrolls sideways: {'; '.join(wide)}"
    page.screenshot(
        path=str(screenshot_path(name, tmp_path)), full_page=True, animations="disabled"
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "friends"), (PHONE, "friends-phone")])
def test_friends_page_screenshot(
    viewport, name: str, live_server, make_context, tmp_path: Path
) -> None:
    ann, bea, cal, dot, eve = (factories.user_make(n) for n in ("ann", "bea", "cal", "dot", "eve"))
    for friend in (bea, cal):
        follow_add(follower_id=ann.pk, followed_id=friend.pk)
        follow_add(follower_id=friend.pk, followed_id=ann.pk)
    follow_add(follower_id=ann.pk, followed_id=dot.pk)
    follow_add(follower_id=eve.pk, followed_id=ann.pk)
    now = timezone.now()
    for game, status, people, awaited in (
        ("faraway", Match.Status.ACTIVE, [bea, ann], ann),
        ("gulliver", Match.Status.ACTIVE, [cal, ann], cal),
        ("gulliver", Match.Status.ACTIVE, [bea, eve], bea),
        ("faraway", Match.Status.FINISHED, [bea, cal], None),
        ("gulliver", Match.Status.FINISHED, [cal, dot], None),
    ):
        match = Match.objects.create(
            game=game,
            num_players=2,
            status=status,
            public=True,
            created_by=people[0],
            started_at=now,
            finished_at=now if status == Match.Status.FINISHED else None,
        )
        for i, person in enumerate(people):
            Seat.objects.create(
                match=match,
                index=i,
                user=person,
                awaited_since=now if person == awaited else None,
                result=("won" if i == 0 else "lost") if status == Match.Status.FINISHED else None,
            )
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "ann")
    page.locator("#nav-friends").click()
    expect(page.locator(".friend")).to_have_count(2)
    expect(page.locator(".friend-waiting").first).to_be_visible()
    expect(page.locator("#friends-followers")).to_contain_text("eve")
    wide = overflowing(page)
    assert not wide, f"the friends page scrolls sideways: {'; '.join(wide)}"
    page.screenshot(
        path=str(screenshot_path(name, tmp_path)), full_page=True, animations="disabled"
    )

"""The leaderboard and a profile's rating chart in a real browser, on a phone (390 px) and a
desktop (1280 px): both fit without sideways scrolling, and the chart scales to the page.

With ``PARLOUR_SCREENSHOTS=1`` the pages are photographed into ``docs/screenshots/``
(``leaderboard.png``, ``leaderboard-phone.png``, ``profile-rating.png``,
``profile-rating-phone.png``)."""

from __future__ import annotations

import datetime
import random
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Match, Rating, RatingChange, RatingStatus
from games.services.ratings import ratings_update_due
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path
from tests.integration.history_rows import match_rows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["ann", "bartholomew-the-very-long-named", "cal", "dora", "eli", "fen", "gus"]
BOTS = ["random", "greedy", "strong"]


def _season() -> None:
    """Sixty finished Faraway matches over the last 60 days among seven people and the three
    bot levels (the stronger player tends to win), rated in the order they finished."""
    rng = random.Random(11)
    people = [factories.user_make(n) for n in NAMES]
    skill = {p.pk: i for i, p in enumerate(reversed(people))} | {"random": -2, "greedy": 3}
    skill["strong"] = 5
    now = timezone.now()
    for day in range(60):
        size = rng.choice([2, 2, 3, 4])
        table = rng.sample([*people, *BOTS], size)
        if all(isinstance(who, str) for who in table):
            table[0] = people[day % len(people)]
        key = [who if isinstance(who, str) else who.pk for who in table]
        order = sorted(range(size), key=lambda i: skill[key[i]] + rng.gauss(0, 2.5), reverse=True)
        place = {seat: n + 1 for n, seat in enumerate(order)}
        seats = [
            (who, "won" if place[i] == 1 else "lost", 20 - place[i], place[i])
            for i, who in enumerate(table)
        ]
        creator = next(who for who in table if not isinstance(who, str))
        match = match_rows(seats=seats, created_by=creator, day=day)
        finished = now - datetime.timedelta(days=60 - day)
        Match.objects.filter(pk=match.pk).update(
            rating_status=RatingStatus.PENDING, finished_at=finished
        )
    ratings_update_due()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_leaderboard_fits(live_server, make_context, viewport, tmp_path):
    _season()
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "ann")
    page.locator("#nav-leaderboard").click()
    page.wait_for_url(f"{live_server.url}/leaderboard/faraway/")
    expect(page.locator(".lb-row")).not_to_have_count(0)
    expect(page.locator(".lb-row.lb-bot")).to_have_count(3)
    assert overflowing(page) == []
    name = "leaderboard" if viewport == DESKTOP else "leaderboard-phone"
    page.screenshot(path=str(screenshot_path(name, tmp_path)), full_page=True)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_profile_rating_chart_fits(live_server, make_context, viewport, tmp_path):
    _season()
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "cal")
    page.goto(f"{live_server.url}/players/ann/")
    chart = page.locator("#rating-faraway svg.rating-chart")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and 280 <= box["width"] <= viewport["width"]
    assert overflowing(page) == []
    name = "profile-rating" if viewport == DESKTOP else "profile-rating-phone"
    page.locator("#profile-ratings").scroll_into_view_if_needed()
    page.locator("#profile-ratings").screenshot(path=str(screenshot_path(name, tmp_path)))


def test_a_pending_rating_appears_without_a_reload(live_server, make_context):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea])
    factories.play_random(match, random.Random(5))
    # The eager task rated it on commit; undo that, as if the worker had not run yet.
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    Match.objects.filter(pk=match.pk).update(rating_status=RatingStatus.PENDING)
    page = make_context(viewport=PHONE).new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.locator("#rating-pending")).to_have_text("Rating…")
    origin = page.evaluate("performance.timeOrigin")
    ratings_update_due()  # what the worker does after the commit
    expect(page.locator('#rating-changes[data-rating-status="rated"]')).to_be_visible(timeout=8000)
    expect(page.locator(".rc-seat")).to_have_count(2)
    for change in page.locator(".rc-change").all():
        expect(change).to_have_text(re.compile(r"^[+-]\d+$"))
    assert page.evaluate("performance.timeOrigin") == origin  # swapped in, not reloaded
    assert page.locator("#rating-changes").count() == 1

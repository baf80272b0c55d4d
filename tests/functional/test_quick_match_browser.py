"""Play now in a browser (docs/quick-match.md): two people, each in a browser of their own,
press Play now; the first waits at a new table, the second is seated at it, the match starts and
both tables show it. The Play now page and the waiting table are photographed at desktop and
phone widths (``play-now[-phone].png``, ``play-now-waiting[-phone].png`` in docs/screenshots/
with ``PARLOUR_SCREENSHOTS=1``), and each fits its width."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import DESKTOP, PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser]


def _press_play_now(page: Page, base_url: str, *, seats: str = "2", fill: str = "") -> None:
    """From the home page's button, the form as the person fills it, then Play now."""
    page.goto(f"{base_url}/")
    page.locator("#play-now-link").click()
    expect(page.get_by_role("heading", name="Play now")).to_be_visible()
    page.get_by_label("The Faraway Tree").check()
    page.get_by_label("Seats", exact=True).select_option(seats)
    page.get_by_label("Fill empty seats with a bot after").select_option(fill)
    page.locator("#play-now").click()


@pytest.mark.django_db(transaction=True)
def test_two_people_pressing_play_now_meet_at_one_table(live_server, make_context) -> None:
    for name in ("ann", "bea"):
        factories.user_make(name)
    ann = make_context(viewport=DESKTOP).new_page()
    bea = make_context(viewport=DESKTOP).new_page()
    log_in(ann, live_server.url, "ann")
    log_in(bea, live_server.url, "bea")

    _press_play_now(ann, live_server.url)
    expect(ann.locator("#quick-waiting")).to_contain_text("Waiting for 1 more player.")
    expect(ann.locator("#quick-cancel")).to_be_visible()
    match = Match.objects.get()
    assert ann.url.endswith(f"/matches/{match.pk}/")

    _press_play_now(bea, live_server.url)
    expect(bea.locator("#turn-line")).to_be_visible()
    assert bea.url.endswith(f"/matches/{match.pk}/")
    expect(bea.locator(".messages")).to_contain_text("You took the last seat")
    # ann's waiting table turns into the match without a reload (its stream, or the poll).
    expect(ann.locator("#turn-line")).to_be_visible(timeout=15_000)
    expect(ann.locator("#quick-waiting")).to_have_count(0)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert set(match.seats.values_list("user__username", flat=True)) == {"ann", "bea"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_play_now_and_its_waiting_table_are_photographed(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    factories.user_make("jo")
    suffix = "" if viewport == DESKTOP else "-phone"
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/play/")
    expect(page.locator("#play-now")).to_be_visible()
    assert overflowing(page) == []
    page.screenshot(path=str(screenshot_path(f"play-now{suffix}", tmp_path)), full_page=True)

    _press_play_now(page, live_server.url, seats="3", fill="12")
    waiting = page.locator("#quick-waiting")
    expect(waiting).to_contain_text("Waiting for 2 more players.")
    expect(waiting).to_contain_text("the greedy bot takes the seats still free")
    assert overflowing(page) == []
    page.screenshot(
        path=str(screenshot_path(f"play-now-waiting{suffix}", tmp_path)),
        full_page=True,
        animations="disabled",
    )

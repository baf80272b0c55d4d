"""The pages a newcomer meets first, photographed at desktop and phone widths: each game's table
on a phone, a finished table, the new-match form and the account page. Each must fit its width
(no sideways scroll); with ``PARLOUR_SCREENSHOTS=1`` the pictures go to ``docs/screenshots/``
(``faraway-phone.png``, ``gulliver-phone.png``, ``finished[-phone].png``,
``match-new[-phone].png``, ``account[-phone].png``, ``account-play[-phone].png``), and a card
saying why it cannot be played (``why-faraway[-phone].png``, ``why-gulliver[-phone].png``).
"""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import TimeZoneSetting
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import (
    CASES,
    DESKTOP,
    PHONE,
    open_table,
    overflowing,
    screenshot_path,
)

pytestmark = [pytest.mark.browser]
VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


def _suffix(viewport: dict[str, int]) -> str:
    return "" if viewport == DESKTOP else "-phone"


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("game", sorted(CASES))
def test_a_table_on_a_phone_is_photographed(
    game: str, live_server, make_context, tmp_path: Path
) -> None:
    page, view = open_table(game, live_server.url, make_context, PHONE)
    assert page.locator("#turn-line").inner_text().strip() == "Your turn"
    assert page.locator("#hand [data-card]").count() == len(view["hand"])
    assert overflowing(page) == []
    page.screenshot(
        path=str(screenshot_path(f"{game}-phone", tmp_path)), full_page=True, animations="disabled"
    )


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@VIEWPORTS
def test_a_finished_table_is_photographed(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    people = [factories.user_make(name) for name in ("jo", "bessie", "fanny")]
    match = factories.match_make(game="faraway", players=people)
    factories.play_random(match, random.Random(3))
    match.refresh_from_db()
    assert match.status == "finished"
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.locator("#outcome")).to_be_visible()
    expect(page.locator('#rating-changes[data-rating-status="rated"]')).to_be_visible()
    assert overflowing(page) == []
    page.screenshot(
        path=str(screenshot_path(f"finished{_suffix(viewport)}", tmp_path)),
        full_page=True,
        animations="disabled",
    )


@pytest.mark.django_db(transaction=True)
@VIEWPORTS
def test_the_new_match_form_is_photographed(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    factories.user_make("jo")
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/matches/new/")
    expect(page.locator("form button[type=submit]").first).to_be_visible()
    assert overflowing(page) == []
    page.screenshot(
        path=str(screenshot_path(f"match-new{_suffix(viewport)}", tmp_path)), full_page=True
    )


@pytest.mark.django_db(transaction=True)
@VIEWPORTS
def test_the_account_page_is_photographed(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    """Every section of the account page (docs/accounts.md) for a person with a confirmed
    address, a time zone and a holiday allowance of ten days: the two a new account starts with
    and eight earned over eight weeks."""
    jo = factories.user_make("jo", email="jo@example.org")
    jo.date_joined = timezone.now() - datetime.timedelta(weeks=8)
    jo.save(update_fields=["date_joined"])
    TimeZoneSetting.objects.create(user=jo, zone="Europe/London")
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/accounts/")
    for section in (
        "identity",
        "notifications",
        "time-zone",
        "play",
        "holidays",
        "data",
        "closing",
    ):
        expect(page.locator(f"#account-{section}")).to_be_visible()
    expect(page.locator("#account-email")).to_contain_text("jo@example.org")
    expect(page.locator("#account-time-zone-current")).to_contain_text("Europe/London")
    expect(page.locator("#holiday-days")).to_contain_text("You have 10 days")
    assert overflowing(page) == []
    page.screenshot(
        path=str(screenshot_path(f"account{_suffix(viewport)}", tmp_path)), full_page=True
    )


@pytest.mark.django_db(transaction=True)
@VIEWPORTS
def test_the_play_settings_are_photographed(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    """The account page's Play section (docs/accounts.md, "Play settings")."""
    factories.user_make("jo")
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "jo")
    page.goto(f"{live_server.url}/accounts/#account-play")
    section = page.locator("#account-play")
    expect(section).to_contain_text("On a touch screen only")
    assert overflowing(page) == []
    section.screenshot(path=str(screenshot_path(f"account-play{_suffix(viewport)}", tmp_path)))


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize("game", sorted(CASES))
@VIEWPORTS
def test_a_card_saying_why_it_cannot_be_played_is_photographed(
    game: str, viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    """The photographed position (a Faraway seat after its draw, a Gulliver sentence under
    way): the first card (else the pack) that offers no move, clicked, and its reason shown."""
    page, _ = open_table(game, live_server.url, make_context, viewport)
    still = page.locator("#hand [data-why], #centre [data-why]").first
    still.scroll_into_view_if_needed()
    still.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
    notice = page.locator("#request-error")
    expect(notice).to_be_visible()
    expect(notice).to_have_text(still.get_attribute("data-why") or "")
    assert overflowing(page) == []
    page.screenshot(
        path=str(screenshot_path(f"why-{game}{_suffix(viewport)}", tmp_path)),
        animations="disabled",
    )

"""A player goes on holiday from the account page, and the others' table says so (desktop and
phone, photographed as ``holiday-table`` and ``holiday-table-phone``; docs/accounts.md)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Match
from tests.functional.pages import log_in
from tests.functional.test_screenshots import (
    CASES,
    DESKTOP,
    PHONE,
    overflowing,
    play_to_position,
    screenshot_path,
)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    ("viewport", "name"), [(DESKTOP, "holiday-table"), (PHONE, "holiday-table-phone")]
)
def test_a_player_goes_on_holiday_and_the_others_table_says_until_when(
    viewport, name: str, live_server, make_context, tmp_path: Path
) -> None:
    usernames, wanted = CASES["faraway"]
    match = play_to_position("faraway", usernames, wanted)
    Match.objects.filter(pk=match.pk).update(
        deadline_days=3, deadline_at=timezone.now() + timedelta(days=2, hours=5)
    )
    away = usernames[1]
    get_user_model().objects.filter(username=away).update(
        date_joined=timezone.now() - timedelta(weeks=4, hours=1)
    )  # 4 days earned and the 2 a new account starts with
    last_day = timezone.localdate() + timedelta(days=4)

    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, away)
    page.goto(f"{live_server.url}/accounts/")
    expect(page.locator("#holiday-days")).to_contain_text("You have 6 days of holiday")
    page.locator("#id_until").fill(last_day.isoformat())
    page.locator("#holiday-go").click()
    expect(page.locator("#holiday-away")).to_contain_text(
        f"You are on holiday until the end of {last_day:%-d %b %Y}"
    )
    expect(page.locator("#holiday-days")).to_contain_text("You have 1 day of holiday")
    page.context.clear_cookies()

    log_in(page, live_server.url, usernames[0])
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    line = page.locator(f'#holidays [data-away-seat="{away}"]')
    expect(line).to_contain_text(f"{away} is on holiday until")
    expect(line).to_contain_text("their turn deadline waits until they are back")
    expect(page.locator("#turn-line")).to_contain_text("Your turn")
    wide = overflowing(page)
    assert not wide, f"the table scrolls sideways: {'; '.join(wide)}"
    page.screenshot(
        path=str(screenshot_path(name, tmp_path)), full_page=True, animations="disabled"
    )

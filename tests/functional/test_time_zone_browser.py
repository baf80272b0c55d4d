"""Time zones in a real browser: sign-up suggests the browser's zone (static/js/time_zone.js),
without script the form keeps UTC, and a table's deadline shows in the reader's zone, named
(photographed at desktop and phone width)."""

from __future__ import annotations

import datetime
import zoneinfo
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import TimeZoneSetting
from games.models import Match
from tests.factories import PASSWORD
from tests.functional.pages import log_in
from tests.functional.test_screenshots import (
    CASES,
    DESKTOP,
    PHONE,
    overflowing,
    play_to_position,
    screenshot_path,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fill_sign_up(page, username: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)


def test_sign_up_suggests_the_browsers_zone(live_server, make_context) -> None:
    page = make_context(timezone_id="Asia/Tokyo").new_page()
    page.goto(f"{live_server.url}/accounts/register/")
    expect(page.get_by_label("Time zone")).to_have_value("Asia/Tokyo")
    _fill_sign_up(page, "kiku")
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(f"{live_server.url}/matches/")
    expect(page.locator("#footer-time-zone")).to_contain_text("Times show in Asia/Tokyo")
    kiku = get_user_model().objects.get(username="kiku")
    assert TimeZoneSetting.objects.get(user=kiku).zone.key == "Asia/Tokyo"


def test_sign_up_without_script_keeps_utc_and_the_choice_is_editable(
    live_server, make_context
) -> None:
    page = make_context(timezone_id="Asia/Tokyo", java_script_enabled=False).new_page()
    page.goto(f"{live_server.url}/accounts/register/")
    expect(page.get_by_label("Time zone")).to_have_value("UTC")
    _fill_sign_up(page, "noscript")
    page.get_by_label("Time zone").select_option("America/Sao_Paulo")
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(f"{live_server.url}/matches/")
    user = get_user_model().objects.get(username="noscript")
    assert TimeZoneSetting.objects.get(user=user).zone.key == "America/Sao_Paulo"


def test_the_account_page_changes_the_zone(live_server, make_context) -> None:
    page = make_context(timezone_id="Europe/Paris").new_page()
    page.goto(f"{live_server.url}/accounts/register/")
    _fill_sign_up(page, "henri")
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(f"{live_server.url}/matches/")
    page.goto(f"{live_server.url}/accounts/")
    expect(page.locator("#account-time-zone-current")).to_have_text("Europe/Paris")
    page.locator("#account-time-zone").get_by_label("Time zone").select_option("Asia/Kolkata")
    page.locator("#time-zone-submit").click()
    expect(page.locator("#account-time-zone-current")).to_have_text("Asia/Kolkata")
    expect(page.locator("#footer-time-zone")).to_contain_text("Times show in Asia/Kolkata")


def _table_with_a_deadline(zone: str) -> tuple[Match, str, datetime.datetime]:
    """Faraway mid-game, seat 0 to move by a deadline 30 hours off (on the hour); seat 0's
    player reads times in ``zone``."""
    usernames, wanted = CASES["faraway"]
    match = play_to_position("faraway", usernames, wanted)
    hour = timezone.now().replace(minute=0, second=0, microsecond=0)
    due = hour + datetime.timedelta(hours=30)
    Match.objects.filter(pk=match.pk).update(deadline_at=due, deadline_days=2)
    reader = get_user_model().objects.get(username=usernames[0])
    TimeZoneSetting.objects.update_or_create(user=reader, defaults={"zone": zone})
    return match, usernames[0], due


@pytest.mark.django_db(transaction=True, reset_sequences=True)
@pytest.mark.parametrize(
    ("viewport", "name"), [(DESKTOP, "deadline-zone"), (PHONE, "deadline-zone-phone")]
)
def test_a_deadline_shows_in_the_readers_zone_and_is_photographed(
    viewport, name, live_server, make_context, tmp_path: Path
) -> None:
    zone = "Europe/Paris"
    match, username, due = _table_with_a_deadline(zone)
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, username)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    local = due.astimezone(zoneinfo.ZoneInfo(zone))
    when = f"{local:%A} {local.day} {local:%b}, {local:%H:%M}"
    deadline = page.locator("#deadline")
    expect(deadline).to_contain_text(f"Your move by {when} ({zone}), in 1 day")
    expect(deadline.locator("time")).to_have_attribute("datetime", local.isoformat())
    assert "UTC" not in deadline.inner_text()
    expect(page.locator("#footer-time-zone")).to_contain_text(f"Times show in {zone}")
    wide = overflowing(page)
    assert not wide, f"the table scrolls sideways: {'; '.join(wide)}"
    deadline.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_path(name, tmp_path)), animations="disabled")


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "time-zone"), (PHONE, "time-zone-phone")])
def test_the_zone_list_puts_the_browsers_first_and_narrows_as_one_types(
    viewport, name, live_server, make_context, tmp_path: Path
) -> None:
    """The list is grouped by region, the browser's zone (Pacific/Auckland) first, the zone
    chosen (UTC) still chosen; typing in the filter hides what does not match and chooses the
    first match; nothing matching says so; the choice saves (photographed)."""
    from tests import factories

    factories.user_make("wiremu")
    page = make_context(viewport=viewport, timezone_id="Pacific/Auckland").new_page()
    log_in(page, live_server.url, "wiremu")
    page.goto(f"{live_server.url}/accounts/time-zone/")
    select = page.locator("#time-zone-form select[data-zone-list]")
    expect(select).to_have_value("UTC")
    first = select.locator("optgroup").first
    expect(first).to_have_attribute("label", "Your browser\u2019s zone")
    expect(first.locator("option")).to_have_text("Auckland, New Zealand (Pacific/Auckland)")
    labels = select.locator("optgroup").evaluate_all("gs => gs.map(g => g.label)")
    assert labels[1:4] == ["UTC", "Africa", "Americas"] and "Europe" in labels, labels
    assert select.locator("option").count() < 450

    search = page.get_by_label("Find a zone by city, country or region")
    search.fill("zzqx")
    expect(page.locator(".zone-filter-count")).to_contain_text("No zone matches")
    search.fill("buenos")
    expect(select).to_have_value("America/Argentina/Buenos_Aires")
    expect(page.locator(".zone-filter-count")).to_contain_text("1 zone matches")
    shown = select.locator("option").evaluate_all("os => os.filter(o => !o.hidden).length")
    assert shown == 1
    search.fill("new zealand")
    expect(select).to_have_value("Pacific/Auckland")
    wide = overflowing(page)
    assert not wide, f"the page scrolls sideways: {'; '.join(wide)}"
    page.screenshot(path=str(screenshot_path(name, tmp_path)), animations="disabled")
    search.fill("")
    select.select_option("Asia/Kolkata")
    page.locator("#time-zone-submit").click()
    expect(page.locator("#account-time-zone-current")).to_have_text("Asia/Kolkata")

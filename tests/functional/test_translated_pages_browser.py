"""The site's own pages in German and French in a browser (docs/translation.md): a German
reader's account page and a French reader's ladder, each at desktop and phone widths, read in
the reader's language and fitting each width (longer German words must not push the page
sideways). Photographed as ``account-de[-phone].png`` and ``ladder-fr[-phone].png`` in
docs/screenshots/ with ``PARLOUR_SCREENSHOTS=1``."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from accounts.models import LanguageSetting
from competitions.services.ladder import ladder_challenge, ladder_join
from tests import factories
from tests.functional.pages import log_in
from tests.functional.test_screenshots import PHONE, overflowing, screenshot_path

pytestmark = [pytest.mark.browser]

DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_german_readers_account_page(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    ann = factories.user_make("ann")
    LanguageSetting.objects.create(user=ann, language="de")
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "ann")  # signing in takes the stored language
    page.goto(f"{live_server.url}/accounts/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", name="Ihr Konto", exact=True)).to_be_visible()
    expect(page.locator("#account-holidays-h")).to_have_text("Urlaub")
    expect(page.get_by_role("button", name="Spieleinstellungen speichern")).to_be_visible()
    expect(page.locator("#play-settings-form")).to_contain_text("Jeden Zug bestätigen")
    expect(page.locator("#footer-time-zone")).to_contain_text("Zeiten erscheinen in UTC")
    # Saving answers in German too.
    page.get_by_role("button", name="Speichern, wer mich herausfordern darf").click()
    expect(page.locator("#messages")).to_contain_text("Wer Sie herausfordern darf: Alle.")
    assert overflowing(page) == []
    suffix = "" if viewport == DESKTOP else "-phone"
    page.screenshot(path=str(screenshot_path(f"account-de{suffix}", tmp_path)), full_page=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_french_readers_ladder(
    viewport: dict[str, int], live_server, make_context, tmp_path: Path
) -> None:
    people = [factories.user_make(name) for name in ("bessie", "fanny", "jo", "moonface")]
    for person in people:
        ladder_join(game="faraway", user=person)
    LanguageSetting.objects.create(user=people[3], language="fr")
    ladder_challenge(game="faraway", challenger=people[3], target_name="fanny")
    page = make_context(viewport=viewport).new_page()
    log_in(page, live_server.url, "moonface")
    page.goto(f"{live_server.url}/ladder/faraway/")
    expect(page.locator("h1")).to_have_text("Échelle de The Faraway Tree")
    expect(page.locator("#ladder-standing")).to_have_text("Vous êtes à la place 4 sur 4.")
    expect(page.locator("#ladder-yours")).to_contain_text(
        "moonface (alors à la place 4) a défié fanny (alors à la place 2)"
    )
    expect(page.locator('tr[data-name="fanny"] .ladder-reason')).to_have_text(
        "Un défi entre vous est déjà ouvert."
    )
    expect(page.get_by_role("button", name="Défier jo pour la place 3")).to_be_visible()
    assert overflowing(page) == []
    suffix = "" if viewport == DESKTOP else "-phone"
    page.screenshot(path=str(screenshot_path(f"ladder-fr{suffix}", tmp_path)), full_page=True)

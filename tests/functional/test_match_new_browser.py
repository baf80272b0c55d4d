"""The new-match form in a real browser: choosing a game shows that game's options alone (the
registry's ``Engine.options``; the template names no game), a hidden game's fields neither block
nor reach the server, and the drop-downs look like the inputs."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engines import registered
from games.models import Match
from tests import factories
from tests.functional.pages import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOOK = "el => { const s = getComputedStyle(el); return [s.fontSize, s.fontFamily, s.padding]; }"


def test_choosing_a_game_shows_only_its_options(live_server, make_context):
    factories.user_make("ann")
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/new/")
    engines = registered()
    assert any(e.options for e in engines), "no game with options to switch between"
    for chosen in [*engines, engines[0]]:
        page.get_by_label(chosen.title, exact=True).check()
        for engine in engines:
            group = page.locator(f'.game-options[data-game="{engine.name}"]')
            seats = page.locator(f'.game-seats[data-game="{engine.name}"]')
            if engine.name == chosen.name:
                expect(seats).to_be_visible()
                for option in engine.options:
                    expect(group.get_by_text(option.label)).to_be_visible()
            else:
                expect(seats).to_be_hidden()
                if engine.options:
                    expect(group).to_be_hidden()
                for option in engine.options:
                    expect(page.get_by_text(option.label, exact=True)).to_be_hidden()

    # The selects are dressed as the inputs are.
    number = page.locator("#id_num_players").evaluate(LOOK)
    assert page.locator("#id_deadline_days").evaluate(LOOK) == number
    assert page.locator("#id_seat_1").evaluate(LOOK) == number


def test_a_hidden_games_option_neither_blocks_nor_is_sent(live_server, make_context):
    """An out-of-range number typed into one game's options, then another game chosen: the
    form submits (the browser does not check a hidden field) and the match has no such option."""
    factories.user_make("ann")
    page = make_context().new_page()
    log_in(page, live_server.url, "ann")
    page.goto(f"{live_server.url}/matches/new/")
    engines = registered()
    with_number = next(e for e in engines if any(o.kind == "int" for o in e.options))
    other = next(e for e in engines if e.name != with_number.name)
    option = next(o for o in with_number.options if o.kind == "int")
    page.get_by_label(with_number.title, exact=True).check()
    page.get_by_label(option.label).fill(str(option.minimum - 1))
    page.get_by_label(other.title, exact=True).check()
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(f"{live_server.url}/matches/*/")
    match = Match.objects.get()
    assert match.game == other.name and option.name not in match.options

"""The table heard and driven by keyboard (docs/accessibility.md), as the server renders it: the
person's keyboard and text-mode choices ride in the page and never in a move's answer, the
table's headings, and every move button's name and command. The browser tests
(tests/functional/test_keys_browser.py) play with them."""

from __future__ import annotations

import html
import re

import pytest

from accounts.models import PlaySettings
from accounts.selectors.play_settings import play_choices
from games.models import Match
from tests import factories

pytestmark = pytest.mark.django_db

BUTTON = re.compile(
    r'<button type="submit" class="move" data-move="[^"]+" '
    r'data-command="([^"]+)" aria-label="([^"]+)"'
)


def _page(client, match: Match) -> str:
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def _headings(page: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", html.unescape(h)).strip()
        for h in re.findall(r"<h[23][^>]*>(.*?)</h[23]>", page, re.S)
    ]


def test_keyboard_and_text_mode_are_off_until_chosen_then_ride_in_the_page(
    ann, bea, ann_client, cal_client
):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    assert (play_choices(ann.pk).keyboard_shortcuts, play_choices(ann.pk).text_mode) == (
        False,
        False,
    )
    page = _page(ann_client, match)
    assert 'data-keys="off" data-text="off"' in page
    assert 'id="text-mode" aria-labelledby="text-mode-h" hidden' in page
    answer = ann_client.post(
        "/accounts/play/",
        {"confirm_moves": "off", "keyboard_shortcuts": "on", "text_mode": "on"},
    )
    assert answer.status_code == 302
    assert play_choices(ann.pk).keyboard_shortcuts and play_choices(ann.pk).text_mode
    assert 'data-keys="on" data-text="on"' in _page(ann_client, match)
    account = ann_client.get("/accounts/").content.decode()
    assert 'id="account-play-keys">on<' in account and 'id="account-play-text">on<' in account
    # Garbage changes nothing; leaving a box out turns it off.
    refused = ann_client.post("/accounts/play/", {"confirm_moves": "x", "text_mode": "on"})
    assert refused.status_code == 400
    assert PlaySettings.objects.get(user=ann).keyboard_shortcuts is True
    ann_client.post("/accounts/play/", {"confirm_moves": "off", "text_mode": "on"})
    assert (play_choices(ann.pk).keyboard_shortcuts, play_choices(ann.pk).text_mode) == (
        False,
        True,
    )
    # A watcher has no play settings: their choice is the browser's, with its two boxes.
    watcher = _page(cal_client, match)
    assert 'data-keys="" data-text=""' in watcher and 'id="keys-toggle"' in watcher
    assert 'id="keys-settings"' not in watcher


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_the_table_has_headings_and_every_move_its_name_and_command(
    game, ann, bea, ann_client, bea_client
):
    match = factories.match_make(game=game, players=[ann, bea], seed=3)
    seat = factories.awaited_seat(match)
    client, other = (ann_client, bea_client) if seat == 0 else (bea_client, ann_client)
    page = _page(client, match)
    headings = _headings(page)
    board = ["Seats and their rows", "Pack", "Discards"] if game == "faraway" else ["Scores"]
    for wanted in ["Whose turn", "Your hand", "What happened", "Last move", *board]:
        assert any(h.startswith(wanted) for h in headings), (wanted, headings)
    if game == "gulliver":
        assert "Seats" in headings and "The sentence" in headings
    names = [p.username for p in (ann, bea)]
    assert any(h.startswith(names[1 - seat]) for h in headings)  # each seat's heading
    buttons = BUTTON.findall(page)
    legal = factories.legal_moves(match, seat)
    assert len(buttons) == len(legal)
    commands = [command for command, _ in buttons]
    assert len(set(commands)) == len(commands)
    for command, name in buttons:
        if re.search(r" \d+$", command):  # a card's move: its card by place, then the move
            assert re.match(r"(Card \d+ of \d+ in your hand|Discard \d+ of \d+): ", name), name
    # The other seat's hand, on the awaited seat's page: its count alone, face down.
    assert f"{names[1 - seat]}\u2019s hand: " in html.unescape(page)
    assert re.search(r"hand: \d+ cards?, face down", html.unescape(page))
    # Another seat's page names the moves of nobody else.
    assert not BUTTON.findall(_page(other, match))


def test_the_move_answer_carries_no_keyboard_choices(ann, bea, ann_client, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=3)
    seat = factories.awaited_seat(match)
    client = ann_client if seat == 0 else bea_client
    move = factories.legal_moves(match, seat)[0]
    answer = factories.post_move(client, match, move).content.decode()
    assert "keys-panel" not in answer and "text-mode" not in answer
    assert "data-command=" in answer or "Waiting for" in answer

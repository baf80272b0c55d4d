"""What the table shows, to whom, and the poll that keeps it current."""

from __future__ import annotations

import re

import pytest

from games.engines import faraway_cards, get_engine
from games.models import Match
from tests import factories

pytestmark = pytest.mark.django_db


def _table(client, match: Match) -> str:
    response = client.get(f"/matches/{match.pk}/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_a_spectator_sees_no_hand_no_moves_and_never_the_seed(
    game, ann, bea, ann_client, cal_client
):
    match = factories.match_make(game=game, players=[ann, bea])
    full = cal_client.get(f"/matches/{match.pk}/")
    assert full.status_code == 200
    page = full.content.decode()
    assert 'id="spectator-note"' in page
    assert 'id="hand"' not in page
    # No move button (``data-move="…"``); text mode's words (``data-moves="Your moves:"``) may be.
    assert 'data-move="' not in page
    assert str(match.seed) not in page
    own = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="hand"' in own
    assert str(match.seed) not in own


def test_a_spectators_page_shows_only_public_cards(ann, bea, cal_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    engine = get_engine("faraway")
    public = engine.view(engine.load(match.state), None)
    page = _table(cal_client, match)
    shown = re.findall(r'data-card="([^"]+)"', page)
    assert sorted(shown) == sorted(public["discards"] + [c for row in public["rows"] for c in row])
    assert "was dealt" not in page  # deals are private lines


def _faraway_decks(seed: int) -> tuple[list[str], list[str]]:
    """Two packs that differ only in seat 1's hand and the bottom of the pack."""
    dealer = factories.dealer_for(seed, 2)
    deck = list(faraway_cards.PACK)
    # Seat order of the deal starts left of the dealer; 12 cards dealt, the 13th turned up.
    seat1 = [i for i in range(12) if (i % 2 == 0) == ((dealer + 1) % 2 == 1)]
    other = list(deck)
    bottom = list(range(len(deck) - len(seat1), len(deck)))
    for a, b in zip(seat1, bottom, strict=True):
        other[a], other[b] = other[b], other[a]
    assert other != deck
    return deck, other


def test_a_seats_table_is_identical_when_only_unseen_cards_differ(ann, bea, ann_client, bea_client):
    seed = 3
    deck_a, deck_b = _faraway_decks(seed)
    matches = [
        factories.match_make(players=[ann, bea], seed=seed, options={"deck": deck})
        for deck in (deck_a, deck_b)
    ]
    engine = get_engine("faraway")
    hands = [engine.load(m.state).hands[1] for m in matches]
    assert sorted(hands[0]) != sorted(hands[1])

    def ann_sees(match: Match) -> str:
        return factories.normalise_table_html(
            ann_client.get(f"/matches/{match.pk}/").content.decode()
        )

    assert ann_sees(matches[0]) == ann_sees(matches[1])
    # Bea's own cards differ, so her pages must too (the check above could not be vacuous).
    bea_pages = [
        factories.normalise_table_html(bea_client.get(f"/matches/{m.pk}/").content.decode())
        for m in matches
    ]
    assert bea_pages[0] != bea_pages[1]
    # The first mover draws from the pack in both; ann's view still matches.
    clients = [ann_client, bea_client]
    for match in matches:
        seat = factories.awaited_seat(match)
        response = factories.post_move(clients[seat], match, {"type": "draw", "source": "pack"})
        assert response.status_code == 200
    assert ann_sees(matches[0]) == ann_sees(matches[1])


def test_event_lines_name_the_players(ann, bea, ann_client, bea_client):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=2)
    clients = {0: ann_client, 1: bea_client}
    names = {0: "ann", 1: "bea"}
    seat = factories.awaited_seat(match)
    factories.post_move(clients[seat], match, {"type": "draw", "source": "pack"})
    match.refresh_from_db()
    other = clients[1 - seat]
    log = _table(other, match)
    log = log[log.index('id="event-log"') :]
    assert f"{names[seat]} drew from the pack." in log
    own = _table(clients[seat], match)
    drawn = re.search(rf"{names[seat]} drew ((?:Penalty P|\d )[^<]+) from the pack\.", own)
    assert drawn is not None


def test_polling_204_then_partial_then_286_when_over(
    ann, bea, ann_client, bea_client, django_assert_max_num_queries
):
    match = factories.match_make(game="faraway", players=[ann, bea], seed=8)
    url = f"/matches/{match.pk}/table/"
    with django_assert_max_num_queries(3):  # session, user, one match column
        unchanged = ann_client.get(f"{url}?version={match.version}", headers={"HX-Request": "true"})
    assert unchanged.status_code == 204
    assert unchanged.content == b""

    clients = [ann_client, bea_client]
    old = match.version
    seat = factories.awaited_seat(match)
    factories.post_move(clients[seat], match, {"type": "draw", "source": "pack"})
    changed = ann_client.get(f"{url}?version={old}", headers={"HX-Request": "true"})
    assert changed.status_code == 200
    body = changed.content.decode()
    match.refresh_from_db()
    assert f'hx-get="{url}?version={match.version}"' in body
    assert 'hx-trigger="parlour-poll"' in body  # fired by static/js/live.js

    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    over = ann_client.get(f"{url}?version={old}", headers={"HX-Request": "true"})
    assert over.status_code == 286
    assert 'id="table"' in over.content.decode()
    assert "hx-trigger" not in over.content.decode()


def test_a_waiting_table_polls_and_shows_who_joined(ann, ann_client, bea_client):
    match = factories.match_make(players=[ann], seats=3)
    url = f"/matches/{match.pk}/table/?version={match.version}"
    assert ann_client.get(url).status_code == 204
    bea_client.post(f"/matches/{match.pk}/join/")
    response = ann_client.get(url)
    assert response.status_code == 200
    assert re.search(r"<li>bea</li>", response.content.decode())


def test_the_table_shows_gulliver_facts(ann, bea, ann_client):
    match = factories.match_make(game="gulliver", players=[ann, bea], options={"target": 60})
    page = ann_client.get(f"/matches/{match.pk}/").content.decode()
    for marker in ('id="scores"', 'id="sentence"', 'id="round-info"', "Round 1", "Playing to 60"):
        assert marker in page
    engine = get_engine("gulliver")
    view = engine.view(engine.load(match.state), 0)
    highlighted = re.findall(
        r'<div class="slot playable[^"]*"[^>]*>\s*'  # a slot may say why it offers no move
        r'<div class="card gv[^"]*"[^>]*data-card="([^"]+)"',
        page,
    )
    assert set(highlighted) == set(view["playable"]) | set(view["prependable"])


def test_rules_pages_escape_html_and_unknown_games_are_404(client):
    from games.pages import render_markdown_text

    html = render_markdown_text(
        "# T\n\n<script>x()</script> [a](javascript:x()) [b](https://e.org)"
    )
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "javascript:" not in html
    assert 'href="https://e.org"' in html
    assert client.get("/rules/chess/").status_code == 404


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_rules_pages_render_the_docs(client, game):
    response = client.get(f"/rules/{game}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1" in page and "How to play" in page


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_rules_pages_keep_each_table_under_its_own_heading(client, game):
    """Issue 33: the Faraway story-card and Penalty tables ran together (one table straight after
    the other); every table of a rules page follows a heading or words of its own."""
    page = client.get(f"/rules/{game}/").content.decode()
    assert not re.search(r"</table>\s*<table", page)

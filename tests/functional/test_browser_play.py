"""Two people in two browsers: register, create and share a Faraway Tree match, play it live.

Every move is made by clicking a button the page offers (the seed is random, so nothing assumes
cards), and after each move the other person's page, never reloaded, must catch up by htmx
polling. At every step both pages are compared with the engine's view for their seat, read
from the database: a page shows exactly its own hand, the public rows and discards, and nothing
else that could be another player's card.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import Page

from games.engines import faraway_cards, get_engine
from games.models import Match
from games.presentation.table import table_page
from games.selectors import match_table
from tests.functional.pages import Snapshot, TablePage, register

FULL_TURNS_EACH = 3
# A full turn is 2-3 moves; penalties can make one player move twice in a row.
MAX_MOVES = 40
# htmx polls every 2 s; allow for a slow poll on a busy machine.
POLL_WAIT_MS = 8_000

ENGINE = get_engine("faraway")


def _key(move: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in move.items()))


def choose(offered: list[dict[str, Any]], draws_so_far: int) -> dict[str, Any]:
    """A story card when one can be laid, else a penalty, else a draw, else a discard.

    Draws alternate between the pack (hidden cards: the opponent must not learn them) and the
    discards (public), when both are offered.
    """
    by_type: dict[str, list[dict[str, Any]]] = {}
    for move in offered:
        by_type.setdefault(move["type"], []).append(move)
    for kind in ("play", "penalty"):
        if by_type.get(kind):
            return by_type[kind][0]
    draws = by_type.get("draw", [])
    if draws:
        want = "pack" if draws_so_far % 2 == 0 else "discard"
        preferred = [m for m in draws if m["source"] == want]
        return (preferred or draws)[0]
    if by_type.get("discard"):
        return by_type["discard"][0]
    return offered[0]


def check_page_against_engine(
    snap: Snapshot, page: Page, match: Match, seat: int, names: list[str]
) -> None:
    """The page shows what ``engine.view(state, seat)`` shows, and no other card faces."""
    assert snap.version == match.version, "compare a page with the row it was rendered from"
    state = ENGINE.load(match.state)
    view = ENGINE.view(state, seat)
    assert snap.hand == list(view["hand"])
    assert snap.discards == list(view["discards"])
    rows = {p["seat"]: p["row"] for p in snap.players}
    assert rows == {i: list(view["rows"][i]) for i in range(len(names))}
    public = list(view["discards"]) + [c for row in view["rows"] for c in row]
    public += list(view.get("aside") or []) + [p["card"] for p in view["penalties"] if p]
    # Every card face on the page is this seat's hand or public: another hand cannot be shown.
    extra = Counter(snap.all_cards) - Counter(list(view["hand"]) + public)
    assert not extra, f"card faces on {names[seat]}'s page that {names[seat]} may not see: {extra}"
    assert snap.pack == view["pack_count"]
    for player in snap.players:
        count = view["hand_counts"][player["seat"]]
        assert re.search(rf"\b{count} cards? in hand", player["text"]), player["text"]
    assert not any(line.startswith(f"{names[1 - seat]} was dealt") for line in snap.log)
    awaited = seat in ENGINE.awaiting(state)
    assert (snap.turn == "Your turn") == awaited, snap.turn
    legal = ENGINE.legal_moves(state, seat)
    assert sorted(map(_key, snap.moves)) == sorted(map(_key, legal))
    assert str(match.seed) not in page.content(), "the seed reached the browser"


def new_lines(before: Snapshot, after: Snapshot) -> list[str]:
    """Log lines that arrived between two snapshots (the log lists newest first)."""
    assert len(after.log) < 60, "the log is capped; this test plays too few moves to reach it"
    return after.log[: len(after.log) - len(before.log)]


def server_log(match: Match, seat: int) -> list[str]:
    """The log lines a freshly rendered table shows ``seat``, newest first, as on the page."""
    context = table_page(match_table(match=match, seat=match.seats.get(index=seat)))
    return [line.strip() for line in reversed(context["table"]["events"])]


def drawn_card_names(match: Match, seat: int) -> list[str]:
    """Names of the cards ``seat`` just drew: the latest logged draw, redacted for that seat."""
    entry = match.moves.order_by("-ply").first()
    events = ENGINE.redact(entry.events, seat)
    draw = next(e for e in reversed(events) if e["type"] == "draw")
    return [faraway_cards.card_name(c) for c in draw["cards"]]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_people_register_share_a_faraway_match_and_see_each_other_play(
    live_server, make_context
) -> None:
    base = live_server.url
    names = ["wren", "moss"]  # seat 0 creates the match, seat 1 joins by the invite link
    creator_page = make_context().new_page()
    joiner_page = make_context().new_page()
    register(creator_page, base, names[0])
    register(joiner_page, base, names[1])

    nav = creator_page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="New match").click()
    creator_page.get_by_label("The Faraway Tree").check()
    creator_page.get_by_label("Seats").fill("2")
    creator_page.get_by_role("button", name="Create match").click()
    creator_page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/$", creator_page.url).group(1))
    invite = creator_page.get_by_label(re.compile("Invite link")).input_value()
    assert invite.startswith(base) and "/matches/join/" in invite

    creator = TablePage(creator_page, names[0])
    creator.mark("creator-document")
    waiting = creator.snapshot()
    assert waiting.status == "waiting"

    joiner_page.goto(invite)
    joiner_page.get_by_role("button", name="Take a seat").click()
    joiner_page.wait_for_url(f"{base}/matches/{match_id}/")
    joiner = TablePage(joiner_page, names[1])
    joiner.mark("joiner-document")
    joined = joiner.snapshot()
    assert joined.status == "active"

    # The creator's waiting page turns into the table by itself once the second seat is taken.
    started = creator.wait_for_version(joined.version, POLL_WAIT_MS)
    assert started.status == "active"
    assert (started.marker, started.origin) == ("creator-document", waiting.origin)

    pages = [creator, joiner]
    origins = [waiting.origin, joined.origin]
    markers = ["creator-document", "joiner-document"]
    full_turns = [0, 0]
    draws = [0, 0]
    seen_move_types: Counter[str] = Counter()
    for _ in range(MAX_MOVES):
        if min(full_turns) >= FULL_TURNS_EACH:
            break
        match = Match.objects.get(pk=match_id)
        assert match.status == Match.Status.ACTIVE
        (mover,) = match.awaiting
        other = 1 - mover
        mine, theirs = pages[mover].snapshot(), pages[other].snapshot()
        for seat, snap in ((mover, mine), (other, theirs)):
            assert (snap.marker, snap.origin) == (markers[seat], origins[seat]), "page reloaded"
            check_page_against_engine(snap, pages[seat].page, match, seat, names)

        move = choose(mine.moves, draws[mover])
        mine_after = pages[mover].play(move)
        # The other page is not touched: only its own polling can bring the move in.
        theirs_after = pages[other].wait_for_version(mine_after.version, POLL_WAIT_MS)
        assert theirs_after.version == mine_after.version
        assert (theirs_after.marker, theirs_after.origin) == (markers[other], origins[other])
        assert theirs_after.pack == mine_after.pack

        arrived = new_lines(theirs, theirs_after)
        assert any(line.startswith(names[mover]) for line in arrived), (move, arrived)
        match.refresh_from_db()
        # The mover's page put only the new lines on top of its log: it reads as a fresh page.
        assert mine_after.log == server_log(match, mover), (mine_after.log, move)
        if move["type"] == "draw":
            draws[mover] += 1
            if move["source"] == "pack":
                cards = drawn_card_names(match, mover)
                own_lines = " ".join(new_lines(mine, mine_after))
                assert all(card in own_lines for card in cards), (cards, own_lines)
                assert not any(card in line for card in cards for line in arrived), arrived
        if move["type"] == "discard":
            full_turns[mover] += 1
            # Whose turn it is changed on the page that did not move, without a reload.
            if other in match.awaiting:
                assert theirs_after.turn == "Your turn"
        seen_move_types[f"{move['type']}:{move.get('source', '')}"] += 1

    assert min(full_turns) >= FULL_TURNS_EACH, (full_turns, seen_move_types)
    assert seen_move_types["draw:pack"] and seen_move_types["discard:"], seen_move_types
    match = Match.objects.get(pk=match_id)
    for seat, table in enumerate(pages):
        snap = table.snapshot()
        assert (snap.marker, snap.origin) == (markers[seat], origins[seat])
        check_page_against_engine(snap, table.page, match, seat, names)

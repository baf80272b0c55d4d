"""The replay viewer: frames equal to what each seat saw live, who may look through whose
eyes, the controls, bad input, secrecy and a constant cost per frame."""

from __future__ import annotations

import random
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engines import get_engine
from games.models import Match, Move
from games.selectors.replay import ALL, PUBLIC, Perspective, replay_frame
from games.services import move_submit
from tests import factories
from tests.integration.test_table import _faraway_decks

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def _without_events(view: dict) -> dict:
    return {key: value for key, value in view.items() if key != "events"}


def _record_live_views(match: Match) -> tuple[dict[int, dict], object]:
    """Each seat's and a spectator's ``engine.view`` after every entry, as the live table had
    it (``{ply: {seat or None: view}}``), from the stored snapshot. A snapshot carries no
    events (the table reads them from the log), so they are compared apart."""
    engine = get_engine(match.game)
    seen: dict[int, dict] = {}

    def record(current: Match) -> None:
        state = engine.load(current.state)
        seen[current.ply] = {s: engine.view(state, s) for s in [*range(current.num_players), None]}

    return seen, record


def _perspective(seat: int | None) -> Perspective:
    return Perspective(PUBLIC) if seat is None else Perspective(str(seat), seat)


@pytest.mark.parametrize(
    ("game", "seats", "options", "plies"),
    [
        ("faraway", 3, None, None),
        ("gulliver", 3, {"target": 40, "challenges": True}, None),
        ("gulliver", 2, None, 70),
    ],
)
def test_every_frame_is_the_view_each_seat_had_live(game, seats, options, plies, ann, bea, cal):
    players = [ann, bea, cal][:seats]
    match = factories.match_make(game=game, players=players, seed=11, options=options)
    seen, record = _record_live_views(match)
    factories.play_random(match, random.Random(5), plies=plies, after_each=record)
    match.refresh_from_db()
    assert match.ply > Move.CHECKPOINT_EVERY  # the frames below fold from checkpoints
    if plies is None:
        assert match.status == Match.Status.FINISHED
    match_seats = list(match.seats.select_related("user"))
    engine = get_engine(game)
    for ply in sorted(seen):
        for seat, live in seen[ply].items():
            frame = replay_frame(
                match=match, seats=match_seats, ply=ply, perspective=_perspective(seat)
            )
            assert _without_events(frame.view) == _without_events(live), (ply, seat)
            logged = match.start_events if ply == 0 else match.moves.get(ply=ply).events
            assert frame.view["events"] == engine.redact(logged, seat), (ply, seat)


def test_a_running_match_replays_only_as_the_viewer_saw_it(ann, bea, cal, ann_client, cal_client):
    match = factories.match_make(players=[ann, bea], seed=4)
    factories.play_random(match, random.Random(1), plies=6)
    url = f"/matches/{match.pk}/replay/"
    own = ann_client.get(url)
    assert own.status_code == 200
    page = own.content.decode()
    assert 'data-as="0"' in page and 'id="replay-running"' in page
    assert 'id="hand"' in page and "ann\u2019s hand" in page
    for forbidden in ("1", ALL):
        refused = ann_client.get(url, {"as": forbidden})
        assert refused.status_code == 403
        assert "only as you saw it" in refused.content.decode()
    assert ann_client.get(url, {"as": PUBLIC}).status_code == 200
    # A spectator of a public match sees public facts only, and may not ask for more.
    watched = cal_client.get(url).content.decode()
    assert 'data-as="public"' in watched and 'id="hand"' not in watched
    assert cal_client.get(url, {"as": "0"}).status_code == 403


def test_a_private_match_replay_is_a_404_to_outsiders(ann, bea, ann_client, cal_client):
    match = factories.match_make(players=[ann, bea], public=False)
    factories.play_random(match, random.Random(2), plies=3)
    url = f"/matches/{match.pk}/replay/"
    assert cal_client.get(url).status_code == 404
    assert cal_client.get(url, {"ply": "1"}, headers=HTMX).status_code == 404
    assert ann_client.get(url).status_code == 200


def test_a_finished_match_offers_every_hand_and_every_seat(ann, bea, ann_client, cal_client):
    match = factories.match_make(game="gulliver", players=[ann, bea], options={"target": 30})
    factories.play_random(match, random.Random(3))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    url = f"/matches/{match.pk}/replay/"
    page = cal_client.get(url).content.decode()  # a spectator, once it is over
    assert 'data-as="all"' in page
    assert 'id="all-hands"' in cal_client.get(url, {"as": ALL, "ply": "3"}).content.decode()
    for key in ("0", "1", PUBLIC):
        assert f'data-as="{key}"' in page
        assert cal_client.get(url, {"as": key, "ply": "3"}).status_code == 200
    as_bea = cal_client.get(url, {"as": "1", "ply": "2"}).content.decode()
    assert "bea\u2019s hand" in as_bea and 'id="all-hands"' not in as_bea
    # Gulliver's rounds: grouped, and each can be jumped to.
    if match.rounds > 1:
        assert 'id="round-jump"' in page and 'id="round-2"' in page
    # The finished table links to its replay.
    table = ann_client.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="{url}"' in table


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_the_last_move_shows_each_hand_once(game, ann, bea, ann_client):
    """Issue 33: at the last move the board's final hands and "Every hand" showed each twice."""
    options = {"target": 30} if game == "gulliver" else None
    match = factories.match_make(game=game, players=[ann, bea], options=options)
    factories.play_random(match, random.Random(3))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    url = f"/matches/{match.pk}/replay/"
    for ply in (match.ply, None):  # the last move, and the page opened without ?ply
        query = {"as": ALL} if ply is None else {"as": ALL, "ply": str(ply)}
        for headers in ({}, HTMX):
            page = ann_client.get(url, query, headers=headers).content.decode()
            assert page.count('class="row final-hand"') == 2
            assert 'id="all-hands"' not in page and 'class="replay-hand"' not in page
    before = ann_client.get(url, {"as": ALL, "ply": str(match.ply - 1)}).content.decode()
    assert before.count('class="replay-hand"') == 2 and "final-hand" not in before


def test_controls_move_list_and_htmx_frames(ann, bea, ann_client):
    match = factories.match_make(players=[ann, bea], seed=9)
    factories.play_random(match, random.Random(4), plies=30)
    url = f"/matches/{match.pk}/replay/"
    page = ann_client.get(url, {"ply": "12"}).content.decode()
    assert 'data-ply="12"' in page
    for control, to in (("first", 0), ("prev", 11), ("next", 13), ("last", 30)):
        link = re.search(rf'id="replay-{control}" href="([^"]+)"', page)
        assert link and f"ply={to}&amp;as=0" in link.group(1)
        assert f'hx-get="{link.group(1)}"' in page
    assert page.count('hx-push-url="true"') == 5  # four controls, and the list for its lines
    move_list = page.split('id="move-list"')[1].split("</aside>")[0]
    assert 'hx-target="#replay-frame"' in move_list.split(">")[0]  # inherited by every line
    assert move_list.count(f'hx-get="{url}?ply=') == 31  # the deal and 30 entries
    assert 'aria-current="step"' not in page  # the list is one for every frame: replay.js marks it
    frame = ann_client.get(url, {"ply": "13"}, headers=HTMX).content.decode()
    assert frame.lstrip().startswith('<section id="replay-frame"')
    assert 'id="move-list"' not in frame and "<html" not in frame
    clamped = ann_client.get(url, {"ply": "999", "as": "0"}, headers=HTMX)
    assert clamped["HX-Push-Url"] == f"{url}?ply=30&as=0"  # the location bar shows the frame
    at_start = ann_client.get(url, {"ply": "0"}).content.decode()
    assert 'id="replay-first" aria-disabled="true"' in at_start
    assert "The deal" in at_start


@pytest.mark.parametrize(
    ("ply", "status", "shown"),
    [("abc", 400, None), ("-5", 200, 0), ("99999", 200, 8), ("1e3", 400, None), ("", 400, None)],
)
def test_bad_positions_are_refused_or_clamped(ply, status, shown, ann, bea, ann_client):
    match = factories.match_make(players=[ann, bea])
    factories.play_random(match, random.Random(6), plies=8)
    response = ann_client.get(f"/matches/{match.pk}/replay/", {"ply": ply})
    assert response.status_code == status
    if shown is not None:
        assert f'data-ply="{shown}"' in response.content.decode()


def test_a_waiting_match_has_nothing_to_replay(ann, ann_client):
    match = factories.match_make(players=[ann], seats=2)
    response = ann_client.get(f"/matches/{match.pk}/replay/")
    assert response.status_code == 302 and response.url == f"/matches/{match.pk}/"


def test_a_seats_replay_is_identical_when_only_unseen_cards_differ(ann, bea, ann_client):
    seed = 3
    matches = [
        factories.match_make(players=[ann, bea], seed=seed, options={"deck": deck})
        for deck in _faraway_decks(seed)
    ]
    engine = get_engine("faraway")
    assert sorted(engine.load(matches[0].state).hands[1]) != sorted(
        engine.load(matches[1].state).hands[1]
    )
    # The first mover draws from the pack in both: the same entry, legal in both.
    for match in matches:
        seat = factories.awaited_seat(match)
        seats = {s.index: s for s in match.seats.all()}
        move_submit(
            match=match,
            seat=seats[seat],
            move={"type": "draw", "source": "pack"},
            expected_version=match.version,
        )

    def ann_sees(match: Match, ply: int) -> str:
        page = ann_client.get(f"/matches/{match.pk}/replay/", {"ply": ply}).content.decode()
        return factories.normalise_table_html(page)

    for ply in (0, 1):
        assert ann_sees(matches[0], ply) == ann_sees(matches[1], ply)
    # Bea's own cards differ, so her replay must too (the check above could not be vacuous).
    bea_client = factories.client_for(bea)
    bea_pages = [
        factories.normalise_table_html(
            bea_client.get(f"/matches/{m.pk}/replay/", {"ply": 0}).content.decode()
        )
        for m in matches
    ]
    assert bea_pages[0] != bea_pages[1]


def test_a_frame_costs_the_same_queries_early_and_late(ann, bea, ann_client):
    match = factories.match_make(game="gulliver", players=[ann, bea], options={"target": 1000})
    factories.play_random(match, random.Random(8), plies=130)
    url = f"/matches/{match.pk}/replay/"
    counts = {}
    for ply in (5, 120, 127):
        with CaptureQueriesContext(connection) as queries:
            response = ann_client.get(url, {"ply": ply}, headers=HTMX)
        assert response.status_code == 200
        counts[ply] = len(queries)
    assert counts[5] == counts[120] == counts[127], counts
    pages = {}
    for cached in (False, True):  # the move list rendered, then kept (replay.html)
        for ply in (5, 127):
            if not cached:
                cache.clear()
            with CaptureQueriesContext(connection) as queries:
                ann_client.get(url, {"ply": ply})
            pages[cached, ply] = len(queries)
    assert pages[False, 5] == pages[False, 127] == pages[True, 5] + 1 == pages[True, 127] + 1


def test_history_and_the_replay_count_the_same_moves_across_rounds(ann, bea, ann_client):
    """Issue 33: history said 180 moves, the replay "of 182" (it counted Gulliver's deals).
    Every page counts the players' moves; the replay names a deal instead of numbering it."""
    match = factories.match_make(
        game="gulliver", players=[ann, bea], seed=11, options={"target": 120}
    )
    factories.play_random(match, random.Random(3))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.rounds >= 3
    deals = sorted(
        Move.objects.filter(match=match, seat__isnull=True).values_list("ply", flat=True)
    )
    moves = Move.objects.filter(match=match, seat__isnull=False).count()
    assert len(deals) == match.rounds - 1 and moves == match.ply - len(deals)

    history = ann_client.get("/history/").content.decode()
    length = re.search(
        rf'id="history-row-{match.pk}".*?<span class="hr-length">([^<]*)</span>', history, re.S
    )
    assert length is not None and length.group(1) == f"{moves} moves, {match.rounds} rounds"

    url = f"/matches/{match.pk}/replay/"
    last = ann_client.get(url).content.decode()
    assert f"Move {moves} of {moves} \u00b7 round {match.rounds}</span>" in last
    assert f'data-moves="{moves}"' in last and f"of {match.ply}<" not in last
    # The move list numbers moves only: 1 to the last, and no number on a deal's line.
    numbers = [int(n) for n in re.findall(r'<span class="ply">(\d+)</span>', last)]
    assert numbers == list(range(1, moves + 1))
    first_deal = ann_client.get(url, {"ply": deals[0]}).content.decode()
    before = deals[0] - 1
    assert f"The deal of round 2, after move {before} of {moves}</span>" in first_deal
    assert "<h2>The deal of round 2</h2>" in first_deal
    after = ann_client.get(url, {"ply": deals[0] + 1}, headers=HTMX).content.decode()
    assert f"Move {before + 1} of {moves} \u00b7 round 2</span>" in after
    start = ann_client.get(url, {"ply": 0}, headers=HTMX).content.decode()
    assert f"The deal, before move 1 of {moves}</span>" in start
    # Every frame's number is the moves logged up to it, through every perspective.
    seats = list(match.seats.all())
    for ply in range(match.ply + 1):
        want = ply - sum(1 for deal in deals if deal <= ply)
        for perspective in (Perspective(ALL), Perspective(PUBLIC), Perspective("1", 1)):
            frame = replay_frame(match=match, seats=seats, ply=ply, perspective=perspective)
            assert frame.move == want, (ply, perspective.key)

"""/history/: the signed-in person's matches, filtered, counted, paginated, and never a secret."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engines import get_engine
from games.engines.faraway_cards import card_name
from games.models import Match
from games.presentation.names import ordinal
from games.services import move_submit
from tests import factories
from tests.integration.history_rows import many_finished, match_rows
from tests.integration.test_table import _faraway_decks

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
FIN, ACTIVE, WAITING = Match.Status.FINISHED, Match.Status.ACTIVE, Match.Status.WAITING


def _rows(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'id="history-row-(\d+)"', page)]


def _row_html(page: str, pk: int) -> str:
    found = re.search(rf'<li class="history-row" id="history-row-{pk}".*?</li>', page, re.S)
    assert found, f"no row for match {pk}"
    return found.group(0)


@pytest.fixture
def dan(db):
    return factories.user_make("dan")


@pytest.fixture
def book(ann, bea, cal, dan):
    """Ann's matches, hand-made with known results (oldest first, one day apart), and one
    match of others that is never hers."""
    m = {}
    m["f1"] = match_rows(seats=[(ann, "won", 9, 1), (bea, "lost", 4, 2)], day=0)
    m["f2"] = match_rows(
        game="gulliver",
        seats=[(cal, "won", 61, 1), (ann, "lost", 40, 2), ("greedy", "lost", 40, 2)],
        day=1,
        ply=50,
        rounds=4,
    )
    m["f3"] = match_rows(seats=[("random", "drawn", 3, 1), (ann, "drawn", 3, 1)], day=2)
    m["f4"] = match_rows(
        game="gulliver",
        status=ACTIVE,
        seats=[(ann, None, None, None), (bea, None, None, None)],
        day=3,
        ply=12,
        rounds=2,
    )
    m["f5"] = match_rows(
        status=WAITING, seats=[(ann, None, None, None)], num_players=2, day=4, ply=0
    )
    m["f6"] = match_rows(
        game="gulliver",
        public=False,
        seats=[
            (bea, "lost", 30, 3),
            (ann, "won", 60, 1),
            ("greedy", "lost", 35, 2),
            (cal, "lost", 10, 4),
        ],
        day=5,
    )
    m["other"] = match_rows(seats=[(bea, "won", 9, 1), (cal, "lost", 1, 2)], day=2)
    return m


def test_history_lists_the_users_matches_newest_first_with_their_details(ann_client, book):
    response = ann_client.get("/history/")
    assert response.status_code == 200
    page = response.content.decode()
    order = ["f6", "f5", "f4", "f3", "f2", "f1"]
    assert _rows(page) == [book[k].pk for k in order]
    assert 'id="history-filters"' in page
    assert 'href="/history/"' in page  # the navigation link

    f2 = _row_html(page, book["f2"].pk)
    assert "Gulliver" in f2
    assert 'href="/players/cal/"' in f2 and "Greedy bot" in f2
    assert "<strong>Lost</strong>" in f2 and "=2nd of 3" in f2  # tied with the greedy bot
    assert "47 moves, 4 rounds" in f2  # 50 entries less the three later deals
    assert f'href="/matches/{book["f2"].pk}/replay/"' in f2
    assert "Started <time" in f2 and "finished <time" in f2

    f6 = _row_html(page, book["f6"].pk)
    assert "<strong>Won</strong>" in f6 and "1st of 4" in f6 and "=1st" not in f6
    assert "Private" in f6

    f1 = _row_html(page, book["f1"].pk)
    assert "<strong>Won</strong>" in f1 and " of 2" not in f1  # no place at a table of two
    assert 'href="/players/bea/"' in f1

    assert "Drawn" in _row_html(page, book["f3"].pk)
    assert "Random bot" in _row_html(page, book["f3"].pk)
    f4 = _row_html(page, book["f4"].pk)
    assert "In play" in f4 and "11 moves, 2 rounds" in f4
    f5 = _row_html(page, book["f5"].pk)
    assert "Waiting" in f5 and "1 open seat" in f5
    assert "/replay/" not in f5  # nothing to replay before the deal
    assert "Created <time" in f5


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("game=faraway", ["f5", "f3", "f1"]),
        ("game=gulliver", ["f6", "f4", "f2"]),
        ("result=won", ["f6", "f1"]),
        ("result=lost", ["f2"]),
        ("result=drawn", ["f3"]),
        ("result=in_play", ["f4"]),
        ("status=waiting", ["f5"]),
        ("status=active", ["f4"]),
        ("status=finished", ["f6", "f3", "f2", "f1"]),
        ("opponent=user:bea", ["f6", "f4", "f1"]),
        ("opponent=user:cal", ["f6", "f2"]),
        ("opponent=bot:greedy", ["f6", "f2"]),
        ("opponent=bot:random", ["f3"]),
        ("date_from=2025-05-02&date_to=2025-05-04", ["f4", "f3", "f2"]),
        ("date_from=2025-05-05", ["f6", "f5"]),
        ("date_to=2025-05-01", ["f1"]),
        ("game=gulliver&result=won", ["f6"]),
        ("game=faraway&opponent=user:bea", ["f1"]),
        ("opponent=bot:greedy&result=lost", ["f2"]),
        ("status=finished&date_to=2025-05-02", ["f2", "f1"]),
        ("game=gulliver&opponent=user:bea&status=active&date_from=2025-05-04", ["f4"]),
        ("result=won&status=active", []),
    ],
)
def test_filters_alone_and_combined(ann_client, book, query, expected):
    for headers in ({}, HTMX):
        response = ann_client.get(f"/history/?{query}", headers=headers)
        assert response.status_code == 200
        page = response.content.decode()
        assert _rows(page) == [book[k].pk for k in expected]
        assert "That filter was ignored" not in page
    if not expected:
        assert "No match of yours fits these filters." in page


def test_counts_stand_beside_the_choices(ann_client, book):
    page = ann_client.get("/history/").content.decode()
    for label in (
        "The Faraway Tree (3)",
        "Gulliver&#x27;s Travels (3)",
        ">Won (2)<",
        ">Lost (1)<",
        ">Drawn (1)<",
        ">In play (1)<",
        "Waiting for players (1)",
        ">Finished (4)<",
        '<option value="user:bea">bea (3)</option>',
        '<option value="user:cal">cal (2)</option>',
        '<option value="bot:greedy">Greedy bot (2)</option>',
        '<option value="bot:random">Random bot (1)</option>',
    ):
        assert label in page, label
    assert "6 matches in all" in page
    # Dan never sat with Ann, and the bea-cal match is not hers.
    assert "user:dan" not in page
    # The chosen filter stays chosen in the form.
    page = ann_client.get("/history/?opponent=bot:greedy").content.decode()
    assert '<option value="bot:greedy" selected>' in page


def test_the_form_targets_the_results_and_pushes_its_url(ann_client, book):
    page = ann_client.get("/history/").content.decode()
    form = re.search(r'<form[^>]*id="history-filters"[^>]*>', page).group(0)
    assert 'method="get"' in form and 'action="/history/"' in form
    assert 'hx-get="/history/"' in form
    assert 'hx-target="#history-results"' in form and 'hx-push-url="true"' in form


def test_an_htmx_request_gets_only_the_results(ann_client, book):
    full = ann_client.get("/history/?game=faraway")
    partial = ann_client.get("/history/?game=faraway", headers=HTMX)
    assert "HX-Request" in full["Vary"] and "HX-Request" in partial["Vary"]
    body = partial.content.decode()
    assert body.lstrip().startswith('<section id="history-results"')
    assert "<html" not in body and 'id="history-filters"' not in body
    assert _rows(body) == _rows(full.content.decode())
    # A history restore (back button with an empty cache) needs the whole page.
    restore = ann_client.get(
        "/history/?game=faraway", headers={**HTMX, "HX-History-Restore-Request": "true"}
    )
    assert "<html" in restore.content.decode()


def test_pages_of_twenty_carry_the_filters(ann, bea, ann_client):
    many_finished(ann, bea, 45)
    match_rows(status=ACTIVE, seats=[(ann, None, None, None), (bea, None, None, None)])
    first = ann_client.get("/history/?status=finished").content.decode()
    assert len(_rows(first)) == 20
    assert "Matches 1 to 20 of 45 that fit the filters" in first
    assert "Page 1 of 3" in first
    nxt = re.search(r'<a rel="next" id="history-next" href="([^"]+)" hx-get="([^"]+)"', first)
    assert nxt.group(1) == nxt.group(2) == "/history/?status=finished&amp;page=2"
    third = ann_client.get("/history/?status=finished&page=3", headers=HTMX).content.decode()
    assert len(_rows(third)) == 5
    prev = re.search(r'<a rel="prev" id="history-prev" href="([^"]+)"', third)
    assert prev.group(1) == "/history/?status=finished&amp;page=2"
    seen = set()
    for number in (1, 2, 3):
        seen |= set(
            _rows(ann_client.get(f"/history/?status=finished&page={number}").content.decode())
        )
    assert len(seen) == 45
    # A page past the end is the last page.
    assert _rows(ann_client.get("/history/?status=finished&page=99").content.decode()) == _rows(
        third
    )


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("game=chess", "Game"),
        ("result=maybe", "Result"),
        ("status=%00", "Status"),
        ("opponent=user:nobody", "Opponent"),
        ("opponent=bot:brilliant", "Opponent"),
        ("opponent=" + "x" * 5000, "Opponent"),
        ("date_from=yesterday", "From"),
        ("date_to=2025-13-45", "To"),
        ("date_to=9999-12-31", "To"),
        ("date_from=0001-01-01", "From"),
        ("date_from=2025-05-04&date_to=2025-05-01", "To"),
        ("page=-3", "Page"),
        ("page=" + "9" * 5000, "Page"),
        ("page=two", "Page"),
    ],
)
def test_garbage_is_ignored_with_a_note_never_a_500(ann_client, book, query, field):
    everything = _rows(ann_client.get("/history/").content.decode())
    for headers in ({}, HTMX):
        response = ann_client.get(f"/history/?{query}", headers=headers)
        assert response.status_code == 200
        page = response.content.decode()
        assert re.search(rf'class="error history-note">{field}: [^<]+That filter was ignored', page)
        if field == "To" and "date_from" in query:
            assert _rows(page) == [book[k].pk for k in ("f6", "f5", "f4")]  # the start applies
        else:
            assert _rows(page) == everything


def test_page_links_drop_an_ignored_value(ann, bea, ann_client):
    many_finished(ann, bea, 45)
    page = ann_client.get("/history/?game=chess&result=won&page=1").content.decode()
    assert "Game: There is no such choice. That filter was ignored." in page
    nxt = re.search(r'<a rel="next" id="history-next" href="([^"]+)"', page).group(1)
    assert nxt == "/history/?result=won&amp;page=2"


def test_garbage_beside_good_filters_keeps_the_good_ones(ann_client, book):
    page = ann_client.get("/history/?game=faraway&result=nonsense&opponent=user:bea").content
    page = page.decode()
    assert _rows(page) == [book["f1"].pk]
    assert "Result: There is no such choice. That filter was ignored." in page


def test_history_needs_a_login_and_only_answers_get(client, ann_client):
    response = client.get("/history/?game=faraway")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/history/")
    response = client.get("/history/", headers=HTMX)
    assert response.status_code == 401 and 'href="/accounts/login/?next=' in response.text
    assert ann_client.post("/history/").status_code == 405


def test_another_persons_private_match_never_appears(ann, bea, cal, cal_client, book):
    page = cal_client.get("/history/").content.decode()
    # Cal's own seats only: the private f6 is hers too; f1, f4 (Ann and Bea) are not.
    assert set(_rows(page)) == {book["f2"].pk, book["f6"].pk, book["other"].pk}
    private = match_rows(seats=[(ann, "won", 1, 1), (bea, "lost", 0, 2)], public=False, day=9)
    assert private.pk not in _rows(cal_client.get("/history/").content.decode())
    assert private.pk not in _rows(cal_client.get("/history/?opponent=user:ann").content.decode())


@pytest.mark.parametrize("game", ["faraway", "gulliver"])
def test_no_hidden_card_or_secret_in_a_running_matchs_row(game, ann, bea, ann_client):
    match = factories.match_make(game=game, players=[ann, bea], seed=8_765_432_109_876_543)
    factories.play_random(match, random.Random(3), plies=4)
    match.refresh_from_db()
    assert match.status == ACTIVE
    page = ann_client.get("/history/").content.decode()
    row = _row_html(page, match.pk)
    assert "In play" in row
    for secret in (str(match.seed), match.salt, match.head_hash):
        assert secret not in page
    assert "data-card" not in row
    engine = get_engine(game)
    state = engine.load(match.state)
    hidden = engine.dump(state)
    if game == "faraway":
        cards = {c for hand in hidden["hands"] for c in hand} | set(hidden["pack"])
        for code in cards:
            assert card_name(code) not in row
    # What the row shows of the match is only what Ann's own view already holds.
    assert f"{match.ply - (match.rounds - 1)} move" in row


def test_a_running_matchs_row_is_identical_when_only_unseen_cards_differ(ann, bea, ann_client):
    """The table tests' method: two matches that differ only in cards hidden from Ann (Bea's
    hand, the bottom of the pack) give Ann the same history page, byte for byte."""
    seed = 3
    pages = []
    for deck in _faraway_decks(seed):
        match = factories.match_make(players=[ann, bea], seed=seed, options={"deck": deck})
        seat = factories.awaited_seat(match)
        move_submit(
            match=match,
            seat=match.seats.get(index=seat),
            move={"type": "draw", "source": "pack"},
            expected_version=match.version,
        )
        page = ann_client.get("/history/").content.decode()
        # What differs by construction: the match's id and the moment it started.
        page = re.sub(r"history-row-\d+|data-match-id=\"\d+\"|match \d+\"", "id", page)
        page = re.sub(r'datetime="[^"]+"', "time", page)
        pages.append(factories.normalise_table_html(page))
        match.delete()
    assert pages[0] == pages[1]


def test_a_match_played_through_the_services_shows_its_result(ann, bea, cal, ann_client):
    match = factories.match_make(game="faraway", players=[ann, bea, cal], seed=11)
    factories.play_random(match, random.Random(5))
    match.refresh_from_db()
    assert match.status == FIN
    seat = match.seats.get(user=ann)
    row = _row_html(ann_client.get("/history/").content.decode(), match.pk)
    assert f"<strong>{seat.get_result_display()}</strong>" in row
    assert f"{seat.rank}" in row and " of 3" in row
    assert f"{match.ply} move" in row


def test_query_count_does_not_grow_with_the_matches(ann, bea, ann_client):
    many_finished(ann, bea, 5)
    urls = [("/history/", {}), ("/history/?game=faraway&result=won", HTMX), ("/history/", HTMX)]

    def counts() -> list[int]:
        found = []
        for url, headers in urls:
            with CaptureQueriesContext(connection) as ctx:
                assert ann_client.get(url, headers=headers).status_code == 200
            found.append(len(ctx.captured_queries))
        return found

    few = counts()
    many_finished(ann, bea, 495)
    assert counts() == few
    # The page's own reads, + the nav badge: its settings row and every wanted kind's count at
    # once (docs/notifications.md); the htmx fragments render no badge; + one query marking the
    # rows played in a league or on the ladder (games.views.event_marks, filled by
    # competitions.profile_events).
    assert max(few) <= 11


@pytest.mark.parametrize(
    ("n", "word"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (111, "111th"),
    ],
)
def test_places_are_written_as_ordinals(n, word):
    assert ordinal(n) == word

"""/players/<username>/: figures per game, recent form and head-to-head, hand-counted; privacy;
the lobby's rows with their results."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match
from tests import factories
from tests.integration.history_rows import many_finished, match_rows

pytestmark = pytest.mark.django_db

ACTIVE = Match.Status.ACTIVE


@pytest.fixture
def dan(db):
    return factories.user_make("dan")


@pytest.fixture
def dan_client(dan):
    return factories.client_for(dan)


@pytest.fixture
def book(ann, bea, cal, dan):
    """Ann's finished matches with known ranks, one day apart (m1 oldest); the figures the
    tests expect are counted by hand from this table.

    | match | game     | seats (result score rank)                                   |
    | m1    | faraway  | ann won 9 1, bea lost 4 2                                   |
    | m2    | faraway  | ann lost 5 2, bea won 9 1                                   |
    | m3    | faraway  | ann drawn 7 1, bea drawn 7 1                                |
    | m4    | gulliver | ann lost 50 2, bea won 62 1, cal lost 40 3, greedy lost 20 4 |
    | m5    | gulliver | ann lost 45 2, cal lost 45 2, random won 61 1               |
    | m6    | gulliver | ann won 60 1, greedy lost 30 2, greedy lost 25 3            |
    | m7    | faraway  | private: ann won 9 1, dan lost 2 2                          |
    | m8    | faraway  | in play: ann, bea                                           |
    | m9    | faraway  | private: bea won, cal lost (Ann is not there)              |
    """
    g = "gulliver"
    return {
        "m1": match_rows(seats=[(ann, "won", 9, 1), (bea, "lost", 4, 2)], day=0),
        "m2": match_rows(seats=[(ann, "lost", 5, 2), (bea, "won", 9, 1)], day=1),
        "m3": match_rows(seats=[(ann, "drawn", 7, 1), (bea, "drawn", 7, 1)], day=2),
        "m4": match_rows(
            game=g,
            seats=[
                (ann, "lost", 50, 2),
                (bea, "won", 62, 1),
                (cal, "lost", 40, 3),
                ("greedy", "lost", 20, 4),
            ],
            day=3,
        ),
        "m5": match_rows(
            game=g,
            seats=[(ann, "lost", 45, 2), (cal, "lost", 45, 2), ("random", "won", 61, 1)],
            day=4,
        ),
        "m6": match_rows(
            game=g,
            seats=[(ann, "won", 60, 1), ("greedy", "lost", 30, 2), ("greedy", "lost", 25, 3)],
            day=5,
        ),
        "m7": match_rows(seats=[(ann, "won", 9, 1), (dan, "lost", 2, 2)], day=6, public=False),
        "m8": match_rows(
            status=ACTIVE, seats=[(ann, None, None, None), (bea, None, None, None)], day=7
        ),
        "m9": match_rows(seats=[(bea, "won", 9, 1), (cal, "lost", 3, 2)], day=8, public=False),
    }


def _page(client, url: str = "/players/ann/") -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _game_stats(page: str) -> dict[str, tuple[str, ...]]:
    found = {}
    for game, body in re.findall(r'<tr id="stats-(\w+)" data-game="\w+">(.*?)</tr>', page, re.S):
        cells = [
            re.search(rf'<td class="{c}">([^<]*)</td>', body).group(1)
            for c in ("played", "won", "win-rate", "average-score")
        ]
        found[game] = tuple(cells)
    return found


def _head_to_head(page: str) -> list[tuple[str, bool, int, int, int, int]]:
    rows = []
    for me, who, body in re.findall(
        r'<tr class="h2h-row( me)?" data-opponent="([^"]+)">(.*?)</tr>', page, re.S
    ):
        figures = [
            int(re.search(rf'<td class="{c}">(\d+)</td>', body).group(1))
            for c in ("played", "won", "lost", "drawn")
        ]
        rows.append((who, bool(me), *figures))
    return rows


def _form(page: str) -> list[tuple[int, str, str]]:
    return [
        (int(pk), key, words)
        for pk, words, key in re.findall(
            r'href="/matches/(\d+)/replay/" title="[^:]+: ([^"]+)" aria-label="[^"]+" '
            r'data-result="(\w+)"',
            page,
        )
    ]


def _rows(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'id="history-row-(\d+)"', page)]


def test_own_profile_counts_every_own_match(ann_client, book):
    page = _page(ann_client)
    assert _game_stats(page) == {
        "faraway": ("4", "2", "50%", "7.5"),
        "gulliver": ("3", "1", "33%", "51.7"),
    }
    assert _head_to_head(page) == [
        ("user:bea", False, 4, 1, 2, 1),
        ("user:cal", False, 2, 1, 0, 1),
        ("user:dan", False, 1, 1, 0, 0),
        ("bot:greedy", False, 3, 3, 0, 0),  # two greedy seats in m6: two meetings
        ("bot:random", False, 1, 0, 1, 0),
    ]
    assert "You won" in page
    assert _form(page) == [
        (book["m7"].pk, "won", "Won"),
        (book["m6"].pk, "won", "Won, 1st of 3"),
        (book["m5"].pk, "lost", "Lost, =2nd of 3"),
        (book["m4"].pk, "lost", "Lost, 2nd of 4"),
        (book["m3"].pk, "drawn", "Drawn"),
        (book["m2"].pk, "lost", "Lost"),
        (book["m1"].pk, "won", "Won"),
    ]
    assert _rows(page) == [book[f"m{i}"].pk for i in (8, 7, 6, 5, 4, 3, 2, 1)]
    assert 'id="profile-history-link"' in page


def test_someone_elses_profile_counts_only_what_the_viewer_may_see(cal_client, book):
    page = _page(cal_client)
    # m7 is private to Ann and Dan: gone from every figure and list.
    assert _game_stats(page) == {
        "faraway": ("3", "1", "33%", "7.0"),
        "gulliver": ("3", "1", "33%", "51.7"),
    }
    assert _head_to_head(page) == [
        ("user:cal", True, 2, 1, 0, 1),  # the viewer first, marked
        ("user:bea", False, 4, 1, 2, 1),
        ("bot:greedy", False, 3, 3, 0, 0),
        ("bot:random", False, 1, 0, 1, 0),
    ]
    assert "ann won" in page and '<strong>cal</strong> <span class="badge">you</span>' in page
    assert [pk for pk, *_ in _form(page)] == [book[f"m{i}"].pk for i in (6, 5, 4, 3, 2, 1)]
    assert book["m7"].pk not in _rows(page)
    assert f"/matches/{book['m7'].pk}/" not in page
    assert "dan" not in page
    assert 'id="profile-scope"' in page


def test_a_member_of_a_private_match_sees_it_on_the_profile(dan_client, book):
    page = _page(dan_client)
    assert _head_to_head(page)[0] == ("user:dan", True, 1, 1, 0, 0)
    assert book["m7"].pk in _rows(page)
    # The private match of Bea and Cal never shows on Bea's profile for Dan.
    bea_page = _page(dan_client, "/players/bea/")
    assert book["m9"].pk not in _rows(bea_page)
    assert "user:cal" in bea_page  # Bea met Cal in the public m4
    assert ("user:cal", False, 1, 1, 0, 0) in _head_to_head(bea_page)


def test_recent_form_is_the_last_ten(ann, bea, ann_client):
    many_finished(ann, bea, 15)
    page = _page(ann_client)
    assert len(_form(page)) == 10
    assert "The last 10 results, newest first" in page


def test_profile_rows_show_results_and_link_the_replay(ann_client, book):
    page = _page(ann_client)
    row = re.search(rf'id="history-row-{book["m4"].pk}".*?</li>', page, re.S).group(0)
    assert "<strong>Lost</strong>" in row and "2nd of 4" in row
    assert f'href="/matches/{book["m4"].pk}/replay/"' in row


def test_profile_pages_of_twenty(ann, bea, ann_client):
    many_finished(ann, bea, 25)
    first = _page(ann_client)
    assert len(_rows(first)) == 20
    second = _page(ann_client, "/players/ann/?page=2")
    assert len(_rows(second)) == 5
    assert not set(_rows(first)) & set(_rows(second))
    assert 'href="?page=2#profile-matches"' in first
    assert _rows(_page(ann_client, "/players/ann/?page=zzz&vs=%00")) == _rows(first)


def test_head_to_head_is_paginated(ann, ann_client):
    for i in range(23):
        match_rows(seats=[(ann, "won", 2, 1), (factories.user_make(f"p{i:02}"), "lost", 1, 2)])
    first = _head_to_head(_page(ann_client))
    assert len(first) == 20
    second = _head_to_head(_page(ann_client, "/players/ann/?vs=2"))
    assert [r[0] for r in second] == ["user:p20", "user:p21", "user:p22"]


def test_profile_urls(client, ann, bea, bea_client):
    assert bea_client.get("/players/nobody/").status_code == 404
    assert bea_client.get("/accounts/profile/")["Location"] == "/players/bea/"
    moved = bea_client.get("/accounts/ann/")
    assert moved.status_code == 301 and moved["Location"] == "/players/ann/"
    assert client.get("/players/ann/")["Location"].startswith("/accounts/login/?next=")
    assert bea_client.post("/players/ann/").status_code == 405
    empty = bea_client.get("/history/").content.decode()
    assert 'href="/players/bea/"' in empty  # the navigation's own profile link
    assert "You have not played a match yet" in empty
    nothing = _page(bea_client, "/players/ann/")
    assert nothing.count("No finished matches yet.") == 2 and "No matches yet." in nothing


def test_lobby_rows_show_the_result(ann_client, book):
    page = ann_client.get("/matches/").content.decode()
    mine = re.search(r'id="my-matches".*?</section>', page, re.S).group(0)

    def status(key: str) -> str:
        pk = book[key].pk
        item = re.search(rf'data-match-id="{pk}".*?</li>', mine, re.S).group(0)
        return re.search(r'<span class="status">(.*?)</span>\s*(?:<a|</li>)', item, re.S).group(1)

    assert 'class="result result-lost">Lost, 2nd of 4<' in status("m4")
    assert 'class="result result-lost">Lost, =2nd of 3<' in status("m5")
    assert 'class="result result-won">Won<' in status("m1")
    assert 'class="result result-drawn">Drawn<' in status("m3")
    assert "In play" in status("m8")
    assert f'href="/matches/{book["m1"].pk}/replay/"' in mine


def test_profile_query_count_does_not_grow_with_the_matches(ann, bea, ann_client, bea_client):
    many_finished(ann, bea, 5)

    def counts() -> list[int]:
        found = []
        for client in (ann_client, bea_client):
            with CaptureQueriesContext(connection) as ctx:
                assert client.get("/players/ann/").status_code == 200
            found.append(len(ctx.captured_queries))
        return found

    few = counts()
    many_finished(ann, bea, 495)
    assert counts() == few
    # 10, + the nav badge (its settings row and every wanted kind's count at once), + the
    # ratings (docs/ratings.md), + on another's profile the follows, blocks and challenge choice
    # between the two (accounts.selectors.relations.pair_facts), one more when the owner takes
    # challenges only from people they have played; one marking the rows played in a league or
    # on the ladder and two for the profile's leagues and ladder places
    # (competitions.profile_events).
    assert max(few) <= 17

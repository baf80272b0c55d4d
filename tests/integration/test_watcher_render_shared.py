"""Watchers share one render (docs/live.md, games/views/shared_table.py): every non-member
viewer of a public match is served the same table partial, rendered once a version; a member's
table is their own, and the shared one never carries what only a seat may see."""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.test.signals import template_rendered

from accounts.models import NotificationSettings, TimeZoneSetting
from accounts.services.relations import block_add
from games.models import Match
from games.services.leaving import match_resign
from games.services.phrases import phrase_say
from games.views.shared_table import WATCHER_CACHE
from tests import factories

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
DUE = datetime.datetime(2030, 1, 4, 17, 0, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    caches[WATCHER_CACHE].clear()


@pytest.fixture
def renders() -> Iterator[list[str]]:
    """The names of the templates rendered meanwhile (the test renderer's signal)."""
    seen: list[str] = []

    def heard(sender, template, context, **kwargs) -> None:
        seen.append(getattr(template, "name", None) or "")

    template_rendered.connect(heard)
    yield seen
    template_rendered.disconnect(heard)


def _tables(seen: list[str]) -> int:
    """How many table partials were rendered: each includes ``games/_leave.html`` once (the
    partial itself is no template of its own to the signal)."""
    return seen.count("games/_leave.html")


def _poll(client, match: Match, version: int = -1) -> bytes:
    response = client.get(f"/matches/{match.pk}/table/", {"version": version}, headers=HTMX)
    assert response.status_code in (200, 286), response.status_code
    return response.content


def _seated_for(content: bytes) -> bytes | None:
    """The ``data-seat`` of the ``#table`` section: whose table this is (``None``: a watcher's)."""
    tag = content[content.index(b'<section id="table"') :]
    tag = tag[: tag.index(b">")]
    if b' data-seat="' not in tag:
        return None
    return tag.split(b' data-seat="')[1].split(b'"')[0]


def _watcher(name: str, zone: str | None = None):
    user = factories.user_make(name)
    if zone:
        TimeZoneSetting.objects.update_or_create(user=user, defaults={"zone": zone})
    return user, factories.client_for(user)


def _played(ann, bea, plies: int = 2) -> Match:
    match = factories.match_make(players=[ann, bea], seed=5)
    factories.play_random(match, random.Random(2), plies=plies)
    match.refresh_from_db()
    return match


def test_two_watchers_get_the_same_bytes_from_one_render(ann, bea, renders):
    match = _played(ann, bea)
    (_, cal), (_, dan) = _watcher("calw"), _watcher("danw")
    first = _poll(cal, match)
    assert _tables(renders) == 1
    second = _poll(dan, match)
    assert second == first and _tables(renders) == 1  # served, not rendered again
    assert b'id="spectator-note"' in first and _seated_for(first) is None
    assert b"csrfmiddlewaretoken" not in first
    # The version current, the poll is the 204 as ever.
    assert (
        cal.get(f"/matches/{match.pk}/table/", {"version": match.version}, headers=HTMX).status_code
        == 204
    )


def test_a_seats_table_is_never_served_to_a_watcher_nor_the_reverse(ann, bea, renders):
    match = _played(ann, bea)
    ann_client, bea_client = factories.client_for(ann), factories.client_for(bea)
    (_, cal) = _watcher("calw")
    seat_first = _poll(ann_client, match)
    assert _seated_for(seat_first) == b"0" and b'id="hand"' in seat_first
    watcher = _poll(cal, match)
    assert watcher != seat_first
    assert _seated_for(watcher) is None and b'id="hand"' not in watcher
    assert b'id="spectator-note"' in watcher
    # A watcher first, then each seat: each gets their own table, rendered for them.
    before = _tables(renders)
    for client, index in ((ann_client, 0), (bea_client, 1)):
        own = _poll(client, match)
        assert _seated_for(own) == str(index).encode() and b'id="hand"' in own
        assert b'id="spectator-note"' not in own
    assert _tables(renders) == before + 2
    # The seats' polls stored nothing: a watcher still gets the watchers' bytes.
    assert _poll(_watcher("danw")[1], match) == watcher


def test_a_seat_that_resigned_still_gets_its_own_table(ann, bea, cal):
    match = factories.match_make(players=[ann, bea, cal], seed=5)
    (_, dan) = _watcher("danw")
    match_resign(match_id=match.pk, user=cal)
    match.refresh_from_db()
    watcher = _poll(dan, match)
    own = _poll(factories.client_for(cal), match)
    assert _seated_for(own) == b"2" and b'id="hand"' in own and own != watcher
    assert _seated_for(_poll(dan, match)) is None


def test_a_new_version_a_phrase_and_the_rating_each_render_again(ann, bea, renders):
    match = _played(ann, bea)
    Match.objects.filter(pk=match.pk).update(phrases_watchers=True)
    match.refresh_from_db()
    (_, cal), (_, dan) = _watcher("calw"), _watcher("danw")
    first = _poll(cal, match)
    factories.play_random(match, random.Random(3), plies=match.ply + 1)  # a move: a new version
    match.refresh_from_db()
    moved = _poll(dan, match)
    assert moved != first and _tables(renders) == 2
    assert f'data-version="{match.version}"'.encode() in moved
    phrase_say(match_id=match.pk, user=ann, key="good_luck")  # a phrase: the shown mark
    said = _poll(cal, match)
    assert said != moved and b"Good luck" in said and _tables(renders) == 3
    assert _poll(dan, match) == said and _tables(renders) == 3


def test_the_phrase_filter_of_each_watcher_is_kept(ann, bea):
    match = _played(ann, bea)
    Match.objects.filter(pk=match.pk).update(phrases_watchers=True)
    phrase_say(match_id=match.pk, user=ann, key="good_luck")
    match.refresh_from_db()
    (_, cal), (muted, mute_client), (blocker, block_client) = (
        _watcher("calw"),
        _watcher("mutew"),
        _watcher("blockw"),
    )
    NotificationSettings.objects.create(user=muted, mute_phrases=True)
    block_add(blocker_id=blocker.pk, blocked_id=ann.pk)
    assert b"Good luck" in _poll(cal, match)
    assert b"Good luck" not in _poll(mute_client, match)
    assert b"Good luck" not in _poll(block_client, match)
    assert b"Good luck" in _poll(_watcher("danw")[1], match)


def test_two_watchers_in_two_zones_each_read_their_own(ann, bea, renders):
    match = factories.match_make(players=[ann, bea], seed=8)
    Match.objects.filter(pk=match.pk).update(deadline_at=DUE)
    match.refresh_from_db()
    (_, paris), (_, tokyo) = _watcher("parisw", "Europe/Paris"), _watcher("tokyow", "Asia/Tokyo")
    in_paris, in_tokyo = _poll(paris, match).decode(), _poll(tokyo, match).decode()
    assert "Friday 4 Jan, 18:00</time> (Europe/Paris), in " in in_paris
    assert "Saturday 5 Jan, 02:00</time> (Asia/Tokyo), in " in in_tokyo
    assert _tables(renders) == 2
    # A second reader in Paris shares the first one's render.
    assert _poll(_watcher("paris2", "Europe/Paris")[1], match).decode() == in_paris
    assert _tables(renders) == 2


def test_a_finished_match_shares_nothing_of_its_seats(ann, bea, renders):
    match = _played(ann, bea, plies=None)
    assert match.status == Match.Status.FINISHED
    seat = _poll(factories.client_for(ann), match)
    assert b'id="table-analysis"' in seat and b"csrfmiddlewaretoken" in seat  # the seat's own
    (_, cal), (_, dan) = _watcher("calw"), _watcher("danw")
    before = _tables(renders)
    watcher = _poll(cal, match)
    assert b'id="table-analysis"' not in watcher and b"csrfmiddlewaretoken" not in watcher
    assert b'id="rematch"' not in watcher and b'id="outcome"' in watcher
    assert _poll(dan, match) == watcher and _tables(renders) == before + 1
    # The rating arriving is another table (it changes no version).
    Match.objects.filter(pk=match.pk).update(rating_status="unrated", rating_note="Test.")
    match.refresh_from_db()
    assert b"Test." in _poll(dan, match) and _tables(renders) == before + 2


def test_a_forming_match_is_never_shared(ann, renders):
    match = factories.match_make(players=[ann], seats=2)
    (_, cal), (_, dan) = _watcher("calw"), _watcher("danw")
    one, two = _poll(cal, match), _poll(dan, match)
    # "Take a seat" carries each reader's own CSRF token.
    assert b"csrfmiddlewaretoken" in one and b"csrfmiddlewaretoken" in two
    assert _tables(renders) == 2


def test_a_private_matchs_members_are_never_shared(cal, renders):
    watched = factories.watched_match_make(cal, public=False)
    cal_client = factories.client_for(cal)
    _poll(cal_client, watched)
    _poll(cal_client, watched)
    assert _tables(renders) == 2  # the creator's table is theirs, rendered each time
    (_, dan) = _watcher("danw")
    response = dan.get(f"/matches/{watched.pk}/table/", {"version": -1}, headers=HTMX)
    assert response.status_code == 404


def test_a_creator_who_only_watches_a_public_match_is_not_shared(cal, renders):
    watched = factories.watched_match_make(cal, public=True)
    cal_client = factories.client_for(cal)
    _poll(cal_client, watched)
    _poll(cal_client, watched)
    assert _tables(renders) == 2


# --- Replay frames ----------------------------------------------------------------------------


def _frame(client, match: Match, ply: int, perspective: str | None = None, **extra) -> bytes:
    data = {"ply": ply} | ({"as": perspective} if perspective else {})
    response = client.get(f"/matches/{match.pk}/replay/", data, headers=HTMX, **extra)
    assert response.status_code == 200, response.status_code
    assert response["HX-Push-Url"].endswith(f"?ply={ply}&as={perspective or 'public'}")
    return response.content


def _frames(seen: list[str]) -> int:
    """How many replay frames were rendered: each has four step controls."""
    return seen.count("games/_replay_step.html") // 4


def test_watchers_share_a_replay_frame_and_never_a_seats(ann, bea, renders):
    match = _played(ann, bea, plies=6)
    ann_client = factories.client_for(ann)
    seat = _frame(ann_client, match, 3, "0")  # a seat's own eyes, while in play
    assert b'data-as="0"' in seat and _frames(renders) == 1
    (_, cal), (_, dan) = _watcher("calw"), _watcher("danw")
    watched = _frame(cal, match, 3)
    assert b'data-as="public"' in watched and b'data-as="0"' not in watched.split(b">")[0]
    assert b'id="hand"' not in watched and watched != seat
    assert _frame(dan, match, 3) == watched and _frames(renders) == 2
    # Another position, or the site reached by another address, is another frame.
    assert _frame(dan, match, 4) != watched and _frames(renders) == 3
    other_host = _frame(dan, match, 3, HTTP_HOST="localhost")
    assert b"http://localhost/" in other_host and _frames(renders) == 4
    # A seat asking again has its own frame rendered (nothing of the watchers' served).
    assert _frame(ann_client, match, 3, "0") == seat and _frames(renders) == 5
    refused = cal.get(f"/matches/{match.pk}/replay/", {"ply": 3, "as": "0"}, headers=HTMX)
    assert refused.status_code == 403


def test_a_cache_out_of_reach_costs_a_render_never_an_error(ann, bea, settings, renders):
    match = _played(ann, bea)
    (_, cal), (_, dan) = _watcher("calw"), _watcher("danw")
    shared = _poll(cal, match)
    settings.CACHES = {
        **settings.CACHES,
        WATCHER_CACHE: {  # a Redis nobody listens to (port 1): refused at once
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
        },
    }
    before = _tables(renders)
    assert _poll(dan, match) == shared and _poll(cal, match) == shared
    assert _tables(renders) == before + 2  # each rendered their own, as before the cache
    frame = dan.get(f"/matches/{match.pk}/replay/", {"ply": 2}, headers=HTMX)
    assert frame.status_code == 200 and b'data-as="public"' in frame.content

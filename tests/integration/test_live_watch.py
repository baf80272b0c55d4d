"""A watcher's stream carries the table itself (games/live/watch.py, docs/live.md, "Watchers get
the table on the stream"): the ``watch`` event is the partial the poll would serve that watcher,
a member's stream never carries one, a seat's view can never be in one, and where the fragment
is the reader's own (phrases shown to watchers) the stream tells numbers and the page fetches.
With Redis under uvicorn, and on the embedded default (runserver's WSGI server and uvicorn)."""

from __future__ import annotations

import pytest
from django.core.cache import caches

from accounts.models import TimeZoneSetting
from games.live.watch import watch_event_text
from games.models import Match
from games.services.phrases import phrase_say
from games.views.shared_table import WATCHER_CACHE
from tests import factories
from tests.integration.test_live_local import embedded  # noqa: F401 (a fixture, below)
from tests.integration.test_live_stream import (
    live,  # noqa: F401 (a fixture, below)
    open_stream,
    play_one,
)
from tests.integration.test_watcher_render_shared import _poll, _seated_for
from tests.stack.sse import Event, EventStream

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    caches[WATCHER_CACHE].clear()


@pytest.fixture
def on_redis(live: str) -> str:  # noqa: F811
    """uvicorn with Redis (test_live_stream's ``live``)."""
    return live


@pytest.fixture
def on_embedded(embedded: str) -> str:  # noqa: F811
    """The embedded default, under runserver's server and uvicorn (test_live_local's)."""
    return embedded


def next_table(stream: EventStream, timeout: float = 10.0) -> Event:
    """The next event about the table: ``watch`` (the table itself) or ``table`` (numbers)."""
    return stream.wait_for(lambda event: event.name in ("table", "watch"), timeout)


def _fragment_version(event: Event) -> int:
    head = event.data[event.data.index('<section id="table"') :]
    return int(head.split('data-version="', 1)[1].split('"', 1)[0])


def _game(*names: str) -> tuple[list, Match]:
    people = [factories.user_make(n) for n in names]
    match = factories.match_make(game="faraway", players=people[:2], seed=5)
    assert match.public and match.status == Match.Status.ACTIVE
    return people, match


@pytest.mark.services("redis")
def test_a_watcher_gets_the_table_the_poll_would_serve_without_asking(on_redis):
    (_, _, cal), match = _game("ann", "bea", "cal")
    stream = open_stream(on_redis, f"/live/?match={match.pk}", cal)
    # The state at connect is told in numbers: the page was just rendered at it.
    assert next_table(stream).name == "table"
    match = play_one(match)
    event = next_table(stream)
    assert event.name == "watch"
    assert event.id == f"{match.version}.{match.shown}"
    assert _fragment_version(event) == match.version
    polled = _poll(factories.client_for(cal), match)
    assert event.data == polled.decode()  # the poll's shared bytes, not a copy of its own
    assert _seated_for(polled) is None and b'id="hand"' not in polled
    # Each move brings the whole table again.
    match = play_one(match)
    assert _fragment_version(next_table(stream)) == match.version
    stream.close()


@pytest.mark.services("redis")
def test_a_members_stream_never_carries_the_table(on_redis):
    (ann, bea, cal), match = _game("ann", "bea", "cal")
    seats = [open_stream(on_redis, f"/live/?match={match.pk}", who) for who in (ann, bea)]
    watcher = open_stream(on_redis, f"/live/?match={match.pk}", cal)
    for stream in (*seats, watcher):
        next_table(stream)
    for _ in range(3):
        match = play_one(match)
        assert next_table(watcher).name == "watch"
        for stream in seats:
            told = next_table(stream)
            assert told.name == "table"
            assert told.json() == {"version": match.version, "phrases": match.shown}
    for stream in (*seats, watcher):
        stream.close()


@pytest.mark.services("redis")
def test_a_seats_view_never_reaches_a_watchers_stream(on_redis):
    """Each seat asks for their own table (their hand, ``data-seat``) before and after the
    watchers' render of each version: what the watchers' streams carry is the spectator's."""
    (ann, bea, cal, dan), match = _game("ann", "bea", "cal", "dan")
    seat_clients = [factories.client_for(who) for who in (ann, bea)]
    watchers = [open_stream(on_redis, f"/live/?match={match.pk}", who) for who in (cal, dan)]
    for stream in watchers:
        next_table(stream)
    for _ in range(4):
        for client in seat_clients:  # a seat's render first: stored nowhere
            assert b'id="hand"' in _poll(client, match)
        match = play_one(match)
        for client in seat_clients:
            own = _poll(client, match)
            assert _seated_for(own) is not None and b'id="hand"' in own
        carried = [next_table(stream) for stream in watchers]
        assert [event.name for event in carried] == ["watch", "watch"]
        assert carried[0].data == carried[1].data
        fragment = carried[0].data.encode()
        assert _seated_for(fragment) is None
        assert b'id="hand"' not in fragment and b"csrfmiddlewaretoken" not in fragment
        assert b'id="spectator-note"' in fragment
    for stream in watchers:
        stream.close()


@pytest.mark.services("redis")
def test_each_time_zone_gets_its_own_table(on_redis):
    (_, _, cal, dan), match = _game("ann", "bea", "cal", "dan")
    TimeZoneSetting.objects.update_or_create(user=dan, defaults={"zone": "Asia/Tokyo"})
    streams = {who: open_stream(on_redis, f"/live/?match={match.pk}", who) for who in (cal, dan)}
    for stream in streams.values():
        next_table(stream)
    match = play_one(match)
    for who, stream in streams.items():
        event = next_table(stream)
        assert event.name == "watch"
        assert event.data == _poll(factories.client_for(who), match).decode()
        stream.close()


@pytest.mark.services("redis")
def test_phrases_shown_to_watchers_are_told_in_numbers_and_the_page_fetches(on_redis):
    """A phrase filter is each reader's own (muted, blocks): such a match's watchers are told
    the numbers and fetch their partial, as before."""
    (ann, _, cal), match = _game("ann", "bea", "cal")
    Match.objects.filter(pk=match.pk).update(phrases_watchers=True)
    stream = open_stream(on_redis, f"/live/?match={match.pk}", cal)
    next_table(stream)
    match = play_one(match)
    assert next_table(stream).name == "watch"  # no phrase said yet: the same for everyone
    phrase_say(match_id=match.pk, user=ann, key="good_luck")
    match.refresh_from_db()
    told = next_table(stream)
    assert told.name == "table"
    assert told.json() == {"version": match.version, "phrases": match.shown}
    match = play_one(match)
    assert next_table(stream).name == "table"
    stream.close()


def test_the_embedded_default_carries_the_table_to_a_watcher(on_embedded):
    (ann, _, cal), match = _game("ann", "bea", "cal")
    watcher = open_stream(on_embedded, f"/live/?match={match.pk}", cal)
    seat = open_stream(on_embedded, f"/live/?match={match.pk}", ann)
    next_table(watcher)
    next_table(seat)
    match = play_one(match)
    event = next_table(watcher, timeout=5)
    assert event.name == "watch" and _fragment_version(event) == match.version
    assert event.data == _poll(factories.client_for(cal), match).decode()
    assert next_table(seat, timeout=5).name == "table"
    watcher.close()
    seat.close()


def test_every_line_of_the_fragment_is_a_data_line():
    text = watch_event_text("<p>a</p>\r\n<p>b</p>\r<p>c</p>\n", (7, 2))
    assert text == (
        "event: watch\nid: 7.2\ndata: <p>a</p>\ndata: <p>b</p>\ndata: <p>c</p>\ndata: \n\n"
    )

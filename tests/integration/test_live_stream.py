"""``/live/`` under a real ASGI server (uvicorn in a thread) with real Redis pub/sub: who gets a
stream, what it carries, catching up with ``Last-Event-ID``, and the events a move, a phrase and a
challenge send after their commits (docs/live.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client

from games.live import publish
from games.models import Match
from games.services import move_submit
from tests import factories
from tests.live.server import asgi_server
from tests.stack.sse import Event, EventStream

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services("redis")]


@pytest.fixture
def live(settings) -> Iterator[str]:
    settings.PARLOUR_LIVE = True
    settings.PARLOUR_LIVE_HEARTBEAT = 0.5
    publish.backoff_reset()
    with asgi_server() as url:
        yield url


def cookies_for(user) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return {name: client.cookies[name].value}


def open_stream(base: str, path: str, user=None, last_event_id: str | None = None) -> EventStream:
    cookies = cookies_for(user) if user is not None else None
    port = int(base.rsplit(":", 1)[1])
    return EventStream(port, path, cookies=cookies, last_event_id=last_event_id)


def next_named(stream: EventStream, name: str, timeout: float = 10.0) -> Event:
    return stream.wait_for(lambda event: event.name == name, timeout)


def play_one(match: Match) -> Match:
    match.refresh_from_db()
    seat_index = match.awaiting[0]
    move = factories.legal_moves(match, seat_index)[0]
    move_submit(
        match=match,
        seat=match.seats.get(index=seat_index),
        move=move,
        expected_version=match.version,
    )
    match.refresh_from_db()
    return match


def test_a_seat_hears_the_current_table_and_badge_then_each_move(live):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    stream = open_stream(live, f"/live/?match={match.pk}", ann)
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.headers["cache-control"] == "no-store"
    first = next_named(stream, "table")
    assert first.json() == {"version": match.version, "phrases": 0}
    assert first.id == f"{match.version}.0"
    badge = next_named(stream, "badge").json()
    assert set(badge) == {"count", "turns"}
    assert stream.retry == 2000

    match = play_one(match)
    moved = next_named(stream, "table")
    assert moved.json() == {"version": match.version, "phrases": 0}
    stream.close()


def test_the_stream_carries_numbers_only(live):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    stream = open_stream(live, f"/live/?match={match.pk}", bea)
    events = [stream.next_event(5), stream.next_event(5)]
    match = play_one(match)
    events.append(next_named(stream, "table"))
    for event in events:
        assert set(event.json()) <= {"version", "phrases", "count", "turns"}
        assert all(isinstance(v, int) for v in event.json().values())
    stream.close()


def test_last_event_id_of_the_current_table_sends_no_table_but_an_older_one_catches_up(live):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    current = f"{match.version}.0"
    stream = open_stream(live, f"/live/?match={match.pk}", ann, last_event_id=current)
    assert stream.next_event(5).name == "badge"  # no table: the page has it
    with pytest.raises(TimeoutError):
        next_named(stream, "table", timeout=1.5)
    stream.close()

    stale = current
    match = play_one(match)
    match = play_one(match)
    again = open_stream(live, f"/live/?match={match.pk}", ann, last_event_id=stale)
    caught = next_named(again, "table")
    assert caught.id == f"{match.version}.0" and caught.id != stale
    again.close()


def test_a_quiet_stream_sends_keep_alive_comments(live):
    ann = factories.user_make("ann")
    stream = open_stream(live, "/live/", ann)
    assert stream.next_event(5).name == "badge"
    with pytest.raises(TimeoutError):
        stream.next_event(1.8)
    assert len(stream.comments) >= 2
    stream.close()


@pytest.mark.parametrize("who", ["stranger", "signed_out"])
def test_a_private_match_gives_a_stranger_and_a_visitor_nothing(live, who):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    cal = factories.user_make("cal")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    match.public = False
    match.save(update_fields=["public"])
    stream = open_stream(live, f"/live/?match={match.pk}", cal if who == "stranger" else None)
    assert stream.status == (404 if who == "stranger" else 403)
    assert "event:" not in stream.body


@pytest.mark.parametrize("query", ["match=abc", "match=-1", "match=1e3", "match=" + "9" * 40])
def test_a_garbage_match_is_refused(live, query):
    ann = factories.user_make("ann")
    stream = open_stream(live, f"/live/?{query}", ann)
    assert stream.status == 400
    assert "event:" not in stream.body


def test_no_such_match_is_a_404(live):
    ann = factories.user_make("ann")
    stream = open_stream(live, "/live/?match=999999", ann)
    assert stream.status == 404


def test_a_watcher_of_a_public_match_hears_its_moves(live):
    ann, bea, cal = (factories.user_make(n) for n in ("ann", "bea", "cal"))
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    assert match.public
    stream = open_stream(live, f"/live/?match={match.pk}", cal)
    assert stream.status == 200
    next_named(stream, "table")
    match = play_one(match)
    # The table itself (a watcher's stream carries it: tests/integration/test_live_watch.py).
    assert next_named(stream, "watch").id == f"{match.version}.{match.shown}"
    stream.close()


def test_whose_turn_it_is_recounts_the_seats_badges(live):
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    awaited = match.seats.get(index=match.awaiting[0]).user
    stream = open_stream(live, "/live/", awaited)
    assert next_named(stream, "badge").json()["turns"] == 1
    while match.seats.get(index=match.awaiting[0]).user == awaited:
        match = play_one(match)
    assert next_named(stream, "badge").json()["turns"] == 0
    stream.close()


def test_a_challenge_reaches_the_challenged_badge(live, client):
    from games.services.invitations import match_challenge_create

    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    stream = open_stream(live, "/live/", bea)
    before = next_named(stream, "badge").json()["count"]
    match_challenge_create(created_by=ann, challenges={1: bea}, game="faraway", num_players=2)
    assert next_named(stream, "badge").json()["count"] == before + 1
    stream.close()


def test_a_phrase_raises_the_table_id_without_the_version(live):
    from games.services.phrases import phrase_say

    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    stream = open_stream(live, f"/live/?match={match.pk}", bea)
    next_named(stream, "table")
    phrase_say(match_id=match.pk, user=ann, key="good_luck")
    said = next_named(stream, "table")
    assert said.json() == {"version": match.version, "phrases": 1}
    assert said.id == f"{match.version}.1"
    stream.close()


def test_under_a_wsgi_server_the_stream_is_refused_at_once_and_the_page_polls(settings, client):
    """Django's test client is WSGI, as ``runserver`` is: an endless answer would be held back
    whole, so the stream answers 204 at once (an EventSource does not reconnect to a 204)."""
    settings.PARLOUR_LIVE = True
    ann = factories.user_make("ann")
    client.force_login(ann)
    answer = client.get("/live/")
    assert answer.status_code == 204 and answer.content == b""


def test_with_live_changes_off_the_page_has_no_stream_and_polls(settings, client):
    settings.PARLOUR_LIVE = False
    ann = factories.user_make("ann")
    client.force_login(ann)
    page = client.get("/matches/").content.decode()
    assert "data-live=" not in page
    assert "js/live.js" in page
    settings.PARLOUR_LIVE = True
    assert 'data-live="/live/"' in client.get("/matches/").content.decode()


@pytest.mark.services("postgres", "redis")
def test_open_streams_hold_no_database_connection(live):
    """Under ASGI a stream's request lasts as long as the stream; its reads must hand their
    connection back, or twenty streams empty a pool of ten (bench/live.py found it)."""
    from django.db import connection

    def sessions() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            )
            return cursor.fetchone()[0]

    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(game="faraway", players=[ann, bea], seed=5)
    before = sessions()
    streams = [open_stream(live, f"/live/?match={match.pk}", ann) for _ in range(6)]
    for stream in streams:
        next_named(stream, "badge")
    assert sessions() <= before + 1  # at most one read under way, none held
    for stream in streams:
        stream.close()


def test_open_streams_share_a_few_threads(live):
    """An idle stream holds no thread of its own (core/page_queue.py): a process's streams share
    ``STREAM_THREADS`` for their reads, where each used to keep one for its whole life."""
    import threading

    from core.page_queue import STREAM_THREADS

    people = [factories.user_make(f"p{i}") for i in range(12)]
    match = factories.match_make(game="faraway", players=people[:2], seed=5)
    warm = open_stream(live, f"/live/?match={match.pk}", people[0])
    next_named(warm, "badge")
    before = threading.active_count()
    streams = [open_stream(live, f"/live/?match={match.pk}", who) for who in people[1:]]
    for stream in streams:
        next_named(stream, "badge")
    assert threading.active_count() - before <= STREAM_THREADS
    for stream in (warm, *streams):
        stream.close()


def test_a_leagues_news_reaches_the_badge_of_an_open_page(live):
    """League and cup notices are written by entries and sweeps, not by a move: their badge
    recount is published by the notices' own write (``competitions.league_notices``)."""
    from competitions.league_notices import league_tell
    from competitions.models import EventNotice
    from tests.integration.league_helpers import league_make

    bea = factories.user_make("bea")
    league = league_make()
    stream = open_stream(live, "/live/", bea)
    before = next_named(stream, "badge").json()["count"]
    league_tell(event_id=league.pk, user_ids=[bea.pk], kind=EventNotice.Kind.ENTERED)
    assert next_named(stream, "badge").json()["count"] == before + 1
    stream.close()


def test_a_ladder_climb_reaches_the_badge_of_a_person_it_moved(live):
    """cal sits at no table of the climb (eve beat bea) but moved down one: told live."""
    from competitions.services.ladder import ladder_challenge, ladder_join
    from games.models import Invitation
    from games.services import match_resign
    from games.services.invitations import invitation_accept

    bea, cal, eve = (factories.user_make(name) for name in ("bea", "cal", "eve"))
    for person in (bea, cal, eve):
        ladder_join(game="faraway", user=person)
    challenge = ladder_challenge(game="faraway", challenger=eve, target_name="bea")
    invitation = Invitation.objects.get(match_id=challenge.match_id, user=bea)
    invitation_accept(invitation_id=invitation.pk, user=bea)
    stream = open_stream(live, "/live/", cal)
    before = next_named(stream, "badge").json()["count"]
    match_resign(match_id=challenge.match_id, user=bea)
    assert next_named(stream, "badge").json()["count"] == before + 1
    stream.close()

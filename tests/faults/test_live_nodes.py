"""Two web nodes behind nginx, for real: one PostgreSQL cluster, one Redis, two nodes on two
loopback addresses (127.0.0.2 and 127.0.0.3), each as deploy/nginx/Procfile runs it (pages on
sync gunicorn, the live streams on gunicorn with uvicorn workers), one Celery worker, and nginx
running the repository's deploy/nginx/parlour.conf over HTTPS in front of them.

- Pages and moves are answered by the nodes' sync servers, streams by their stream servers.
- A move posted through one node reaches a watcher whose stream another node serves (Redis
  pub/sub carries it across). Which server answered is nginx's ``X-Parlour-Node`` header.
- The streaming node is SIGKILLed (both its servers): the stream ends, moves go on through the
  other node, and the watcher reconnects through nginx with ``Last-Event-ID``: the other node
  announces the newest version at once, and the poll the page then sends returns that table.
- Redis is stopped: open streams end and new ones are refused with a 503, so pages poll; moves
  are answered within the slowest normal move + 0.5 s (measured in this test), and polls
  answer. Redis is started again: streams connect and carry moves again.

No timing is asserted but the outage bound; how long each step took is printed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from http.client import HTTPMessage

from games.models import Match
from tests import factories
from tests.faults.conftest import person, visitor_for
from tests.faults.play import MARGIN, play_awaited, timed_moves
from tests.integration.test_watcher_render_shared import _seated_for
from tests.polling import wait_for
from tests.stack.http import Browser, page_state
from tests.stack.processes import Nginx, Node, Stack
from tests.stack.sse import Event, EventStream

MOVES = 4
# Seconds to wait for what must happen "at once" (an event, a stream's end): generous, since
# four sessions share two cores; the printed figures say how long it really took.
AT_ONCE = 15


def answered_by(headers: HTTPMessage | dict[str, str]) -> str:
    """The server that answered, ``host:port`` (``X-Parlour-Node``'s last entry: nginx lists a
    failed server first when it retried on the next). An answer's headers, or a stream's (names
    in lower case)."""
    return (headers.get("x-parlour-node") or "").split(",")[-1].strip()


def served_by(headers: HTTPMessage | dict[str, str]) -> str:
    """The node that answered: the host of ``answered_by``."""
    return answered_by(headers).rpartition(":")[0]


def watch(
    nginx: Nginx, browser: Browser, match: Match, last_event_id: str | None = None
) -> EventStream:
    """The table page's stream, through nginx, as the browser's EventSource opens it."""
    return EventStream(
        nginx.port,
        f"/live/?match={match.pk}",
        cookies=browser.cookies,
        last_event_id=last_event_id,
        tls=nginx.tls,
    )


def told_version(event: Event) -> int | None:
    """The version a ``table`` event tells, or a ``watch`` event's table is at (a watcher's
    stream carries the table itself: docs/live.md); ``None`` for any other event."""
    if event.name == "table":
        return event.json()["version"]
    if event.name == "watch":
        return int(event.data.split('data-version="', 1)[1].split('"', 1)[0])
    return None


def is_table(version: int) -> Callable[[Event], bool]:
    def check(event: Event) -> bool:
        told = told_version(event)
        return told is not None and told >= version

    return check


def announced(stream: EventStream, match: Match) -> float:
    """Wait for the table event of the match's current version; check its id and data; the
    seconds waited (0 when it was there before the move's answer was read)."""
    match.refresh_from_db()
    started = time.monotonic()
    try:
        event = stream.wait_for(is_table(match.version), timeout=AT_ONCE)
    except TimeoutError:
        raise AssertionError(f"version {match.version} not announced in {AT_ONCE} s") from None
    assert told_version(event) == match.version, (event, match.version)
    assert event.id == f"{match.version}.{match.shown}"
    if event.name == "watch":  # the watchers' table: never a seat's
        assert _seated_for(event.data.encode()) is None, event.data[:300]
    else:
        assert set(event.json()) == {"version", "phrases"}  # a version, never a card or a name
    return time.monotonic() - started


def until_ended(stream: EventStream) -> None:
    """Read what is left of the stream until the server's side ends it."""
    deadline = time.monotonic() + AT_ONCE
    while stream.next_event(timeout=max(deadline - time.monotonic(), 0.001)) is not None:
        pass


def two_nodes(stack: Stack) -> tuple[Node, Node, Nginx]:
    nodes = [stack.node(host) for host in ("127.0.0.2", "127.0.0.3")]
    stack.worker()
    return nodes[0], nodes[1], stack.proxy(nodes)


def test_two_nodes_behind_nginx_a_node_killed_and_redis_stopped(stack, nginx_binary):
    node_a, node_b, nginx = two_nodes(stack)
    nodes = {node.host: node for node in (node_a, node_b)}
    page_servers = {node.web.address for node in nodes.values()}
    stream_servers = {node.live.address for node in nodes.values()}
    match = factories.match_make(game="faraway", players=[person("ann"), person("bea")], seed=3)
    players = {seat.index: visitor_for(stack, seat.user, nginx) for seat in match.seats.all()}
    watcher = visitor_for(stack, person("cal"), nginx)  # a spectator of the public match
    table = watcher.table(match.pk)
    assert table.status == 200 and answered_by(table.headers) in page_servers, table.headers

    # 1. A move through one node reaches the watcher streaming from the other.
    stream = watch(nginx, watcher, match)
    assert stream.status == 200, stream.body
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert answered_by(stream.headers) in stream_servers, stream.headers
    streaming = served_by(stream.headers)
    announced(stream, match)  # the current version, sent on connect
    crossed = []
    for _ in range(MOVES):  # nginx takes turns between the nodes: one of the first moves crosses
        answer = play_awaited(match, players)
        assert answered_by(answer.headers) in page_servers, answer.headers
        seconds = announced(stream, match)
        if served_by(answer.headers) != streaming:
            crossed.append(seconds)
            break
    assert crossed, f"no move went through the node that does not serve the stream ({streaming})"
    print(f"a move via the other node announced {crossed[0]:.3f} s after its answer")

    # 2. The streaming node killed (the machine gone: both its servers): the stream ends, moves
    # go on, the watcher catches up.
    killed = nodes.pop(streaming)
    survivor = next(iter(nodes))
    seen = stream.last_event_id
    killed.kill()
    until_ended(stream)
    away = [play_awaited(match, players) for _ in range(2)]  # while the watcher is away
    assert {served_by(answer.headers) for answer in away} == {survivor}
    match.refresh_from_db()
    back = watch(nginx, watcher, match, last_event_id=seen)
    assert back.status == 200, back.body
    assert served_by(back.headers) == survivor
    announced(back, match)  # the newest version at once: the page fetches it
    seen_version = int(seen.split(".")[0])
    caught_up = watcher.poll(match.pk, seen_version)
    assert caught_up.status == 200 and page_state(caught_up.body)[0] == match.version
    assert watcher.poll(match.pk, match.version).status == 204

    # 3. Redis stopped: streams end and are refused, pages poll, moves keep their bound.
    timed_moves(match, players, 2)  # warm-up on the survivor alone
    announced(back, match)
    normal = timed_moves(match, players, MOVES)
    announced(back, match)
    stack.redis.stop()
    try:
        until_ended(back)
        refused = watch(nginx, watcher, match)
        assert refused.status == 503, (refused.status, refused.body)
        polled_from = match.version
        down = timed_moves(match, players, MOVES)
        match.refresh_from_db()
        fallback = watcher.poll(match.pk, polled_from)
        assert fallback.status == 200 and page_state(fallback.body)[0] == match.version
    finally:
        stack.redis.start()
    print(f"normal moves {normal}; while Redis was down {down}")
    assert max(down) <= max(normal) + MARGIN, (down, normal)

    # 4. Redis back: a stream connects again (the node's subscription reconnects) and carries
    # the next move.
    streams: list[EventStream] = []

    def connects() -> bool:
        attempt = watch(nginx, watcher, match)
        streams.append(attempt)
        return attempt.status == 200

    resumed = wait_for(connects, "a stream to connect once Redis is back", timeout=60)
    again = streams[-1]
    announced(again, match)
    play_awaited(match, players)
    carried = announced(again, match)
    print(f"streams back {resumed:.1f} s after Redis; next move announced after {carried:.3f} s")
    for attempt in streams:
        attempt.close()

    assert nginx.process.running and nodes[survivor].running
    factories.assert_replays(match)

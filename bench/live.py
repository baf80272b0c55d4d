"""Issue 23's benchmark: pushed tables (server-sent events under ASGI) against today's polling,
side by side in one run on one machine.

    .venv/bin/python bench/live.py            # about 12 minutes here; --quick: a smoke run

What it measures: bench/README.md; its figures: docs/performance.md ("Live tables"). Figures
and ratios only, set beside the issue's goals: nothing here is a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script

from bench import web
from bench.report import create_users, distribution, p50, percentile, ratio, stack_running
from bench.servers import LABELS, Served, serve
from bench.streams import VERSION_RE, Event, Reply, Stream, http_request, open_all
from tests.stack.http import Browser, offered_moves, page_state
from tests.stack.machine import CLOCK_TICKS, load_line, process_cpu

WORKERS = 2  # the Procfile's
POLL_EVERY_S = 2.0  # the table's hx-trigger
TABLES = 100  # public matches the streams and polls are spread over
RAMP_P99_LIMIT_MS = 1000.0
# An exception's last line in a server's log ("psycopg.OperationalError: ...").
EXCEPTION_RE = re.compile(r"^[\w.]+(Error|Exception): .*$", re.MULTILINE)
GOALS = {
    "streams": ">= 10,000 at <= 5% of one core and <= 100 kB a stream",
    "watchers": "p50 <= 300 ms, p99 <= 1 s",  # issue 35: every watcher's screen
    "push": "p50 <= 50 ms, p99 <= 250 ms",
    "poll-push": "report",
    "move": "<= 3x (today 3.08-3.19x), 8 statements",
    "poll": "<= 1.2x",
}


COMPARED = ("sync", "asgi", "asgi-nopool")  # bench/servers.py's kinds this runs at once


# --- What the processes use ---------------------------------------------------------------------


def group_status(pids: Sequence[int], field: str) -> int:
    """A number of ``/proc/<pid>/status`` summed over ``pids`` ("VmRSS" in kB, "Threads")."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(f"{field}:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def group_cpu(pids: Sequence[int]) -> float:
    """CPU seconds ``pids`` used so far, with what the first one's exited children used (a
    PostgreSQL backend gone, counted by the postmaster that waited for it)."""
    if not pids:
        return 0.0
    try:
        fields = Path(f"/proc/{pids[0]}/stat").read_text().rsplit(")", 1)[1].split()
        gone = (int(fields[13]) + int(fields[14])) / CLOCK_TICKS  # cutime + cstime
    except (OSError, IndexError, ValueError):
        gone = 0.0
    return gone + sum(process_cpu(pid) for pid in pids)


def raise_open_files() -> int:
    """The soft limit on open files raised to the hard one, for this process and the servers
    it starts (children inherit it); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# --- What the clients are -----------------------------------------------------------------------


def signed_in_sessions(users: Sequence[Any]) -> list[str]:
    """A signed-in session for each of ``users``, written straight to the session table (as
    ``login`` would write it): the session cookies' values."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    store = SessionStore()
    expires = timezone.now() + timezone.timedelta(days=1)
    rows = [
        Session(
            session_key=get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789"),
            session_data=store.encode(
                {
                    SESSION_KEY: str(user.pk),
                    BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                    HASH_SESSION_KEY: user.get_session_auth_hash(),
                }
            ),
            expire_date=expires,
        )
        for user in users
    ]
    Session.objects.bulk_create(rows, batch_size=1000)
    return [row.session_key for row in rows]


def session_cookie(key: str) -> str:
    from django.conf import settings

    return f"{settings.SESSION_COOKIE_NAME}={key}"


def public_tables(users: Sequence[Any], count: int) -> list[Any]:
    """``count`` public Faraway matches, running, between pairs of ``users``."""
    from games.services import match_create, match_join

    matches = []
    for i in range(count):
        first, second = users[2 * i], users[2 * i + 1]
        match = match_create(game="faraway", num_players=2, created_by=first, public=True)
        match_join(match=match, user=second)
        match.refresh_from_db()
        matches.append(match)
    return matches


@dataclass
class Client:
    """One open table in a browser: its session cookie (``name=value``), the match and the
    version it shows, when it came to hold each version (perf_counter), and when it first heard
    of it (streams only)."""

    cookie: str
    pk: int
    shown: int
    seat: bool = False
    moving: bool = False  # its own move is in flight: the POST's answer brings the table
    fetching: bool = False
    announced: int = 0
    held_at: dict[int, float] = field(default_factory=dict)
    heard_at: dict[int, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def headers(self, port: int) -> dict[str, str]:
        return {
            "Cookie": self.cookie,
            "HX-Request": "true",
            "HX-Current-URL": f"http://127.0.0.1:{port}/matches/{self.pk}/",
            "HX-Target": "table",
        }

    def poll_path(self) -> str:
        return f"/matches/{self.pk}/table/?version={self.shown}"

    def holds(self, reply: Reply) -> None:
        version = reply.version()
        if reply.status != 200 or version is None:
            self.errors.append(f"table partial answered {reply.status}")
            return
        for v in range(self.shown + 1, version + 1):
            self.held_at.setdefault(v, reply.done)
        self.shown = max(self.shown, version)


async def fetch_table(client: Client, port: int) -> None:
    """What the page does on a ``table`` event newer than it shows: the poll's URL, once at a
    time, again while a newer version was announced meanwhile."""
    if client.fetching:
        return
    client.fetching = True
    try:
        while client.announced > client.shown and not client.moving:
            try:
                client.holds(await http_request(port, client.poll_path(), client.headers(port)))
            except OSError as exc:  # TimeoutError among them
                client.errors.append(f"fetch: {type(exc).__name__}")
                return
    finally:
        client.fetching = False


def table_listener(client: Client, page_port: int) -> Any:
    def on_event(stream: Stream, event: Event) -> None:
        if event.name == "watch":  # a watcher's stream carries the table: held on arrival
            found = VERSION_RE.search(event.data.encode())
            if found is None:
                client.errors.append("watch event without a table")
                return
            version = int(found.group(1))
            for v in range(client.shown + 1, version + 1):
                client.heard_at.setdefault(v, event.at)
                client.held_at.setdefault(v, event.at)
            client.shown = client.announced = max(client.shown, version)
            return
        if event.name != "table":
            return
        version = json.loads(event.data)["version"]
        for v in range(client.shown + 1, version + 1):
            client.heard_at.setdefault(v, event.at)
        client.announced = max(client.announced, version)
        if version > client.shown and not client.moving:
            asyncio.get_running_loop().create_task(fetch_table(client, page_port))

    return on_event


# --- 4. Requests under each server (bench/web.py's method) -------------------------------------


def requests_side_by_side(
    servers: dict[str, Served], args: argparse.Namespace
) -> dict[str, dict[str, float]]:
    """bench/web.py's trivial page, 204 poll, re-rendered poll and move POSTs, interleaved
    round by round between the servers (each round starting with the next server), each
    server on copies of its own; statements counted once in process (the same code)."""
    users, password = create_users(2, f"req-{secrets.token_hex(3)}")
    per_server = args.warmup + args.requests
    plan = argparse.Namespace(
        warmup=0,
        requests=per_server * len(servers),  # the copies' blocks, then the counted ones
        query_repeats=args.query_repeats,
        faraway_plies=[5, 150],
        gulliver_plies=[5],
        gulliver_target=1000,
        seed=1,
    )
    prepared = web.prepare_all(plan, users)
    poll_match = max(prepared, key=lambda p: p.ply).original
    render_match = max((p for p in prepared if p.game == "faraway"), key=lambda p: p.ply).original
    kinds, browsers = {}, {}
    for kind in servers:
        kinds[kind] = web.build_kinds(prepared, poll_match, render_match)
        kinds[kind] = [k for k in kinds[kind] if not k.key.startswith("replay")]
        browsers[kind] = [Browser(servers[kind].port, timeout=30.0) for _ in users]
        for browser, user in zip(browsers[kind], users, strict=True):
            browser.sign_in(user.username, password)
    names = list(servers)
    for block, kind in enumerate(names):  # each server posts on a block of copies of its own
        for k in kinds[kind]:
            k.request = offset_by(k.request, block * per_server)
    for r in range(per_server):
        shift = r % len(names)
        for kind in names[shift:] + names[:shift]:
            web.run_rounds(browsers[kind], kinds[kind], range(r, r + 1), record=r >= args.warmup)
    opened = {}
    for kind in names:
        before = sessions_opened()
        for _ in range(50):
            browsers[kind][0].request("GET", "/bench/trivial/")
        time.sleep(1.5)  # a backend reports its statistics within a second
        opened[kind] = sessions_opened() - before
    # Statements in process (the same code whatever serves it), on the copies after the blocks.
    first = kinds[names[0]]
    after = len(names) * per_server  # the first server's block starts at 0: no offset
    web.count_queries(first, users, browsers[names[0]], after, args.query_repeats)
    for kind in names[1:]:
        for k, twin in zip(kinds[kind], first, strict=True):
            k.queries, k.control = twin.queries, twin.control
    print(
        f"\n4. Requests, bench/web.py's method: {args.requests} timed requests of each kind a"
        f" server after {args.warmup} warm-up rounds, the servers interleaved round by round;"
        " every move POST on a copy of its own"
    )
    print("\n  PostgreSQL sessions opened by 50 trivial pages in a row (pg_stat_database):")
    print("\n".join(f"    {servers[kind].label}: {n}" for kind, n in opened.items()))
    ratios: dict[str, dict[str, float]] = {}
    for kind, served in servers.items():
        print(f"\n  {served.label}:")
        print("\n".join(f"  {line}" for line in web.figures(kinds[kind])))
        for k in kinds[kind]:
            if k.errors:
                print(f"    ERRORS {k.label}: {len(k.errors)}, first: {k.errors[:3]}")
        by_key = {k.key: k for k in kinds[kind]}
        trivial = p50(by_key["trivial"].samples)
        early = min(
            (k for k in kinds[kind] if k.key.startswith("move-faraway-")),
            key=lambda k: int(k.key.rsplit("-", 1)[1]),
        )
        ratios[kind] = {
            "trivial": trivial,
            "poll": ratio(p50(by_key["poll-204"].samples), trivial),
            "move": ratio(p50(early.samples), trivial),
            "statements": max(early.queries),
        }
    return ratios


def sessions_opened() -> int:
    """PostgreSQL's count of sessions established in this database so far (a new connection
    per request shows here, one kept open does not)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def offset_by(request: Any, offset: int) -> Any:
    return lambda i: request(i + offset)


# --- 2. How many polling tables one box holds ---------------------------------------------------


@dataclass
class Step:
    """One step of the ramp: its polls answered 204 (ms), the others by status, the polls
    skipped, and the CPU seconds of the client, the server and PostgreSQL over ``seconds``."""

    tables: int
    samples: list[float]
    dropped: int
    errors: Counter
    seconds: float
    cpu: dict[str, float]
    postgres: int

    def work_ms(self) -> float:
        """CPU milliseconds of the server and PostgreSQL for each answer."""
        answered = len(self.samples) + sum(self.errors.values())
        return 1000 * (self.cpu["server"] + self.cpu["PostgreSQL"]) / max(1, answered)

    def line(self) -> str:
        p99 = percentile(self.samples, 0.99) if self.samples else float("nan")
        p50 = percentile(self.samples, 0.5) if self.samples else float("nan")
        work = self.work_ms()
        shares = ", ".join(f"{k} {100 * v / self.seconds:.0f}%" for k, v in self.cpu.items())
        return (
            f"  {self.tables:>5} tables {len(self.samples) / self.seconds:>4.0f} polls/s"
            f" p50 {p50:>6.1f} ms p99 {p99:>6.1f} ms; skipped {self.dropped};"
            f" other answers {dict(self.errors) or 0}; CPU {shares}; server + PostgreSQL"
            f" {work:.1f} ms a poll; {self.postgres} PostgreSQL processes"
        )


async def poll_ramp(
    served: Served,
    clients: list[Client],
    steps: Sequence[int],
    step_s: float,
    postgres: Callable[[], list[int]],
) -> list[Step]:
    """Tables added step by step, each polling every 2 s as the page does (a poll due while
    one is in flight is skipped, as htmx drops it); each step timed after a settling second,
    until the p99 passes 1 s or a poll is answered otherwise than 204."""
    port = served.port
    sent: list[tuple[float, float, int]] = []  # (sent at, ms, status)
    dropped: list[float] = []
    running: list[asyncio.Task] = []

    async def table(client: Client) -> None:
        due = time.perf_counter() + random.uniform(0, POLL_EVERY_S)
        while True:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            started = time.perf_counter()
            try:
                reply = await http_request(port, client.poll_path(), client.headers(port))
                sent.append((started, reply.ms, reply.status))
            except OSError:  # TimeoutError among them
                sent.append((started, (time.perf_counter() - started) * 1000, 0))
            due += POLL_EVERY_S
            while due < time.perf_counter():
                due += POLL_EVERY_S
                dropped.append(due)

    def cpu_now() -> dict[str, float]:
        return {
            "client": time.process_time(),
            "server": group_cpu(served.process.pids()),
            "PostgreSQL": group_cpu(postgres()),
        }

    results = []
    try:
        for count in steps:
            if count > len(clients):
                break
            running += [asyncio.create_task(table(c)) for c in clients[len(running) : count]]
            await asyncio.sleep(1.0)
            begin, cpu = time.perf_counter(), cpu_now()
            await asyncio.sleep(step_s - 1.0)
            end, used = time.perf_counter(), cpu_now()
            window = [s for s in sent if begin <= s[0] < end]
            samples = [ms for _, ms, status in window if status == 204]
            step = Step(
                count,
                samples,
                sum(begin <= d < end for d in dropped),
                Counter(status for _, _, status in window if status != 204),
                end - begin,
                {k: used[k] - cpu[k] for k in cpu},
                len(postgres()),
            )
            print(step.line(), flush=True)
            results.append(step)
            if not samples or percentile(samples, 0.99) > RAMP_P99_LIMIT_MS or step.errors:
                break
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
    return results


def log_errors(served: Served) -> str:
    """The exceptions the server logged so far: how many, and the commonest."""
    found = Counter(m.group(0)[:120] for m in EXCEPTION_RE.finditer(served.process.output()))
    if not found:
        return "the server logged no exception"
    top = "; ".join(f"{n}x {text}" for text, n in found.most_common(2))
    return f"the server logged {sum(found.values())} exceptions: {top}"


def ramp_verdict(steps: list[Step]) -> str:
    def held(step: Step) -> bool:
        fast = bool(step.samples) and percentile(step.samples, 0.99) <= RAMP_P99_LIMIT_MS
        return fast and not step.errors

    over = [s.tables for s in steps if not held(s)]
    work = statistics.median(s.work_ms() for s in steps)
    cores = os.cpu_count() or 1
    estimate = (
        f" (at {work:.1f} ms of server and PostgreSQL CPU a poll, the median step's, {cores}"
        f" cores to themselves would answer about {1000 * cores / work:.0f} polls/s:"
        f" {POLL_EVERY_S * 1000 * cores / work:.0f} tables)"
    )
    if not over:
        return f"p99 under 1 s at every step, up to {steps[-1].tables} tables{estimate}"
    most = max((s.tables for s in steps if held(s)), default=0)
    return (
        f"{most} tables held (p99 <= 1 s, every poll 204); at {over[0]} the p99 passed 1 s or"
        f" polls failed{estimate}"
    )


# --- 3. From a move to the screens watching it --------------------------------------------------


@dataclass
class Watched:
    """One way of watching, its moves' answers (version, mover's seat, perf_counter)."""

    title: str
    answers: list[tuple[int, int, float]] = field(default_factory=list)
    held: list[float] = field(default_factory=list)
    heard: list[float] = field(default_factory=list)
    other_seat: list[float] = field(default_factory=list)
    missing: int = 0
    errors: int = 0
    failed: str = ""


async def watch_moves(
    title: str,
    stage: Any,
    players: list[Browser],
    clients: list[Client],
    *,
    stream_port: int | None,
    page_port: int,
    moves: int,
) -> Watched:
    """``clients`` watch the match ``stage`` (the first two are its seats, ``players`` their
    browsers) by streams on ``stream_port`` (fetching the partial from ``page_port`` on each
    newer version), or with ``stream_port`` None by polling ``page_port`` every 2 s. The seats
    play ``moves`` moves, one at a time, each once every client holds the last (or after 20 s)."""
    watched = Watched(title)
    streams: list[Stream] = []
    polls: list[asyncio.Task] = []
    try:
        version = await asyncio.to_thread(stage_version, players[0], stage.pk)
    except Unplayable as exc:
        watched.failed = str(exc)
        return watched
    for client in clients:
        client.shown = client.announced = version
        client.held_at.clear()
        client.heard_at.clear()
    if stream_port is not None:
        for client in clients:
            headers = {"Cookie": client.headers(page_port)["Cookie"]}
            listener = table_listener(client, page_port)
            streams.append(Stream(stream_port, f"/live/?match={stage.pk}", headers, listener))
        opened = await open_all(streams, in_flight=64)
        refused = [s for s in streams if s.status != 200]
        print(
            f"  {title}: {len(streams) - len(refused)} streams opened in {opened:.1f} s"
            f"{refusals(refused)}"
        )
    else:
        polls = [asyncio.create_task(poll_table(c, page_port)) for c in clients]
        await asyncio.sleep(POLL_EVERY_S + 0.5)
    try:
        await play_moves(watched, players, clients, stage.pk, moves)
    except Unplayable as exc:
        watched.failed = str(exc)
    finally:
        for stream in streams:
            stream.close()
        for task in polls:
            task.cancel()
        await asyncio.gather(*polls, return_exceptions=True)
    watched.errors = sum(len(c.errors) for c in clients)
    for client in clients:
        client.errors.clear()
    return watched


async def play_moves(
    watched: Watched, players: list[Browser], clients: list[Client], pk: int, moves: int
) -> None:
    """The seats' moves, one at a time, each once every client holds the last (or after 20 s),
    and how long each client took to hold each."""
    for _ in range(moves):
        mover = await asyncio.to_thread(awaited_seat, players, pk)
        clients[mover].moving = True
        new_version, answered = await asyncio.to_thread(play_one, players[mover], pk)
        clients[mover].shown = clients[mover].announced = new_version
        clients[mover].moving = False
        watched.answers.append((new_version, mover, answered))
        deadline = time.perf_counter() + 20.0
        while time.perf_counter() < deadline:
            if all(c.shown >= new_version for c in clients):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        for i, client in enumerate(clients):
            if i == mover:
                continue
            held = client.held_at.get(new_version)
            if held is None:
                watched.missing += 1
                continue
            watched.held.append((held - answered) * 1000)
            if i < 2:
                watched.other_seat.append((held - answered) * 1000)
            if new_version in client.heard_at:
                watched.heard.append((client.heard_at[new_version] - answered) * 1000)


async def poll_table(client: Client, port: int) -> None:
    due = time.perf_counter() + random.uniform(0, POLL_EVERY_S)
    while True:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if not client.moving:
            try:
                reply = await http_request(port, client.poll_path(), client.headers(port))
                if reply.status != 204:
                    client.holds(reply)
            except OSError as exc:  # TimeoutError among them
                client.errors.append(f"poll: {type(exc).__name__}")
        due += POLL_EVERY_S
        while due < time.perf_counter():
            due += POLL_EVERY_S


class Unplayable(Exception):
    """The watched match's page or move did not answer as it should."""


def stage_version(browser: Browser, pk: int) -> int:
    found = page_state(browser.table(pk).body)
    if found is None:
        raise Unplayable("the watched table shows no version")
    return found[0]


def awaited_seat(players: list[Browser], pk: int) -> int:
    """The seat (0 or 1) whose table page offers moves."""
    for seat, browser in enumerate(players):
        if offered_moves(browser.table(pk).body):
            return seat
    raise Unplayable("neither seat of the watched match is offered a move")


def play_one(browser: Browser, pk: int) -> tuple[int, float]:
    """One offered move posted as htmx posts it: the new version and when its answer was
    read (perf_counter)."""
    page = browser.table(pk).body
    version = page_state(page)[0]
    moves = offered_moves(page)
    preferred = [m for m in moves if m.get("type") in ("play", "penalty")]
    answer = browser.move(pk, random.choice(preferred or moves), version)
    answered = time.perf_counter()
    found = page_state(answer.body)
    if answer.status != 200 or found is None:
        raise Unplayable(f"a move on the watched match answered {answer.status}")
    return found[0], answered


def watched_lines(watched: Watched) -> list[str]:
    held, seat, heard = (distribution(v) for v in (watched.held, watched.other_seat, watched.heard))
    lines = [
        f"  {watched.title}: {len(watched.answers)} moves",
        f"    move POST answered -> each other client holds the new partial: {held}",
        f"    of them the other seat: {seat}",
    ]
    if watched.heard:
        lines.append(f"    move POST answered -> the table event received: {heard}")
    lines.append(f"    not held within 20 s: {watched.missing}; request errors: {watched.errors}")
    if watched.failed:
        lines.append(f"    STOPPED: {watched.failed}")
    return lines


# --- 1. Idle streams ----------------------------------------------------------------------------


async def idle_streams(
    served: Served, clients: list[Client], hold_s: float
) -> dict[str, float | int]:
    """One stream per client on ``served``, held idle ``hold_s`` seconds: the server's CPU over
    the hold and its memory with the streams against without."""
    pids = served.process.pids()
    await asyncio.sleep(1.0)
    rss_none, threads_none = group_status(pids, "VmRSS"), group_status(pids, "Threads")
    streams = [
        Stream(served.port, f"/live/?match={c.pk}", {"Cookie": c.headers(served.port)["Cookie"]})
        for c in clients
    ]
    opened_s = await open_all(streams, in_flight=64)
    refused = [s for s in streams if s.status != 200]
    await asyncio.sleep(3.0)
    rss_open, threads_open = group_status(pids, "VmRSS"), group_status(pids, "Threads")
    cpu, client_cpu, started = group_cpu(pids), time.process_time(), time.perf_counter()
    comments = sum(s.comments for s in streams)
    await asyncio.sleep(hold_s)
    wall = time.perf_counter() - started
    used, client_used = group_cpu(pids) - cpu, time.process_time() - client_cpu
    beats = sum(s.comments for s in streams) - comments
    still = sum(not s.closed for s in streams)
    connect = sorted(s.opened_ms for s in streams if s.status == 200)
    for stream in streams:
        stream.close()
    held = len(streams) - len(refused)
    figures = {
        "streams": held,
        "still": still,
        "cpu": 100 * used / wall,
        "client_cpu": 100 * client_used / wall,
        "per_stream_kb": (rss_open - rss_none) / max(1, held),
    }
    print(
        f"\n1. Idle streams on {served.label}, {WORKERS} workers: {len(streams)} opened"
        f" ({held} answered 200 in {opened_s:.1f} s, at most 64 connects at once;"
        f" connect to head p50 {percentile(connect, 0.5) if connect else float('nan'):.0f} ms,"
        f" p99 {percentile(connect, 0.99) if connect else float('nan'):.0f} ms)"
        f"{refusals(refused)}"
    )
    print(
        f"  held idle {wall:.0f} s: {still} still open at the end, {beats} keep-alive comments"
        f" received ({beats / max(1, held):.1f} a stream)"
    )
    print(
        f"  server CPU (utime+stime of the {len(pids)} processes) {figures['cpu']:.2f}% of one"
        f" core; this client {figures['client_cpu']:.2f}%"
    )
    print(
        f"  server RSS {rss_none / 1024:.1f} MB with no stream, {rss_open / 1024:.1f} MB with"
        f" {held}: {figures['per_stream_kb']:.1f} kB a stream; threads {threads_none} with no"
        f" stream, {threads_open} with them"
    )
    print(f"  {log_errors(served)}")
    return figures


# --- The run ------------------------------------------------------------------------------------


def refusals(refused: list[Stream]) -> str:
    """The streams not opened, by the answer they had (or why they were not tried)."""
    if not refused:
        return ""
    found = Counter(s.error[:60] or f"answered {s.status}" for s in refused)
    return f"; {len(refused)} not opened: " + ", ".join(f"{n} {why}" for why, n in found.items())


def loop_run(coroutine: Any) -> Any:
    """``coroutine`` on uvloop when it is there (a lighter client), else asyncio's loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coroutine)


PARTS = ("requests", "ramp", "watch", "idle")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    files = raise_open_files()
    with stack_running("live", redis=True, PARLOUR_BENCH="1") as stack:
        from django.db import connection

        people, _ = create_users(max(args.streams, max(args.ramp), args.watchers) + 2 * TABLES)
        print(
            f"Private PostgreSQL {connection.cursor().connection.info.server_version // 10000}"
            f" cluster (initdb's settings) and Redis; {WORKERS} workers a server, DEBUG off; no"
            f" Celery worker (tasks wait in Redis); open files {files}; this client one asyncio"
            f" process on the same 2 cores; parts {', '.join(args.parts)}"
        )
        t0 = time.perf_counter()
        tables = public_tables(people[: 2 * TABLES], TABLES)
        cookies = [session_cookie(key) for key in signed_in_sessions(people[2 * TABLES :])]
        print(
            f"{len(people)} users, {TABLES} public Faraway matches and {len(cookies)} signed-in"
            f" sessions written in {time.perf_counter() - t0:.1f} s"
        )
        connection.close()
        # Part 3's way "split" is the first two: streams from asgi, pages from sync.
        servers = {kind: serve(stack, kind, WORKERS) for kind in COMPARED}

        def table_clients(count: int) -> list[Client]:
            return [
                Client(cookies[i], tables[i % TABLES].pk, tables[i % TABLES].version)
                for i in range(count)
            ]

        found: dict[str, Any] = {}

        def starting(part: str) -> bool:
            if part in args.parts:
                print(f"\n[{part}: {load_line()} at its start]", flush=True)
            return part in args.parts

        if starting("requests"):
            found["requests"] = requests_side_by_side(servers, args)
        if starting("ramp"):
            found["ramp"] = {}
            for kind, served in servers.items():
                print(
                    f"\n2. Tables polling every {POLL_EVERY_S:g} s on {served.label}, added"
                    f" step by step ({args.step:g} s a step, the first second not timed; CPU as a"
                    " share of one core)"
                )
                clients = table_clients(max(args.ramp))
                ramp = poll_ramp(served, clients, args.ramp, args.step, stack.postgres.pids)
                found["ramp"][kind] = ramp_verdict(loop_run(ramp))
                print(f"  {found['ramp'][kind]}; {log_errors(served)}")
        if starting("watch"):
            found["watch"] = watch_all(servers, tables[0], people[:2], cookies, args)
        if starting("idle"):
            found["idle"] = loop_run(
                idle_streams(servers["asgi"], table_clients(args.streams), args.hold)
            )
        stack.stop_all()
        summary(found)
    return 0


def watch_all(
    servers: dict[str, Served],
    stage: Any,
    seats: list[Any],
    cookies: list[str],
    args: argparse.Namespace,
) -> dict[str, Watched]:
    """Part 3: the match ``stage`` between ``seats`` watched each way in turn."""
    players = [Browser(servers["sync"].port, timeout=30.0) for _ in seats]
    sessions = [session_cookie(key) for key in signed_in_sessions(seats)]
    for browser, cookie in zip(players, sessions, strict=True):
        name, value = cookie.split("=", 1)
        browser.cookies[name] = value
    watching = [Client(c, stage.pk, stage.version, seat=True) for c in sessions]
    watching += [Client(c, stage.pk, stage.version) for c in cookies[: args.watchers - 2]]
    print(
        f"\n3. One public match watched by {len(watching)} clients (its 2 seats and"
        f" {len(watching) - 2} watchers); the seats play {args.moves} moves each way"
    )
    ways = {
        "asgi": ("streams, everything on ASGI", "asgi", "asgi"),
        "split": ("streams on ASGI, pages and moves on sync gunicorn", "asgi", "sync"),
        "polling": (f"polling every {POLL_EVERY_S:g} s on sync gunicorn (today)", None, "sync"),
    }
    watched = {}
    for title, stream_kind, page_kind in (ways[way] for way in args.ways):
        for browser in players:
            browser.port = servers[page_kind].port
        result = loop_run(
            watch_moves(
                title,
                stage,
                players,
                watching,
                stream_port=servers[stream_kind].port if stream_kind else None,
                page_port=servers[page_kind].port,
                moves=args.moves,
            )
        )
        watched[title] = result
        print("\n".join(watched_lines(result)), flush=True)
    for kind in ("asgi", "sync"):
        print(f"  {servers[kind].label}, so far: {log_errors(servers[kind])}")
    return watched


def summary(found: dict[str, Any]) -> None:
    """The issue's table with this run's figure beside each goal (the parts that ran)."""

    def p(values: list[float], q: float) -> str:
        return f"{percentile(values, q):.0f} ms" if values else "-"

    rows = []
    if "idle" in found:
        idle = found["idle"]
        rows.append(
            (
                "idle streams held by one box (ASGI, 2 workers)",
                GOALS["streams"],
                f"{idle['streams']:,} held ({idle['still']:,} open after the hold) at"
                f" {idle['cpu']:.2f}% of one core, {idle['per_stream_kb']:.0f} kB a stream",
            )
        )
    if "ramp" in found:
        for kind, verdict in found["ramp"].items():
            rows.append((f"tables polling every 2 s, {LABELS[kind]}", "report", verdict))
    for title, w in found.get("watch", {}).items():
        # The goal reads "to the other seat's client", with 500 clients watching: the other
        # seat's figure is held to it, the watchers' (told over a spread) beside it.
        goal = GOALS["poll-push"] if "polling" in title else GOALS["push"]
        rows.append(
            (
                f"move to screen, the other seat, {title}",
                goal,
                f"p50 {p(w.other_seat, 0.5)}, p99 {p(w.other_seat, 0.99)}"
                f" ({len(w.other_seat)} moves)",
            )
        )
        rows.append(
            (
                f"move to screen, every other client, {title}",
                GOALS["poll-push"] if "polling" in title else GOALS["watchers"],
                f"p50 {p(w.held, 0.5)}, p99 {p(w.held, 0.99)}",
            )
        )
    for kind, r in found.get("requests", {}).items():
        rows.append(
            (
                f"move POST / trivial, {kind}",
                GOALS["move"],
                f"{r['move']:.2f}x, {r['statements']} statements",
            )
        )
        rows.append((f"204 poll / trivial, {kind}", GOALS["poll"], f"{r['poll']:.2f}x"))
        rows.append((f"trivial page p50, {kind}", "-", f"{r['trivial']:.2f} ms"))
    print("\nIssue 23's table, this run:")
    for measure, goal, figure in rows:
        print(f"  {measure}\n      goal {goal}; this run: {figure}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for flag, kind, default, text in (
        ("--streams", int, 10000, "idle streams held"),
        ("--hold", float, 60.0, "seconds they are held idle"),
        ("--watchers", int, 500, "clients on the watched match (its two seats among them)"),
        ("--moves", int, 6, "moves timed to the watchers' screens, each way of watching"),
        ("--step", float, 8.0, "seconds a step of the polling ramp"),
        ("--requests", int, 120, "timed requests of each kind a server"),
        ("--warmup", int, 4, "untimed rounds first"),
        ("--query-repeats", int, 2, "in-process statement counts per kind"),
    ):
        parser.add_argument(flag, type=kind, default=default, help=f"{text} (default {default})")
    parser.add_argument(
        "--ramp",
        type=int,
        nargs="+",
        default=[25, 50, 100, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1500, 2000],
        help="tables polling at each step",
    )
    parser.add_argument(
        "--parts", nargs="+", choices=PARTS, default=list(PARTS), help="the parts run (all)"
    )
    parser.add_argument(
        "--ways",
        nargs="+",
        choices=("asgi", "split", "polling"),
        default=["asgi", "split", "polling"],
        help="part 3's ways of watching: all under ASGI, streams on ASGI and pages on sync,"
        " polling (all)",
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run of every part")
    args = parser.parse_args(argv)
    if args.quick:
        args.streams, args.hold, args.watchers, args.moves = 200, 5.0, 20, 2
        args.step, args.requests, args.warmup, args.ramp = 3.0, 10, 1, [20, 40]
    if args.watchers < 2 or min(args.streams, args.moves, args.requests, args.warmup) < 1:
        parser.error("--watchers at least 2; --streams, --moves, --requests, --warmup positive")
    return args


if __name__ == "__main__":
    sys.exit(main())

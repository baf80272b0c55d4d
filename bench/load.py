"""Load and soak: signed-in clients play over HTTP against the whole stack for minutes.

    .venv/bin/python bench/load.py                          # both phases, 40 clients, 300 s each
    .venv/bin/python bench/load.py --duration 30 --clients 10 --phase steady --drain 60  # smoke
    .venv/bin/python bench/load.py --server split --watch stream  # as a node behind nginx serves

What it measures: bench/README.md; figures: docs/performance.md. It exits non-zero only on
errors, a match unfinished after the kill phase's drain, or a check that does not hold.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import os
import random
import re
import secrets
import signal
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script

from bench.report import (
    CpuWatch,
    chain_check,
    create_users,
    distribution,
    ms,
    percentile,
    stack_running,
)
from bench.servers import SERVERS, serve
from tests.stack.http import (
    MATCH_PATH_RE,
    Answer,
    Browser,
    SignInRefused,
    offered_moves,
    page_state,
)
from tests.stack.processes import Process, Stack, ready_count
from tests.stack.sse import EventStream

WORKER_CONCURRENCY = 2
SWEEP_EVERY_S = 5
SWEEP_AFTER_S = 10
PAIR_WAIT_S = 60.0
# A streaming client that hears nothing for this long fetches its table anyway; a newer table
# found that way is an event the stream missed (counted; it must not happen).
STREAM_QUIET_S = 30.0
KINDS = (
    ("lobby", "lobby page"),
    ("new", "new match (form POST)"),
    ("join", "join (form POST)"),
    ("page", "table page"),
    ("poll-204", "poll answered 204"),
    ("poll-200", "poll re-rendered"),
    ("stream", "stream opened (headers)"),
    ("fetch", "table fetched on an event"),
    ("move-bots", "move POST, table with bots"),
    ("move-people", "move POST, person v person"),
)
MOVE_KINDS = ("move-bots", "move-people")
NETWORK_ERRORS = (OSError, http.client.HTTPException)
ERROR_RE = re.compile(r" ERROR|Traceback|CRITICAL")
# Clients prefer these moves, as the full-match tests do, so that matches end (and new ones
# start) within the run; otherwise they choose at random among the offered moves.
PREFERENCES = {"faraway": ("play", "penalty"), "gulliver": ("play", "prepend")}


# --- What the clients measured ----------------------------------------------------------------


@dataclass
class Tally:
    """One client's samples, by request kind, as (perf_counter at the answer, ms)."""

    samples: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    lobby_missed: int = 0
    missed_events: int = 0  # streaming: a newer table found by a fetch no event asked for

    def took(self, kind: str, response: Answer) -> None:
        self.took_ms(kind, response.seconds * 1000)

    def took_ms(self, kind: str, ms: float) -> None:
        self.samples[kind].append((time.perf_counter(), ms))

    def expect(self, kind: str, response: Answer, *statuses: int) -> bool:
        """Counts the answer under ``kind`` if its status is one expected, else as an error."""
        if response.status in statuses:
            self.took(kind, response)
            return True
        self.errors.append(f"{kind} answered {response.status}")
        return False

    def merge(self, other: Tally) -> None:
        for kind, values in other.samples.items():
            self.samples[kind].extend(values)
        self.errors.extend(other.errors)
        self.lobby_missed += other.lobby_missed
        self.missed_events += other.missed_events


# --- A person at a table -----------------------------------------------------------------------


@dataclass
class Phase:
    """One timed phase: until ``stop_new`` clients open matches, until ``hard_end`` they may
    finish them. Times are ``time.perf_counter``; ``wall_*`` the same moments in UTC."""

    name: str
    started: float
    stop_new: float
    hard_end: float
    wall_started: dt.datetime
    matches: list[int] = field(default_factory=list)  # appended to by the clients' threads
    # (killed at, the new worker ready at), UTC.
    kills: list[tuple[dt.datetime, dt.datetime]] = field(default_factory=list)
    ended: float = 0.0


@dataclass
class Pair:
    """Two people at one table: the creator offers each new match, the partner takes it."""

    game: str
    pk: int = 0
    closed: bool = False
    cond: threading.Condition = field(default_factory=threading.Condition)

    def offer(self, pk: int) -> None:
        with self.cond:
            self.pk = pk
            self.cond.notify_all()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def next_after(self, last: int, timeout: float) -> int | None:
        with self.cond:
            self.cond.wait_for(lambda: self.pk != last or self.closed, timeout=timeout)
            return self.pk if self.pk != last else None


@dataclass
class Seating:
    """Where a client sits: at its own table with ``bots`` greedy bots, or in ``pair``."""

    game: str
    bots: int = 0
    pair: Pair | None = None
    creator: bool = False

    def form(self, gulliver_target: int) -> dict[str, str]:
        form = {"game": self.game, "num_players": str(1 + max(self.bots, 1)), "seat_0": "me"}
        for index in range(1, 1 + max(self.bots, 1)):
            form[f"seat_{index}"] = "greedy" if self.bots else "person"
        form["deadline_days"] = ""
        form["visibility"] = "public"
        if self.game == "gulliver":
            form["target"] = str(gulliver_target)
        return form


class Player(threading.Thread):
    """One person: opens matches, moves when offered, and otherwise waits for its table to change
    as the page does: polling every ``--poll-every`` s (before issue 23, and the page while it
    has no stream), or with ``stream_port`` holding the table's stream (``/live/?match=M``) and
    fetching the table when a ``table`` event names a newer version (``static/js/live.js``)."""

    def __init__(
        self,
        index: int,
        browser: Browser,
        seating: Seating,
        phase: Phase,
        args: argparse.Namespace,
        stream_port: int | None = None,
    ) -> None:
        super().__init__(name=f"load-player-{index}", daemon=True)
        self.stream_port = stream_port
        self.stream: EventStream | None = None
        self.stream_pk = 0
        self.browser, self.seating, self.phase = browser, seating, phase
        self.poll_every, self.gulliver_target = args.poll_every, args.gulliver_target
        self.rng = random.Random(f"load|{phase.name}|{index}")
        self.tally = Tally()
        self.move_kind = "move-bots" if seating.bots else "move-people"
        self.last_pk = 0
        self.finished: list[int] = []
        self.unfinished: list[int] = []

    def run(self) -> None:
        # Clients do not poll in step: each starts somewhere in the first poll interval.
        time.sleep(self.rng.uniform(0, self.poll_every))
        try:
            while time.perf_counter() < self.phase.stop_new:
                try:
                    opened = self.open_match()
                except NETWORK_ERRORS as exc:
                    self.tally.errors.append(f"opening a match: {type(exc).__name__}: {exc}")
                    opened = None
                if opened is None:
                    time.sleep(self.poll_every)
                    continue
                self.play(*opened)
        except Exception as exc:  # a bug of this client, not the site's; counted, not hidden
            self.tally.errors.append(f"client stopped: {type(exc).__name__}: {exc}")
            raise
        finally:
            self.close_stream()
            if self.seating.pair is not None and self.seating.creator:
                self.seating.pair.close()

    # Opening a match

    def open_match(self) -> tuple[int, str] | None:
        if self.seating.pair is not None and not self.seating.creator:
            return self.take_offered_seat()
        lobby = self.browser.request("GET", "/matches/")
        if not self.tally.expect("lobby", lobby, 200):
            return None
        form = self.seating.form(self.gulliver_target)
        created = self.browser.post_form("/matches/new/", form)
        found = MATCH_PATH_RE.search(created.headers.get("Location", ""))
        if not self.tally.expect("new", created, 302) or not found:
            return None
        pk = int(found.group(1))
        self.phase.matches.append(pk)
        if self.seating.pair is not None:
            self.seating.pair.offer(pk)
        return self.table_page(pk)

    def take_offered_seat(self) -> tuple[int, str] | None:
        pair = self.seating.pair
        assert pair is not None
        wait = min(PAIR_WAIT_S, max(0.0, self.phase.stop_new - time.perf_counter()))
        pk = pair.next_after(self.last_pk, wait)
        if pk is None:
            return None
        lobby = self.browser.request("GET", "/matches/")
        if not self.tally.expect("lobby", lobby, 200):
            return None
        if f'href="/matches/{pk}/"' not in lobby.body:
            self.tally.lobby_missed += 1  # not listed (the lobby lists so many): the invite link
        joined = self.browser.post_form(f"/matches/{pk}/join/")
        if not self.tally.expect("join", joined, 302):
            self.last_pk = pk
            return None
        return self.table_page(pk)

    def table_page(self, pk: int) -> tuple[int, str] | None:
        self.last_pk = pk
        page = self.browser.request("GET", f"/matches/{pk}/")
        if not self.tally.expect("page", page, 200):
            self.unfinished.append(pk)
            return None
        return pk, page.body

    # Playing it

    def play(self, pk: int, page: str) -> None:
        """Until the match is over or the phase's drain ends; moves whenever moves are offered,
        else polls every ``poll_every`` s with the version shown."""
        shown = page_state(page)
        while True:
            if shown is not None and shown[1] == "finished":
                self.close_stream()
                self.finished.append(pk)
                return
            if time.perf_counter() >= self.phase.hard_end:
                self.close_stream()
                self.unfinished.append(pk)
                return
            try:
                moves = offered_moves(page) if shown is not None and shown[1] == "active" else []
                if moves and shown is not None:
                    answer = self.move(pk, moves, shown[0])
                    if answer is not None:
                        page, shown = answer, page_state(answer)
                        continue
                    shown = None  # refused: the next poll re-renders the table
                polled, kind = self.next_table(pk, shown[0] if shown is not None else -1)
            except NETWORK_ERRORS as exc:
                self.tally.errors.append(f"at table {pk}: {type(exc).__name__}: {exc}")
                shown = None
                time.sleep(self.poll_every)
                continue
            if polled.status == 204:
                self.tally.took("poll-204", polled)
            elif self.tally.expect(kind, polled, 200, 286):
                page, shown = polled.body, page_state(polled.body)
                if shown is None:
                    self.tally.errors.append(f"table {pk}: a re-rendered poll had no version")
            else:
                shown = None

    def next_table(self, pk: int, version: int) -> tuple[Answer, str]:
        """The table once it may have changed, and the kind its answer is counted under: a poll
        after ``poll_every`` s ("poll-200"), or when streaming, the fetch a ``table`` event newer
        than ``version`` asks for ("fetch")."""
        if self.stream_port is None or version < 0:
            time.sleep(self.poll_every)
            return self.browser.poll(pk, version), "poll-200"
        if self.stream is None or self.stream_pk != pk:
            self.open_stream(pk)
        heard = False
        if self.stream is not None:
            try:
                self.stream.wait_for(
                    lambda event: event.name == "table" and event.json()["version"] > version,
                    timeout=STREAM_QUIET_S,
                )
                heard = True
            except TimeoutError:
                pass
            except AssertionError:  # the server ended it: an error here (its lifetime is 30 min)
                self.tally.errors.append(f"table {pk}: the stream ended")
                self.close_stream()
        else:
            time.sleep(self.poll_every)  # refused: the page polls
        fetched = self.browser.poll(pk, version)
        if heard:
            return fetched, "fetch"
        if fetched.status == 200 and self.stream is not None:
            self.tally.missed_events += 1
        return fetched, "poll-200"

    def open_stream(self, pk: int) -> None:
        self.close_stream()
        started = time.perf_counter()
        stream = EventStream(
            self.stream_port, f"/live/?match={pk}", cookies=self.browser.cookies, timeout=30.0
        )
        if stream.status != 200:
            self.tally.errors.append(f"stream for table {pk} answered {stream.status}")
            return
        self.tally.took_ms("stream", (time.perf_counter() - started) * 1000)
        self.stream, self.stream_pk = stream, pk

    def close_stream(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    def move(self, pk: int, moves: list[dict[str, Any]], version: int) -> str | None:
        keen = [m for m in moves if m["type"] in PREFERENCES[self.seating.game]]
        posted = self.browser.move(pk, self.rng.choice(keen or moves), version)
        if not self.tally.expect(self.move_kind, posted, 200):
            return None
        return posted.body


def seatings(clients: int) -> list[Seating]:
    """``clients // 4`` pairs of people (half the clients when a multiple of 4), the rest each
    at a table of their own with 1, 2 or 3 greedy bots; both games alike."""
    pairs = clients // 4
    out: list[Seating] = []
    for p in range(pairs):
        pair = Pair(game="faraway" if p % 2 == 0 else "gulliver")
        out += [Seating(pair.game, pair=pair, creator=True), Seating(pair.game, pair=pair)]
    for b in range(clients - 2 * pairs):
        out.append(Seating("faraway" if b % 2 == 0 else "gulliver", bots=1 + (b // 2) % 3))
    return out


# --- Watching the machine ----------------------------------------------------------------------


class Monitor(threading.Thread):
    """Once a second: the Redis queue's length, the load average, each process's CPU time (a
    worker killed in the phase still counts with what it used until its last sample)."""

    def __init__(self, stack: Stack) -> None:
        super().__init__(name="load-monitor", daemon=True)
        import redis

        self.redis = redis.Redis.from_url(stack.redis.url)
        self.queue = stack.queue
        self.stack = stack
        self.stop_event = threading.Event()
        self.lock = threading.Lock()
        self.cpu = CpuWatch(
            {
                "gunicorn": lambda: self.processes("web"),
                "streams": lambda: self.processes("live"),
                "worker": lambda: self.processes("worker"),
                "beat": lambda: self.processes("beat"),
                "postgres": stack.postgres.pids,
            }
        )
        self.reset()

    def processes(self, prefix: str) -> list[int]:
        return [pid for p in self.stack.processes if p.name.startswith(prefix) for pid in p.pids()]

    def reset(self) -> None:
        """Starts a new window."""
        with self.lock:
            self.queue_lengths: list[int] = []
            self.unacked: list[int] = []
            self.loads: list[float] = []
            self.cpu.begin()

    def sample(self) -> None:
        try:
            length = int(self.redis.llen(self.queue))
            # kombu's hash of messages a worker has taken and not acknowledged (the Redis is
            # the run's own): the tasks in hand, and those waiting for their countdown.
            unacked = int(self.redis.hlen("unacked"))
        except Exception:  # a sample missed is no reason to stop the run
            length = unacked = -1
        with self.lock:
            if length >= 0:
                self.queue_lengths.append(length)
                self.unacked.append(unacked)
            self.loads.append(os.getloadavg()[0])
            self.cpu.sample()

    def run(self) -> None:
        while not self.stop_event.wait(1.0):
            self.sample()

    def queue_line(self) -> str:
        with self.lock:
            lengths, unacked = list(self.queue_lengths), list(self.unacked)
        if not lengths:
            return "Redis queue length: no samples"
        busy = sum(1 for n in lengths if n > 0)
        return (
            f"Redis queue length (sampled each second, {len(lengths)} samples): mean"
            f" {sum(lengths) / len(lengths):.2f}, p99 {percentile(lengths, 0.99):.0f}, max"
            f" {max(lengths)}; non-empty in {100 * busy / len(lengths):.0f}% of samples;"
            f" taken but not acknowledged (countdown tasks included): mean"
            f" {sum(unacked) / len(unacked):.0f}, max {max(unacked)}"
        )

    def window(self) -> tuple[str, str, str]:
        """Since ``reset``: the CPU shares, the queue, the mean 1-minute load."""
        with self.lock:
            shares, loads = self.cpu.line(), list(self.loads)
        return shares, self.queue_line(), f"{sum(loads) / len(loads):.2f}" if loads else "n/a"


class Killer(threading.Thread):
    """Every ``every`` s: SIGKILL the worker's whole group, then start it again at once."""

    def __init__(self, worker: Process, phase: Phase, every: float) -> None:
        super().__init__(name="load-killer", daemon=True)
        self.worker, self.phase, self.every = worker, phase, every
        self.stop_event = threading.Event()

    def run(self) -> None:
        due = self.phase.started + self.every
        while not self.stop_event.wait(max(0.0, due - time.perf_counter())):
            if time.perf_counter() >= self.phase.hard_end:
                return
            seen = ready_count(self.worker)
            killed = dt.datetime.now(dt.UTC)
            self.worker.kill()
            self.worker.start()
            deadline = time.monotonic() + 60
            while ready_count(self.worker) <= seen and time.monotonic() < deadline:
                time.sleep(0.05)
            self.phase.kills.append((killed, dt.datetime.now(dt.UTC)))
            due += self.every


# --- One phase ---------------------------------------------------------------------------------


@dataclass
class PhaseResult:
    phase: Phase
    tally: Tally
    players: list[Player]
    shares: str  # this and the next two in the timed window, the last over the whole phase
    queue: str
    load_mean: str
    queue_whole: str


def play_phase(
    name: str,
    browsers: Sequence[Browser],
    args: argparse.Namespace,
    monitor: Monitor,
    worker: Process,
    stream_port: int | None = None,
) -> PhaseResult:
    """One phase: each browser a ``Player`` at its seating for ``--duration`` s, then
    ``--drain`` s to finish; phase ``kills`` kills and restarts ``worker`` as it goes."""
    start = time.perf_counter() + 0.5
    stop_new = start + args.duration
    phase = Phase(
        name, start, stop_new, stop_new + args.drain, dt.datetime.now(dt.UTC) + dt.timedelta(0, 0.5)
    )
    places = zip(browsers, seatings(len(browsers)), strict=True)
    players = [Player(i, b, place, phase, args, stream_port) for i, (b, place) in enumerate(places)]
    killer = Killer(worker, phase, args.kill_every) if name == "kills" else None
    monitor.reset()
    for player in players:
        player.start()
    if killer is not None:
        killer.start()
    for player in players:
        player.join(timeout=max(0.0, phase.stop_new - time.perf_counter()))
    window = monitor.window()
    for player in players:
        player.join(timeout=max(0.0, phase.hard_end - time.perf_counter()) + 60)
    phase.ended = time.perf_counter()
    if killer is not None:
        killer.stop_event.set()
        killer.join(timeout=30)
    tally = Tally()
    for player in players:
        tally.merge(player.tally)
    if any(p.is_alive() for p in players):
        tally.errors.append("a client was still running after the drain")
    return PhaseResult(phase, tally, players, *window, monitor.queue_line())


# --- From the stored log: bots' moves, reply gaps, and the check --------------------------------


@dataclass
class Gap:
    """A stored entry's wait: from the entry before it (or the match's start) to it."""

    ms: float
    previous_at: dt.datetime
    at: dt.datetime


def bot_replies(phase: Phase) -> tuple[list[Gap], list[Gap], int]:
    """Every bot move of the phase with its gap from the entry before it (or the match's
    start); every Gulliver deal (a seatless entry) with its gap less the round's pause (the
    task's countdown); and the number of bot moves within the phase's timed window."""
    from django.conf import settings

    from games.models import Match, Move, Seat

    pause_ms = float(settings.PARLOUR_ROUND_PAUSE) * 1000
    started = dict(Match.objects.filter(pk__in=phase.matches).values_list("pk", "started_at"))
    bots = set(
        Seat.objects.filter(match_id__in=phase.matches, bot_level__isnull=False).values_list(
            "match_id", "index"
        )
    )
    window_end = phase.wall_started + dt.timedelta(seconds=phase.stop_new - phase.started)
    replies, deals, in_window, match, previous = [], [], 0, None, None
    rows = Move.objects.filter(match_id__in=phase.matches).order_by("match_id", "ply")
    for match_id, seat, at in rows.values_list("match_id", "seat", "created_at"):
        if match_id != match:
            match, previous = match_id, started[match_id]
        if previous is not None and seat is None:
            deals.append(Gap((at - previous).total_seconds() * 1000 - pause_ms, previous, at))
        elif previous is not None and (match_id, seat) in bots:
            replies.append(Gap((at - previous).total_seconds() * 1000, previous, at))
            in_window += phase.wall_started <= at < window_end
        previous = at
    return replies, deals, in_window


# --- Reporting ---------------------------------------------------------------------------------


def report_phase(result: PhaseResult, args: argparse.Namespace) -> int:
    """Prints a phase; returns its number of failures (errors, unfinished matches)."""
    phase, tally = result.phase, result.tally
    window = phase.stop_new - phase.started
    finished = {pk for p in result.players for pk in p.finished}
    unfinished = sorted({pk for p in result.players for pk in p.unfinished} - finished)
    replies, deals, bot_moves = bot_replies(phase)
    print(f"\nPhase {phase.name}: {window:.0f} s of load, then the drain")
    if phase.name == "kills":
        print(
            f"  worker SIGKILLed (whole process group) and started again every"
            f" {args.kill_every:g} s: {len(phase.kills)} kills"
        )
    print(f"  in the timed window: {result.shares}")
    print(f"  in the timed window: 1-minute load sampled each second: mean {result.load_mean}")
    people = {k: [t for t, _ in tally.samples[k] if t < phase.stop_new] for k in MOVE_KINDS}
    print(
        f"  moves/s in the {window:.0f} s: people {sum(map(len, people.values())) / window:.1f}"
        f" (against bots {len(people.get('move-bots', [])) / window:.1f}, against each other"
        f" {len(people.get('move-people', [])) / window:.1f}), bots {bot_moves / window:.1f};"
        f" all {(sum(map(len, people.values())) + bot_moves) / window:.1f}"
    )
    drained = phase.ended - phase.stop_new
    print(
        f"  matches: {len(phase.matches)} opened, {len(finished)} finished,"
        f" {len(unfinished)} left unfinished after {drained:.0f} s of drain"
        f" (bound {args.drain:g} s)"
    )
    header = f"  {'request (in the timed window)':<32}{'count':>7}{'per s':>7}{'p50 ms':>9}"
    print(header + f"{'p99 ms':>9}{'max ms':>9}")
    for key, label in KINDS:
        values = [v for t, v in tally.samples.get(key, []) if t < phase.stop_new]
        if not values:
            continue
        print(
            f"  {label:<32}{len(values):>7}{len(values) / window:>7.1f}{ms(values, 0.5):>9}"
            f"{ms(values, 0.99):>9}{max(values):>9.0f}"
        )
    gaps = [r.ms for r in replies]
    print(f"  bot reply gap (the entry before -> the bot's, stored times): {distribution(gaps)}")
    print(
        "  Gulliver deals (the round's last entry -> the deal, less the round's pause):"
        f" {distribution([d.ms for d in deals])}"
    )
    if phase.kills:
        for label, found in (("bot replies", replies), ("deals", deals)):
            shadowed = [r.ms for r in found if spans_kill(r, phase.kills)]
            clear = [r.ms for r in found if not spans_kill(r, phase.kills)]
            print(
                f"    {label} spanning a kill or the new worker's start: {distribution(shadowed)}"
            )
            print(f"    {label}, the rest: {distribution(clear)}")
        boots = [(b - k).total_seconds() for k, b in phase.kills]
        if boots:
            print(
                f"    kill to the new worker ready: p50 {percentile(boots, 0.5):.1f} s,"
                f" max {max(boots):.1f} s"
            )
    print(f"  in the timed window: {result.queue}")
    print(f"  whole phase, drain included: {result.queue_whole}")
    if args.watch == "stream":
        print(
            f"  table events the streams missed (a newer table found by a fetch after"
            f" {STREAM_QUIET_S:g} s without one): {tally.missed_events} (goal 0)"
        )
    if tally.lobby_missed:
        print(f"  partners who did not find their match in the lobby list: {tally.lobby_missed}")
    first = f"; first: {tally.errors[:5]}" if tally.errors else ""
    print(f"  errors: {len(tally.errors)} (goal 0) {'yes' if not tally.errors else 'NO'}{first}")
    failures = len(tally.errors) + tally.missed_events  # none counted unless streaming
    if unfinished:
        from django.utils import timezone

        from games.models import Match

        print(f"  {'NOT FINISHED' if phase.name == 'kills' else 'unfinished'} after the drain:")
        for m in Match.objects.filter(pk__in=unfinished):  # a stall: a bot awaited long
            idle = (timezone.now() - m.updated_at).total_seconds()
            print(
                f"    match {m.pk} ({m.game}): {m.status}, ply {m.ply}, awaiting {m.awaiting},"
                f" last written {idle:.0f} s ago"
            )
    if phase.name == "kills":
        failures += len(unfinished)
    return failures


def spans_kill(reply: Gap, kills: list[tuple[dt.datetime, dt.datetime]]) -> bool:
    """Whether the wait for this entry overlaps a kill: from the kill until the new worker
    logged itself ready, no worker took tasks."""
    return any(reply.previous_at <= ready and reply.at >= killed for killed, ready in kills)


# --- Setting up and cleaning up ----------------------------------------------------------------


def sign_in_all(
    port: int, users: Sequence[Any], password: str
) -> tuple[list[Browser], list[float]]:
    """A browser for each user, all signed in through the form at once; the login POSTs' ms."""
    browsers = [Browser(port, timeout=30.0) for _ in users]
    posts: list[float] = []
    errors: list[str] = []

    def one(browser: Browser, user: Any) -> None:
        try:
            posts.append(browser.sign_in(user.username, password)[0].seconds * 1000)
        except (*NETWORK_ERRORS, SignInRefused) as exc:
            errors.append(f"login: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=one, args=bu) for bu in zip(browsers, users, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit(f"bench: a client could not sign in: {errors[:5]}")
    return browsers, posts


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # SIGTERM unwinds like Ctrl-C; SIGINT too, which a shell's background job starts ignoring.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sweeps = {"PARLOUR_SWEEP_EVERY": str(SWEEP_EVERY_S), "PARLOUR_SWEEP_AFTER": str(SWEEP_AFTER_S)}
    with stack_running("load", redis=True, **sweeps) as stack:
        worker = stack.worker("--pool=prefork", f"--concurrency={WORKER_CONCURRENCY}")
        stack.beat()
        served = serve(stack, args.server, args.web_workers)
        print(
            f"Private PostgreSQL {stack.postgres.port} (initdb's settings), Redis"
            f" {stack.redis.port} queue {stack.queue}; {served.label}, {args.web_workers} workers,"
            f" DEBUG off; Celery worker prefork concurrency {WORKER_CONCURRENCY}; beat, sweeper"
            f" every {SWEEP_EVERY_S} s for bot turns still for {SWEEP_AFTER_S} s"
        )
        given = (f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items())
        print(f"Command: bench/load.py {' '.join(given)}")
        users, password = create_users(args.clients, f"load-{secrets.token_hex(3)}")
        monitor = Monitor(stack)
        monitor.start()
        browsers, posts = sign_in_all(served.port, users, password)
        print(f"Signed {len(users)} clients in through the form at once: {distribution(posts)}")
        phases = ["steady", "kills"] if args.phase == "both" else [args.phase]
        results = []
        for name in phases:
            print(f"  {name}: {len(users)} clients for {args.duration:g} s, drain {args.drain:g} s")
            streams = served.stream_port if args.watch == "stream" else None
            results.append(play_phase(name, browsers, args, monitor, worker, streams))
        monitor.stop_event.set()
        failures = sum(report_phase(result, args) for result in results)
        failures += chain_check("Check", (pk for r in results for pk in r.phase.matches))
        for process in stack.processes:
            errors = [line for line in process.output().splitlines() if ERROR_RE.search(line)]
            first = f"; first: {errors[:3]}" if errors else ""
            print(f"{process.name} log: {len(errors)} error lines{first}")
    return 1 if failures else 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phase", choices=["steady", "kills", "both"], default="both")
    parser.add_argument(
        "--server", choices=SERVERS, default="sync", help="the web server (bench/servers.py)"
    )
    parser.add_argument(
        "--watch",
        choices=["poll", "stream"],
        default="poll",
        help="how a client learns its table changed: its poll, or its stream (asgi, split)",
    )
    for flag, kind, default, text in (
        ("--duration", float, 300.0, "seconds of load a phase"),
        ("--clients", int, 40, "signed-in clients, a quarter of them in pairs"),
        ("--web-workers", int, 2, "gunicorn workers (each server of the split), as the Procfile"),
        ("--drain", float, 300.0, "seconds the clients may take to finish their matches after"),
        ("--poll-every", float, 2.0, "the page's poll (2 s)"),
        ("--kill-every", float, 60.0, "the kill phase's period"),
        ("--gulliver-target", int, 50, "Gulliver's winning score, low so that matches end"),
    ):
        parser.add_argument(flag, type=kind, default=default, help=f"{text} (default {default})")
    args = parser.parse_args(argv)
    if args.watch == "stream" and args.server not in ("asgi", "split"):
        parser.error("--watch stream needs a server with streams: --server asgi or split")
    if (
        args.clients < 2
        or args.web_workers < 1
        or min(args.duration, args.poll_every, args.kill_every) <= 0
    ):
        parser.error(
            "--clients must be at least 2, --web-workers 1; --duration and the periods positive"
        )
    return args


if __name__ == "__main__":
    sys.exit(main())

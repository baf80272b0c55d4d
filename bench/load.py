"""Load and soak: logged-in clients play over HTTP against the whole stack for minutes.

    .venv/bin/python bench/load.py                          # both phases, 40 clients, 300 s each
    .venv/bin/python bench/load.py --duration 30 --clients 10 --phase steady    # a smoke run
    .venv/bin/python bench/load.py --phase kills --kill-every 60

A benchmark, not a timed test: it reports figures and exits non-zero only on errors (a status
of 500 or more, a connection error, an unexpected 4xx), a match that did not finish in the
kill phase's drain, or a stored hash, ply or record that does not hold.

The stack, as a small deployment runs it, all on loopback against a database of its own
(``parlour_load``, created if missing and migrated) and Redis db 13 with a queue named for the
run (``parlour-load-<run>``), so nothing else on the shared Redis sees a message of it:

- gunicorn with 2 sync workers (``bench.web.Gunicorn``, as the Procfile serves the site): on 2
  cores a sync worker holds a core while it answers, so more workers would only move the queue
  from the listen socket into the scheduler, and the Celery worker and PostgreSQL need the
  cores too;
- a Celery worker, ``celery -A config worker --pool=prefork --concurrency=2`` as the Procfile
  runs it (two bot moves at once, one per core), in a process group of its own so that the
  kill phase can SIGKILL the whole group (master and children) at once, as a crash would;
- beat, with the sweeper every 5 s re-enqueueing a match whose bot turn has sat still for 10 s
  (``PARLOUR_SWEEP_EVERY=5``, ``PARLOUR_SWEEP_AFTER=10``; 30 s and 60 s by default): a task
  killed with its worker stays unacknowledged in Redis for kombu's visibility timeout (an
  hour), so in the kill phase the sweeper is what brings such a match back.

Clients: ``--clients`` threads (40), each with its own session, logged in through the real form
(GET it for the CSRF token, POST it). ``clients // 4`` pairs of them sit at
person-against-person tables (40 clients: 10 matches of 2, half Faraway Tree, half Gulliver);
the others (20) each play against greedy bots (1 person and 1, 2 or 3 bots, both games). Each
behaves like the htmx table of ``templates/games/match.html``: it polls the table partial
(``/matches/<id>/table/?version=<shown>``, answered 204 while the version is current) every
``--poll-every`` s (2, the page's ``every 2s``), and when the page offers it moves (the
``data-move`` of the move buttons) it posts one as htmx would (``HX-Request``, ``X-CSRFToken``),
preferring the moves that end a match sooner (``bench.web.LOAD_PREFERENCES``). After a finished
match it opens the lobby and starts the next one through the new-match form; a pair's creator
does so and its partner finds the match in the lobby and takes the seat with the join button,
as two people would (the creator hands the partner the match id in process, as one would send
the invite link).

A phase runs ``--duration`` s; then no new match is opened and the clients finish the ones they
are in, for at most ``--drain`` s. ``steady``: the stack as it is. ``kills``: the same, with
the Celery worker's process group SIGKILLed and started again every ``--kill-every`` s until
the drain ends; then every match of the phase must have finished.

Reported per phase: moves/s (the people's over HTTP, the bots' from the stored log), p50/p99 per
request kind, errors (goal 0), the bot reply gap (from the stored entry before a bot's move to
the bot's move, both timestamped by the server when written) and, separately, the greedy bot's
own choice timed again in this process on the same positions, the Redis queue length sampled
every second, the CPU share of gunicorn, the worker, PostgreSQL and this client, and the load
average. In the kill phase the bot reply gaps are split into those spanning a kill and the rest.
Afterwards every match of the run is replayed through ``games.engines.replay`` to its stored
chain hashes (``bench.web.verify_match``), its plies checked to run 1..n with none twice, and
every finished match's record checked by ``games.engines.records.record_verify``.

Everything it starts is stopped on the way out, on an error or Ctrl-C too (process groups
killed); its rows are deleted (``--keep`` keeps them) and so are the Redis keys it created.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import html
import http.client
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    # Run as a plain script (``python bench/load.py``), the repo root is not on the path.
    sys.path.insert(0, str(ROOT))

from bench.machine import load_line, machine_line  # noqa: E402
from bench.web import (  # noqa: E402
    CSRF_HEADER_RE,
    CSRF_INPUT_RE,
    LOAD_PREFERENCES,
    LOOPBACK,
    MATCH_PATH_RE,
    STATUS_RE,
    VERSION_RE,
    WORKERS,
    Gunicorn,
    HttpClient,
    Response,
    chain_storage,
    check_database_url,
    children_of,
    database_line,
    delete_rows,
    delete_stale_runs,
    ensure_database,
    offered_moves,
    percentile,
    process_cpu,
    verify_match,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/parlour_load"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/13"
USER_PREFIX = "loadbench-"
WORKER_CONCURRENCY = 2
SWEEP_EVERY_S = 5
SWEEP_AFTER_S = 10
# At most this many bot moves a phase have their greedy choice timed again in process.
COMPUTE_SAMPLE = 1500
PAIR_WAIT_S = 60.0
KINDS = (
    ("login", "login (form POST)"),
    ("lobby", "lobby page"),
    ("new", "new match (form POST)"),
    ("join", "join (form POST)"),
    ("page", "table page"),
    ("poll-204", "poll answered 204"),
    ("poll-200", "poll re-rendered"),
    ("move-bots", "move POST, table with bots"),
    ("move-people", "move POST, person v person"),
)
NETWORK_ERRORS = (OSError, http.client.HTTPException)


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


# --- What the clients measured ----------------------------------------------------------------


@dataclass
class Tally:
    """One client's samples, by request kind, as (perf_counter at the answer, ms)."""

    samples: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    moves: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    lobby_missed: int = 0

    def took(self, kind: str, response: Response) -> None:
        self.samples[kind].append((time.perf_counter(), response.seconds * 1000))

    def expect(self, kind: str, response: Response, *statuses: int) -> bool:
        """Counts the answer under ``kind`` if its status is one expected, else as an error."""
        if response.status in statuses:
            self.took(kind, response)
            return True
        self.errors.append(f"{kind} answered {response.status}")
        return False

    def merge(self, other: Tally) -> None:
        for kind, values in other.samples.items():
            self.samples[kind].extend(values)
        for kind, values in other.moves.items():
            self.moves[kind].extend(values)
        self.errors.extend(other.errors)
        self.lobby_missed += other.lobby_missed


def login(http: HttpClient, username: str, password: str, tally: Tally) -> bool:
    """Through the real form, as ``HttpClient.login`` does, but timed and never exiting."""
    form = http.request("GET", "/accounts/login/")
    found = CSRF_INPUT_RE.search(form.body)
    if form.status != 200 or not found:
        tally.errors.append(f"login form answered {form.status}")
        return False
    posted = http.request(
        "POST",
        "/accounts/login/",
        form={
            "csrfmiddlewaretoken": html.unescape(found.group(1)),
            "username": username,
            "password": password,
            "next": "",
        },
    )
    if not tally.expect("login", posted, 302) or "sessionid" not in http.cookies:
        return False
    lobby = http.request("GET", "/matches/")
    token = CSRF_HEADER_RE.search(lobby.body)
    if not tally.expect("lobby", lobby, 200) or not token:
        return False
    http.csrf_token = html.unescape(token.group(1))
    return True


# --- The stack --------------------------------------------------------------------------------


class Group:
    """A process started in a session of its own, stopped (or killed) as a whole group."""

    def __init__(self, label: str, command: list[str], log: Path) -> None:
        self.label, self.command, self.log = label, command, log
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=os.environ.copy(),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def pids(self) -> list[int]:
        if self.process is None or self.process.poll() is not None:
            return []
        return [self.process.pid, *children_of(self.process.pid)]

    def kill(self) -> None:
        """SIGKILL to the whole group, as a crash or an out-of-memory kill would end it."""
        self._signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None:
            return
        self._signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=20)
        self._signal(signal.SIGKILL)  # the children too, whatever the master did
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)

    def _signal(self, signum: int) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)


def celery_worker(data_dir: Path, queue: str, run: str) -> Group:
    celery = str(Path(sys.executable).with_name("celery"))
    command = [celery, "-A", "config", "worker", "--pool=prefork"]
    command += [f"--concurrency={WORKER_CONCURRENCY}", "-Q", queue, "-n", f"load-{run}@%h"]
    # INFO: the worker's "ready" line tells when a restarted worker takes tasks again.
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO"]
    return Group("worker", command, data_dir / "worker.log")


def celery_beat(data_dir: Path) -> Group:
    celery = str(Path(sys.executable).with_name("celery"))
    command = [celery, "-A", "config", "beat", "-l", "WARNING"]
    command += ["--schedule", str(data_dir / "beat-schedule"), "--pidfile", ""]
    return Group("beat", command, data_dir / "beat.log")


def check_redis_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme != "redis" or (parts.hostname or "") not in LOOPBACK:
        raise SystemExit(f"load: {url!r} is not a loopback redis:// URL")
    if parts.path.strip("/") in {"", "0"}:
        raise SystemExit("load: use a Redis database of the benchmark's own, not db 0")


def configure_environment(args: argparse.Namespace, data_dir: Path, queue: str) -> None:
    """Settings come from the environment: set before Django, gunicorn or Celery read it."""
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["REDIS_URL"] = args.redis_url
    os.environ["PARLOUR_CELERY_QUEUE"] = queue
    os.environ["PARLOUR_SWEEP_EVERY"] = str(SWEEP_EVERY_S)
    os.environ["PARLOUR_SWEEP_AFTER"] = str(SWEEP_AFTER_S)
    os.environ["DEBUG"] = "0"
    os.environ["PARLOUR_DATA_DIR"] = str(data_dir)
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    for name in ("CELERY_BROKER_URL", "PARLOUR_PRODUCTION", "PARLOUR_BENCH"):
        os.environ.pop(name, None)


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
    matches: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # (killed at, the new worker ready at), UTC.
    kills: list[tuple[dt.datetime, dt.datetime]] = field(default_factory=list)
    ended: float = 0.0

    def add(self, pk: int) -> None:
        with self.lock:
            self.matches.append(pk)


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


def page_state(page: str) -> tuple[int, str] | None:
    version, status = VERSION_RE.search(page), STATUS_RE.search(page)
    if not version or not status:
        return None
    return int(version.group(1)), status.group(1)


class Player(threading.Thread):
    """One person: opens matches, polls its table as htmx does and moves when offered."""

    def __init__(
        self,
        index: int,
        http: HttpClient,
        seating: Seating,
        phase: Phase,
        *,
        poll_every: float,
        gulliver_target: int,
    ) -> None:
        super().__init__(name=f"load-player-{index}", daemon=True)
        self.http, self.seating, self.phase = http, seating, phase
        self.poll_every, self.gulliver_target = poll_every, gulliver_target
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
            if self.seating.pair is not None and self.seating.creator:
                self.seating.pair.close()

    # Opening a match

    def open_match(self) -> tuple[int, str] | None:
        if self.seating.pair is not None and not self.seating.creator:
            return self.take_offered_seat()
        lobby = self.http.request("GET", "/matches/")
        if not self.tally.expect("lobby", lobby, 200):
            return None
        form = self.seating.form(self.gulliver_target)
        created = self.http.request(
            "POST", "/matches/new/", form={"csrfmiddlewaretoken": self.http.csrf_token, **form}
        )
        found = MATCH_PATH_RE.search(created.headers.get("Location", ""))
        if not self.tally.expect("new", created, 302) or not found:
            return None
        pk = int(found.group(1))
        self.phase.add(pk)
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
        lobby = self.http.request("GET", "/matches/")
        if not self.tally.expect("lobby", lobby, 200):
            return None
        if f'href="/matches/{pk}/"' not in lobby.body:
            self.tally.lobby_missed += 1  # not listed (the lobby lists so many): the invite link
        joined = self.http.request(
            "POST", f"/matches/{pk}/join/", form={"csrfmiddlewaretoken": self.http.csrf_token}
        )
        if not self.tally.expect("join", joined, 302):
            self.last_pk = pk
            return None
        return self.table_page(pk)

    def table_page(self, pk: int) -> tuple[int, str] | None:
        self.last_pk = pk
        page = self.http.request("GET", f"/matches/{pk}/")
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
                self.finished.append(pk)
                return
            if time.perf_counter() >= self.phase.hard_end:
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
                time.sleep(self.poll_every)
                polled = self.http.poll(pk, shown[0] if shown is not None else -1)
            except NETWORK_ERRORS as exc:
                self.tally.errors.append(f"at table {pk}: {type(exc).__name__}: {exc}")
                shown = None
                time.sleep(self.poll_every)
                continue
            if polled.status == 204:
                self.tally.took("poll-204", polled)
            elif self.tally.expect("poll-200", polled, 200, 286):
                page, shown = polled.body, page_state(polled.body)
                if shown is None:
                    self.tally.errors.append(f"table {pk}: a re-rendered poll had no version")
            else:
                shown = None

    def move(self, pk: int, moves: list[dict[str, Any]], version: int) -> str | None:
        keen = [m for m in moves if m["type"] in LOAD_PREFERENCES[self.seating.game]]
        posted = self.http.post_move(pk, self.rng.choice(keen or moves), version)
        if not self.tally.expect(self.move_kind, posted, 200):
            return None
        self.tally.moves[self.move_kind].append(time.perf_counter())
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
    """Once a second: the Redis queue's length, the load average, each process's CPU time.

    A process's CPU is kept as first and last seen, so a worker killed in the phase still
    counts with what it used until its last sample.
    """

    def __init__(
        self,
        redis_url: str,
        queue: str,
        groups: dict[str, Callable[[], list[int]]],
        database_pids: Callable[[], list[int]],
    ) -> None:
        super().__init__(name="load-monitor", daemon=True)
        import redis

        self.redis = redis.Redis.from_url(redis_url)
        self.queue, self.groups, self.database_pids = queue, groups, database_pids
        self.stop_event = threading.Event()
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """Starts a new window: what each running process used so far is its baseline."""
        with self.lock:
            self.queue_lengths: list[int] = []
            self.unacked: list[int] = []
            self.loads: list[float] = []
            self.cpu: dict[str, dict[int, list[float]]] = defaultdict(dict)
            self.client_cpu = time.process_time()
            self.started = time.perf_counter()
        self.sample(baseline=True)

    def sample(self, *, baseline: bool = False) -> None:
        try:
            length = int(self.redis.llen(self.queue))
            # kombu's hash of messages a worker has taken and not acknowledged (the db is the
            # run's own): the tasks in hand, and those waiting for their countdown.
            unacked = int(self.redis.hlen("unacked"))
        except Exception:  # a sample missed is no reason to stop the run
            length = unacked = -1
        found = {name: pids() for name, pids in self.groups.items()}
        try:
            found["postgres"] = self.database_pids()
        except Exception:  # as above
            found["postgres"] = []
        with self.lock:
            if length >= 0 and not baseline:
                self.queue_lengths.append(length)
                self.unacked.append(unacked)
            if not baseline:
                self.loads.append(os.getloadavg()[0])
            for name, pids in found.items():
                for pid in pids:
                    used = process_cpu(pid)
                    # A process first seen after the baseline started within the window.
                    seen = self.cpu[name].setdefault(pid, [used if baseline else 0.0, used])
                    if used:
                        seen[1] = used

    def run(self) -> None:
        while not self.stop_event.wait(1.0):
            self.sample()

    def shares(self) -> str:
        with self.lock:
            wall = time.perf_counter() - self.started
            client = time.process_time() - self.client_cpu
            parts = []
            for name in ("gunicorn", "worker", "beat", "postgres"):
                used = sum(max(0.0, last - first) for first, last in self.cpu[name].values())
                parts.append(f"{name} {100 * used / wall:.0f}%")
        cores = os.cpu_count() or 1
        return (
            f"CPU share {', '.join(parts)}, this client {100 * client / wall:.0f}%"
            f" (of {cores} cores = {100 * cores}%)"
        )

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

    def load_mean(self) -> str:
        with self.lock:
            loads = list(self.loads)
        return f"{sum(loads) / len(loads):.2f}" if loads else "n/a"


class Killer(threading.Thread):
    """Every ``every`` s: SIGKILL the worker's whole group, then start it again at once."""

    def __init__(self, worker: Group, phase: Phase, every: float) -> None:
        super().__init__(name="load-killer", daemon=True)
        self.worker, self.phase, self.every = worker, phase, every
        self.stop_event = threading.Event()

    def run(self) -> None:
        due = self.phase.started + self.every
        while not self.stop_event.wait(max(0.0, due - time.perf_counter())):
            if time.perf_counter() >= self.phase.hard_end:
                return
            seen = ready_count(self.worker.log)
            killed = utc_now()
            self.worker.kill()
            self.worker.start()
            wait_worker_ready(self.worker.log, seen)
            self.phase.kills.append((killed, utc_now()))
            due += self.every


# --- One phase ---------------------------------------------------------------------------------


@dataclass
class PhaseResult:
    phase: Phase
    tally: Tally
    players: list[Player]
    # In the timed window (until no new match is opened), then over the whole phase.
    shares: str
    queue: str
    load_start: str
    load_end: str
    load_mean: str
    queue_whole: str


def run_phase(
    name: str,
    https: Sequence[HttpClient],
    args: argparse.Namespace,
    monitor: Monitor,
    worker: Group,
) -> PhaseResult:
    start = time.perf_counter() + 0.5
    phase = Phase(
        name,
        start,
        start + args.duration,
        start + args.duration + args.drain,
        utc_now() + dt.timedelta(seconds=0.5),
    )
    players = [
        Player(
            i,
            http,
            seating,
            phase,
            poll_every=args.poll_every,
            gulliver_target=args.gulliver_target,
        )
        for i, (http, seating) in enumerate(zip(https, seatings(len(https)), strict=True))
    ]
    killer = Killer(worker, phase, args.kill_every) if name == "kills" else None
    load_start = load_line()
    monitor.reset()
    for player in players:
        player.start()
    if killer is not None:
        killer.start()
    print(f"  {name}: {len(players)} clients for {args.duration:g} s, drain {args.drain:g} s")
    for player in players:
        player.join(timeout=max(0.0, phase.stop_new - time.perf_counter()))
    window = (monitor.shares(), monitor.queue_line(), load_line(), monitor.load_mean())
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
    return PhaseResult(
        phase,
        tally,
        players,
        window[0],
        window[1],
        load_start,
        window[2],
        window[3],
        monitor.queue_line(),
    )


# --- From the stored log: bots' moves, reply gaps, and the check --------------------------------


@dataclass
class BotReply:
    match: int
    game: str
    ply: int
    seat: int
    gap_ms: float
    previous_at: dt.datetime
    at: dt.datetime
    compute_ms: float | None = None


def stored_moves(pks: Iterable[int]) -> dict[int, list[tuple[int, int | None, dt.datetime]]]:
    from games.models import Move

    rows: dict[int, list[tuple[int, int | None, dt.datetime]]] = defaultdict(list)
    found = Move.objects.filter(match_id__in=list(pks)).order_by("match_id", "ply")
    for match_id, ply, seat, at in found.values_list("match_id", "ply", "seat", "created_at"):
        rows[match_id].append((ply, seat, at))
    return rows


def bot_replies(phase: Phase) -> tuple[list[BotReply], list[BotReply], int]:
    """Every bot move of the phase with its gap from the entry before it (or the match's
    start); every Gulliver deal (a seatless entry) with its gap less the round's pause (the
    task's countdown); and the number of bot moves within the phase's timed window."""
    from django.conf import settings

    from games.models import Match, Seat

    pause_ms = float(settings.PARLOUR_ROUND_PAUSE) * 1000
    matches = {
        m.pk: m for m in Match.objects.filter(pk__in=phase.matches).only("pk", "game", "started_at")
    }
    bots: dict[int, set[int]] = defaultdict(set)
    for match_id, index in Seat.objects.filter(
        match_id__in=phase.matches, bot_level__isnull=False
    ).values_list("match_id", "index"):
        bots[match_id].add(index)
    window_end = phase.wall_started + dt.timedelta(seconds=phase.stop_new - phase.started)
    replies, deals, in_window = [], [], 0
    for match_id, rows in stored_moves(phase.matches).items():
        previous = matches[match_id].started_at
        game = matches[match_id].game
        for ply, seat, at in rows:
            gap = (at - previous).total_seconds() * 1000 if previous is not None else None
            if gap is not None and seat is None:
                deals.append(BotReply(match_id, game, ply, -1, gap - pause_ms, previous, at))
            elif gap is not None and seat in bots[match_id]:
                replies.append(BotReply(match_id, game, ply, seat, gap, previous, at))
                if phase.wall_started <= at < window_end:
                    in_window += 1
            previous = at
    return replies, deals, in_window


def time_bot_choices(replies: list[BotReply]) -> None:
    """The greedy bot's choice (its view built, then ``choose_move``) timed again in this
    process on the same positions, for an evenly spread sample of at most
    ``COMPUTE_SAMPLE`` replies: the part of a reply gap that is the bot's own thinking."""
    from games.bots import choose_move
    from games.engines import get_engine
    from games.engines.replay import step
    from games.models import Match, Move

    if not replies:
        return
    stride = max(1, len(replies) // COMPUTE_SAMPLE)
    chosen: dict[int, dict[int, BotReply]] = defaultdict(dict)
    for reply in replies[::stride]:
        chosen[reply.match][reply.ply] = reply
    for match in Match.objects.filter(pk__in=list(chosen)):
        engine = get_engine(match.game)
        state = engine.new_game(match.num_players, match.seed, match.options)
        wanted = chosen[match.pk]
        last = max(wanted)
        rows = Move.objects.filter(match_id=match.pk, ply__lte=last).order_by("ply")
        for ply, seat, payload in rows.values_list("ply", "seat", "payload"):
            if ply in wanted:
                started = time.perf_counter()
                view = engine.view(state, seat)
                choose_move(match.game, "greedy", view, seed=ply)
                wanted[ply].compute_ms = (time.perf_counter() - started) * 1000
            state = step(engine, state, seat, payload)


def check_matches(pks: Sequence[int]) -> tuple[list[str], str]:
    """Replays every match to its stored hashes, checks its plies run 1..n with none twice,
    and verifies every finished match's record; the problems and a summary line."""
    from django.db.models import Count, Max, Min

    from games.engines.records import record_verify
    from games.models import Match, Move
    from games.selectors.records import match_record

    replay = chain_storage()
    problems: list[str] = []
    started = time.perf_counter()
    plies = {
        row["match_id"]: row
        for row in Move.objects.filter(match_id__in=pks)
        .values("match_id")
        .annotate(
            n=Count("id"), low=Min("ply"), high=Max("ply"), distinct=Count("ply", distinct=True)
        )
    }
    folded = records = matches = 0
    for match in Match.objects.filter(pk__in=pks).prefetch_related("seats__user"):
        if match.status == Match.Status.WAITING:
            continue
        matches += 1
        row = plies.get(match.pk, {"n": 0, "low": 1, "high": 0, "distinct": 0})
        if row["n"] and (row["distinct"] != row["n"] or (row["low"], row["high"]) != (1, row["n"])):
            problems.append(f"match {match.pk}: plies {row} are not 1..n once each")
        if replay is None:
            continue
        count, problem = verify_match(replay, match)
        folded += count
        if problem:
            problems.append(problem)
        if match.status == Match.Status.FINISHED:
            record = match_record(match=match, seats=list(match.seats.all()), viewer_seat=None)
            report = record_verify(record)
            records += 1
            if not report.ok:
                problems.append(f"match {match.pk}: record does not hold: {report.problem}")
    outcome = f"{len(problems)} PROBLEMS" if problems else "every check holds"
    summary = (
        f"Check: {matches} matches in {time.perf_counter() - started:.1f} s: {folded} entries"
        f" replayed through games.engines.replay to their stored chain hashes (head_hash the"
        f" last link, ply the log's length), plies 1..n once each, {records} finished matches'"
        f" records verified by record_verify; {outcome}"
    )
    return problems, summary


# --- Reporting ---------------------------------------------------------------------------------


def ms(values: Sequence[float], q: float) -> str:
    return f"{percentile(values, q):.1f}" if values else "-"


def distribution(values: Sequence[float]) -> str:
    if not values:
        return "none"
    return (
        f"{len(values)}, p50 {ms(values, 0.5)} ms, p99 {ms(values, 0.99)} ms,"
        f" max {max(values):.0f} ms"
    )


def report_phase(result: PhaseResult, args: argparse.Namespace) -> int:
    """Prints a phase; returns its number of failures (errors, unfinished matches)."""
    phase, tally = result.phase, result.tally
    window = phase.stop_new - phase.started
    finished = {pk for p in result.players for pk in p.finished}
    unfinished = sorted({pk for p in result.players for pk in p.unfinished} - finished)
    replies, deals, bot_moves = bot_replies(phase)
    time_bot_choices(replies)
    print(f"\nPhase {phase.name}: {window:.0f} s of load, then the drain")
    if phase.name == "kills":
        print(
            f"  worker SIGKILLed (whole process group) and started again every"
            f" {args.kill_every:g} s: {len(phase.kills)} kills"
        )
    print(
        f"  in the timed window: {result.load_start} at start,"
        f" {result.load_end.removeprefix('load average ')} at its end, 1-minute load sampled"
        f" each second: mean {result.load_mean}"
    )
    print(f"  in the timed window: {result.shares}")
    people = {k: [t for t in v if t < phase.stop_new] for k, v in tally.moves.items()}
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
    gaps = [r.gap_ms for r in replies]
    compute = [r.compute_ms for r in replies if r.compute_ms is not None]
    rest = [r.gap_ms - r.compute_ms for r in replies if r.compute_ms is not None]
    print(
        "  bot reply gap (entry before -> the bot's entry, server timestamps):"
        f" {distribution(gaps)}"
    )
    print(
        f"    greedy choice timed again in process ({len(compute)} sampled): "
        f"{distribution(compute)}"
    )
    print(f"    gap less that choice (queue, pick-up, reads, write): {distribution(rest)}")
    print(
        "  Gulliver deals (the round's last entry -> the deal, less the"
        f" {deals_pause_s():g} s pause): {distribution([d.gap_ms for d in deals])}"
    )
    if phase.kills:
        for label, found in (("bot replies", replies), ("deals", deals)):
            shadowed = [r.gap_ms for r in found if spans_kill(r, phase.kills)]
            clear = [r.gap_ms for r in found if not spans_kill(r, phase.kills)]
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
    if tally.lobby_missed:
        print(f"  partners who did not find their match in the lobby list: {tally.lobby_missed}")
    first = f"; first: {tally.errors[:5]}" if tally.errors else ""
    print(f"  errors: {len(tally.errors)} (goal 0) {'yes' if not tally.errors else 'NO'}{first}")
    failures = len(tally.errors)
    print(f"  {match_durations(phase.matches)}")
    if unfinished:
        print(f"  {'NOT FINISHED' if phase.name == 'kills' else 'unfinished'} after the drain:")
        for line in unfinished_lines(unfinished):
            print(f"    {line}")
    if phase.name == "kills":
        failures += len(unfinished)
    return failures


def match_durations(pks: Sequence[int]) -> str:
    """Start to finish of the finished matches, by game and by who sat at them."""
    from games.models import Match, Seat

    with_bots = set(
        Seat.objects.filter(match_id__in=pks, bot_level__isnull=False).values_list(
            "match_id", flat=True
        )
    )
    spans: dict[str, list[float]] = defaultdict(list)
    finished = Match.objects.filter(pk__in=pks, status=Match.Status.FINISHED)
    for pk, game, began, ended in finished.values_list("pk", "game", "started_at", "finished_at"):
        if began and ended:
            who = "with bots" if pk in with_bots else "two people"
            spans[f"{game} {who}"].append((ended - began).total_seconds())
    parts = [
        f"{label} {len(v)}: p50 {percentile(v, 0.5):.0f} s, max {max(v):.0f} s"
        for label, v in sorted(spans.items())
    ]
    return "finished matches, start to finish: " + ("; ".join(parts) or "none")


def unfinished_lines(pks: Sequence[int]) -> list[str]:
    """Each unfinished match: where it stands and how long since its last write (a stall
    shows as a long time with a bot awaited)."""
    from django.utils import timezone

    from games.models import Match

    now = timezone.now()
    lines = []
    for match in Match.objects.filter(pk__in=pks).only(
        "pk", "game", "status", "ply", "awaiting", "updated_at"
    ):
        idle = (now - match.updated_at).total_seconds()
        lines.append(
            f"match {match.pk} ({match.game}): {match.status}, ply {match.ply}, awaiting"
            f" {match.awaiting}, last written {idle:.0f} s ago"
        )
    return lines


def deals_pause_s() -> float:
    from django.conf import settings

    return float(settings.PARLOUR_ROUND_PAUSE)


def spans_kill(reply: BotReply, kills: list[tuple[dt.datetime, dt.datetime]]) -> bool:
    """Whether the wait for this entry overlaps a kill: from the kill until the new worker
    logged itself ready, no worker took tasks."""
    return any(reply.previous_at <= ready and reply.at >= killed for killed, ready in kills)


def log_errors(path: Path) -> list[str]:
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return []
    return [line for line in lines if " ERROR" in line or "Traceback" in line or "CRITICAL" in line]


# --- Setting up and cleaning up ----------------------------------------------------------------


def create_users(run: str, count: int) -> tuple[list[Any], str]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    password = secrets.token_urlsafe(12)
    hashed = make_password(password)  # one hash for all: the login form checks it anyway
    names = [f"{USER_PREFIX}{run}-{i:02d}" for i in range(count)]
    model = get_user_model()
    model.objects.bulk_create([model(username=n, password=hashed) for n in names])
    by_name = {u.username: u for u in model.objects.filter(username__in=names)}
    return [by_name[n] for n in names], password


def redis_keys(url: str) -> set[bytes]:
    import redis

    return set(redis.Redis.from_url(url).scan_iter(count=1000))


def delete_new_redis_keys(url: str, before: set[bytes], queue: str) -> int:
    """Keys this run created (its queue, bindings, unacknowledged messages, pidbox), and the
    entries of this run's queue left in kombu's shared ``unacked`` hash."""
    import redis

    client = redis.Redis.from_url(url)
    created = [k for k in client.scan_iter(count=1000) if k not in before]
    if created:
        client.delete(*created)
    mine = queue.encode()
    for key in (b"unacked",):
        if key in before:
            stale = [f for f, v in client.hscan_iter(key) if mine in v]
            if stale:
                client.hdel(key, *stale)
                client.zrem(b"unacked_index", *stale)
    return len(created)


def login_all(https: Sequence[HttpClient], users: Sequence[Any], password: str) -> Tally:
    tally = Tally()
    tallies = [Tally() for _ in users]

    def one(i: int) -> None:
        try:
            login(https[i], users[i].username, password, tallies[i])
        except NETWORK_ERRORS as exc:
            tallies[i].errors.append(f"login: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(len(users))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for t in tallies:
        tally.merge(t)
    if any(not h.csrf_token for h in https):
        raise SystemExit(f"load: a client could not log in: {tally.errors[:5]}")
    return tally


def ready_count(log: Path) -> int:
    """How many times a worker logged itself ready (``celery@... ready.``) in ``log``."""
    try:
        return log.read_text(errors="replace").count(" ready.")
    except OSError:
        return 0


def wait_worker_ready(log: Path, seen: int, timeout: float = 60.0) -> bool:
    """Until the worker logs its ``seen + 1``-th ready line; False when it did not in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready_count(log) > seen:
            return True
        time.sleep(0.05)
    return False


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    check_database_url(args.database_url)
    check_redis_url(args.redis_url)
    run = secrets.token_hex(3)
    queue = args.queue or f"parlour-load-{run}"
    data_dir = Path(tempfile.mkdtemp(prefix="parlour-load-bench-"))
    configure_environment(args, data_dir, queue)
    created = ensure_database(args.database_url)

    # SIGTERM (a CI cancel, a kill of this process) unwinds like Ctrl-C: everything stops.
    # SIGINT is set too: a shell starts a background job with it ignored, and then Python
    # would not raise KeyboardInterrupt for it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)

    import django

    django.setup()
    from django.core.management import call_command

    print(f"Machine: {machine_line()}")
    print(f"At start: {load_line()}")
    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    removed = delete_stale_runs(USER_PREFIX)
    phases = ["steady", "kills"] if args.phase == "both" else [args.phase]
    print(
        f"{database_line(created, removed)}; Redis {args.redis_url} queue {queue};"
        f" gunicorn {WORKERS} sync workers, DEBUG off; Celery worker prefork"
        f" concurrency {WORKER_CONCURRENCY}; beat, sweeper every {SWEEP_EVERY_S} s for bot turns"
        f" still for {SWEEP_AFTER_S} s"
    )
    print(
        f"Command: bench/load.py --phase {args.phase} --duration {args.duration:g} --clients"
        f" {args.clients} --drain {args.drain:g} --poll-every {args.poll_every:g}"
        f" --kill-every {args.kill_every:g} --gulliver-target {args.gulliver_target}"
    )
    keys_before = redis_keys(args.redis_url)
    users, password = create_users(run, args.clients)
    server: Gunicorn | None = None
    worker = celery_worker(data_dir, queue, run)
    beat = celery_beat(data_dir)
    monitor: Monitor | None = None
    failures = 0
    results: list[PhaseResult] = []
    try:
        worker.start()
        beat.start()
        server = Gunicorn(data_dir)
        server.wait_ready()
        if not wait_worker_ready(worker.log, 0):
            raise SystemExit(f"load: the Celery worker did not start; see {worker.log}")

        def database_pids() -> list[int]:
            import psycopg

            host, port, user, name = check_database_url(args.database_url)
            with psycopg.connect(host=host, port=port, user=user, dbname=name) as c:
                rows = c.execute(
                    "SELECT pid FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ).fetchall()
            return [row[0] for row in rows]

        gunicorn = server
        monitor = Monitor(
            args.redis_url,
            queue,
            {"gunicorn": gunicorn.pids, "worker": worker.pids, "beat": beat.pids},
            database_pids,
        )
        monitor.start()
        https = [HttpClient(server.port) for _ in users]
        logins = login_all(https, users, password)
        values = [v for _, v in logins.samples["login"]]
        print(
            f"Logged {len(users)} clients in through the form at once: login POST"
            f" {distribution(values)}"
        )
        for name in phases:
            results.append(run_phase(name, https, args, monitor, worker))
        monitor.stop_event.set()
        for result in results:
            failures += report_phase(result, args)
        pks = [pk for result in results for pk in result.phase.matches]
        problems, summary = check_matches(pks)
        print(f"\n{summary}")
        for problem in problems[:20]:
            print(f"  {problem}")
        failures += len(problems)
        for group in (worker, beat):
            errors = log_errors(group.log)
            print(
                f"{group.label} log: {len(errors)} error lines"
                + (f"; first: {errors[:3]}" if errors else "")
            )
        server_errors = log_errors(server.error_log)
        print(
            f"gunicorn error log: {len(server_errors)} error lines"
            + (f"; first: {server_errors[:3]}" if server_errors else "")
        )
        print(f"\nAt end: {load_line()}; the whole run took {time.perf_counter() - started:.0f} s")
    finally:
        if monitor is not None:
            monitor.stop_event.set()
        if server is not None:
            server.stop()
        worker.stop()
        beat.stop()
        if args.keep:
            print(f"Kept the run's rows: users {USER_PREFIX}{run}-*; queue {queue}")
        else:
            delete_rows(users)
            delete_new_redis_keys(args.redis_url, keys_before, queue)
        shutil.rmtree(data_dir, ignore_errors=True)
    return 1 if failures else 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--queue", default="", help="Celery queue (default parlour-load-<run>)")
    parser.add_argument("--phase", choices=["steady", "kills", "both"], default="both")
    parser.add_argument("--duration", type=float, default=300.0, help="seconds of load a phase")
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument(
        "--drain",
        type=float,
        default=300.0,
        help="seconds the clients may take to finish their matches after a phase (default 300)",
    )
    parser.add_argument("--poll-every", type=float, default=2.0, help="the page's poll (2 s)")
    parser.add_argument("--kill-every", type=float, default=60.0, help="kill phase's period")
    parser.add_argument(
        "--gulliver-target",
        type=int,
        default=50,
        help="Gulliver's winning score, low so that matches end and new ones start (default 50)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the run's rows afterwards")
    args = parser.parse_args(argv)
    if args.clients < 2:
        parser.error("--clients must be at least 2")
    if args.duration <= 0 or args.drain < 0 or args.poll_every <= 0 or args.kill_every <= 0:
        parser.error(
            "--duration, --poll-every and --kill-every must be positive, --drain not negative"
        )
    return args


if __name__ == "__main__":
    sys.exit(main())

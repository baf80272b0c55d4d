"""Requests to the served site, timed over HTTP, against a trivial login-required page.

    .venv/bin/python bench/web.py                  # 240 requests of each kind, 60 s load run
    .venv/bin/python bench/web.py --quick          # a smoke run: fewer requests, shorter matches
    .venv/bin/python bench/web.py --requests 480 --load-seconds 120

The site runs as a new user's server would run it: gunicorn with 2 sync workers (as the
Procfile does) on a free loopback port, PostgreSQL (a database of the benchmark's own,
``parlour_bench`` on 127.0.0.1:5432, created if missing and migrated), ``DEBUG`` off, Celery
eager (every seat is a person, so no bot task is ever due; a Gulliver round's next deal runs
inside the request that ended the round). ``PARLOUR_BENCH=1`` routes to ``config.bench_urls``:
the site plus ``/bench/trivial/``, a login-required page answering two bytes, the yardstick
every other request is divided by.

1. Long matches between two users are played through the services (``match_create``,
   ``match_join``, then ``move_submit`` with moves from ``games.bots.choose_move`` on the
   awaited seat's view) to the plies asked for, with seeds checked beforehand to keep each
   match running past its ply. A Faraway match goes on one entry more where the awaited move
   is a draw: every timed move hands the turn on (the whole work of a move; a draw keeps the
   turn and writes less), and none ends the round or the match. Each is then copied (the
   match row and every row that points at it, found by model introspection, so columns added
   later are copied too), once per timed request, so every timed move POST is a fresh legal
   move on a copy of its own.
2. gunicorn starts; the two users log in through the real login form (GET it, POST it with its
   CSRF token).
3. Timed, interleaved round-robin across kinds: the trivial page, the poll answered 204
   (current ``?version``), the poll that re-renders the table (a stale version), and the move
   POST as htmx sends it (``HX-Request``, the CSRF header) at every prepared ply, and the replay
   viewer on each game's longest match (the whole page and the htmx frame, at ply 5 and
   ``REPLAY_LATE_BEFORE_END`` plies before its end). Statuses are checked: anything unexpected
   is counted as an error.
4. Queries of each kind counted in process (``django.test.Client`` and
   ``CaptureQueriesContext`` on the same database, on copies kept for it); replay pages also
   timed in process with their move list rendered afresh (the server keeps it once rendered).
5. A load run: 40 clients, each a thread with a session of its own logged in through the form,
   playing 20 two-player matches (each between two of them) for 60 s. A client polls its table
   and, when the page offers it moves, posts one; when a match ends the pair starts another
   through the pages (new-match form, join). Reports moves/s, POST p50/p99 and errors. A
   client not awaited polls every ``--poll-every`` s (0.25 by default, eight times the page's
   rate), which keeps both sync workers busy: the latencies then include the wait for a free
   worker, and moves/s is what two workers serve with that many pollers.
6. Every match of the load run and every prepared match and copy is replayed through
   ``games.engines.replay`` and each stored chain hash compared (skipped, and said so, while
   the storage has no chain hashes).

The machine's load average and the CPU share of the gunicorn processes (and of PostgreSQL's
backends for this database, and of this client process) are reported for each phase: client,
server and database share the machine, so a phase whose shares do not add up to the cores
was waiting on something else. At the end the rows made by the run are deleted (``--keep``
keeps them), gunicorn is stopped and its temporary directory removed.
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    # Run as a plain script (``python bench/web.py``), the repo root is not on the path.
    sys.path.insert(0, str(ROOT))

from bench.machine import load_line, machine_line  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/parlour_bench"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
# Other sessions run their test suites against this one; the benchmark must never touch it.
FORBIDDEN_DATABASES = {"parlour_ci"}
USER_PREFIX = "webbench-"
# Rows of a crashed earlier run older than this are deleted at the start of the next one; a run
# takes minutes, so a younger prefix may be a run still going.
STALE_AFTER_S = 2 * 3600
HTTP_TIMEOUT_S = 30.0
TX_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
# A prepared match goes on past its ply until the awaited move hands the turn on (a Faraway
# turn is a draw, then a card): this many entries at most.
EXTRA_PLIES = 8
# The late replay frame is this many plies before the end of the longest match (500: ply 400).
REPLAY_LATE_BEFORE_END = 100
# In-process renders of each replay page with its move list not yet kept.
COLD_REPEATS = 20
WORKERS = 2

VERSION_RE = re.compile(r'data-version="(\d+)"')
STATUS_RE = re.compile(r'data-status="(\w+)"')
MOVE_RE = re.compile(r'data-move="([^"]+)"')
CSRF_HEADER_RE = re.compile(r'"X-CSRFToken": "([^"]+)"')
CSRF_INPUT_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
MATCH_PATH_RE = re.compile(r"/matches/(\d+)/$")

# Load-run clients prefer these moves, as the full-match tests do, so that matches end (and
# new ones start) within the run; otherwise they choose at random among the offered moves.
LOAD_PREFERENCES = {"faraway": ("play", "penalty"), "gulliver": ("play", "prepend")}


# --- Measuring helpers ---------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def p50(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far; 0 once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    # The command name (field 2) may hold spaces; the fields after its closing paren are fixed.
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
            found.append(int(entry.name))
    return found


@dataclass
class CpuWindow:
    """CPU used by the server, the database backends and this client over one phase."""

    label: str
    started: float = 0.0
    wall: float = 0.0
    server: dict[int, float] = field(default_factory=dict)
    database: dict[int, float] = field(default_factory=dict)
    client: float = 0.0
    load_start: str = ""
    load_end: str = ""

    def begin(self, server_pids: Iterable[int], database_pids: Iterable[int]) -> None:
        self.load_start = load_line()
        self.server = {pid: process_cpu(pid) for pid in server_pids}
        self.database = {pid: process_cpu(pid) for pid in database_pids}
        self.client = time.process_time()
        self.started = time.perf_counter()

    def end(self, server_pids: Iterable[int], database_pids: Iterable[int]) -> None:
        self.wall = time.perf_counter() - self.started
        self.client = time.process_time() - self.client
        # A backend that connected during the phase counts from zero: all its CPU is in it.
        self.server = {pid: process_cpu(pid) - self.server.get(pid, 0.0) for pid in server_pids}
        self.database = {
            pid: process_cpu(pid) - self.database.get(pid, 0.0) for pid in database_pids
        }
        self.load_end = load_line()

    def line(self) -> str:
        def share(seconds: float) -> str:
            return f"{100 * seconds / self.wall:.0f}%" if self.wall else "n/a"

        workers = ", ".join(share(v) for v in self.server.values())
        total = share(sum(self.server.values()))
        return (
            f"{self.label}: {self.wall:.1f} s wall; CPU share gunicorn {total}"
            f" ({workers} per process, master first), PostgreSQL backends"
            f" {share(sum(self.database.values()))}, this client {share(self.client)}"
            f" (of {os.cpu_count()} cores = {100 * (os.cpu_count() or 1)}%);"
            f" {self.load_start} at start, {self.load_end.removeprefix('load average ')} at end"
        )


# --- Environment, database and server ------------------------------------------------------


def configure_environment(database_url: str, data_dir: Path) -> None:
    """Settings come from the environment: set it before Django (or gunicorn) reads it."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["DEBUG"] = "0"
    os.environ["PARLOUR_BENCH"] = "1"
    os.environ["PARLOUR_DATA_DIR"] = str(data_dir)
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # No broker at all: Celery runs eagerly, so a Gulliver round's deal happens in the request.
    for name in ("REDIS_URL", "CELERY_BROKER_URL", "PARLOUR_PRODUCTION"):
        os.environ.pop(name, None)


def check_database_url(url: str) -> tuple[str, int, str, str]:
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise SystemExit(f"web: {url!r} is not PostgreSQL; this benchmark runs on PostgreSQL")
    host, name = parts.hostname or "", parts.path.lstrip("/")
    if host not in LOOPBACK:
        raise SystemExit(f"web: the database must be on loopback, not {host!r}")
    if not name or name in FORBIDDEN_DATABASES:
        raise SystemExit(f"web: refusing database {name!r}; use a database of the benchmark's own")
    return host, parts.port or 5432, parts.username or "postgres", name


def ensure_database(url: str) -> bool:
    """Create the benchmark's database if missing; True when it was created."""
    import psycopg
    from psycopg import sql

    host, port, user, name = check_database_url(url)
    with psycopg.connect(host=host, port=port, user=user, dbname="postgres", autocommit=True) as c:
        if c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return False
        c.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Gunicorn:
    """The site served as the Procfile serves it (2 sync workers), on loopback only."""

    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.error_log = data_dir / "gunicorn-error.log"
        gunicorn = Path(sys.executable).with_name("gunicorn")
        command = [str(gunicorn), "config.wsgi", "--chdir", str(ROOT)]
        command += ["--bind", f"127.0.0.1:{self.port}", "--workers", str(WORKERS)]
        # The Procfile logs every request; so does this, to a file rather than the terminal.
        command += ["--access-logfile", str(data_dir / "gunicorn-access.log")]
        command += ["--error-logfile", str(self.error_log)]
        self.process = subprocess.Popen(command, cwd=ROOT, env=os.environ.copy())

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(
                    f"web: gunicorn exited ({self.process.returncode}):\n{self.log_tail()}"
                )
            try:
                status = HttpClient(self.port).request("GET", "/accounts/login/").status
            except OSError:
                time.sleep(0.1)
                continue
            if status == 200 and len(children_of(self.process.pid)) >= WORKERS:
                return
            time.sleep(0.1)
        raise SystemExit(f"web: gunicorn did not answer within {timeout:.0f} s:\n{self.log_tail()}")

    def pids(self) -> list[int]:
        return [self.process.pid, *sorted(children_of(self.process.pid))]

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.error_log.read_text().splitlines()[-lines:])
        except OSError:
            return "(no error log)"

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # graceful: workers finish their request
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


# --- An HTTP client that behaves like the browser's htmx ----------------------------------


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: str
    seconds: float


class HttpClient:
    """One browser: its own cookies; a new connection per request, because gunicorn's sync
    workers close every connection after answering (the timings include the connect)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.csrf_token = ""

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT_S)
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        seconds = time.perf_counter() - start
        for value in response.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(value)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0":
                    self.cookies.pop(name, None)  # Django deletes a cookie with max-age 0
                else:
                    self.cookies[name] = morsel.value
        return Response(response.status, response.headers, data.decode("utf-8", "replace"), seconds)

    def htmx_headers(self, page: str) -> dict[str, str]:
        return {
            "HX-Request": "true",
            "HX-Current-URL": f"http://127.0.0.1:{self.port}{page}",
            "HX-Target": "table",
        }

    def login(self, username: str, password: str) -> None:
        """Through the real form: GET it for its CSRF token and cookie, POST it, then read
        the page's token for htmx (login rotates it)."""
        form_page = self.request("GET", "/accounts/login/")
        found = CSRF_INPUT_RE.search(form_page.body)
        if form_page.status != 200 or not found:
            raise SystemExit(f"web: the login form answered {form_page.status}")
        posted = self.request(
            "POST",
            "/accounts/login/",
            form={
                "csrfmiddlewaretoken": html.unescape(found.group(1)),
                "username": username,
                "password": password,
                "next": "",
            },
        )
        if posted.status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"web: logging {username} in answered {posted.status}")
        lobby = self.request("GET", "/matches/")
        token = CSRF_HEADER_RE.search(lobby.body)
        if lobby.status != 200 or not token:
            raise SystemExit(f"web: the lobby answered {lobby.status} after logging in")
        self.csrf_token = html.unescape(token.group(1))

    def post_move(self, pk: int, move: dict[str, Any], version: int) -> Response:
        """As htmx posts a move button's form: its fields, the CSRF header, the HX headers."""
        headers = self.htmx_headers(f"/matches/{pk}/")
        headers["X-CSRFToken"] = self.csrf_token
        form = {
            "csrfmiddlewaretoken": self.csrf_token,
            "move": json.dumps(move),
            "version": str(version),
        }
        return self.request("POST", f"/matches/{pk}/move/", form=form, headers=headers)

    def poll(self, pk: int, version: int) -> Response:
        headers = self.htmx_headers(f"/matches/{pk}/")
        return self.request("GET", f"/matches/{pk}/table/?version={version}", headers=headers)

    def post_form(self, path: str, form: dict[str, Any]) -> Response:
        return self.request("POST", path, form={"csrfmiddlewaretoken": self.csrf_token, **form})


def offered_moves(page: str) -> list[dict[str, Any]]:
    return [json.loads(html.unescape(m)) for m in MOVE_RE.findall(page)]


# --- Preparing matches through the services -----------------------------------------------


def turn_passing(engine: Any, state: Any, seat: int) -> list[dict[str, Any]]:
    """``seat``'s legal moves that hand the turn on and end neither the round nor the match.

    Such a move is the whole work of a move POST (the turn changes hands, so the awaited seats
    are rewritten too); a Faraway draw keeps the turn and does less. Timing only these makes
    the plies comparable, and leaves out a round's end, whose next deal eager Celery would run
    inside the request.
    """
    before = engine.awaiting(state)
    found = []
    for move in engine.legal_moves(state, seat):
        after = engine.apply(state, seat, move)
        if engine.is_over(after) or engine.round_over(after):
            continue
        if engine.awaiting(after) != before:
            found.append(move)
    return found


def choice_seed(seed: int, ply: int) -> int:
    return seed * 100_003 + ply


def dealt_options(seed: int, num_players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The options ``match_start`` hands the engine: the dealer is drawn from the seed."""
    from games.engines.base import seeded_rng

    return {**options, "dealer": seeded_rng(seed, "dealer").randrange(num_players)}


def played_to(game: str, seed: int, options: dict[str, Any], ply: int, level: str) -> bool:
    """Whether the preparation's moves keep a match of ``seed`` running past ``ply``.

    Mirrors ``prepare_match`` in the engine alone (no database, so a failed seed costs little),
    a next round dealt at once as eager Celery does after the round's last move.
    """
    from games.bots import choose_move
    from games.engines import get_engine

    engine = get_engine(game)
    state = engine.new_game(2, seed, dealt_options(seed, 2, options))
    played = 0
    while played < ply:
        if engine.is_over(state):
            return False
        seat = engine.awaiting(state)[0]
        view = engine.view(state, seat)
        state = engine.apply(
            state, seat, choose_move(game, level, view, seed=choice_seed(seed, played))
        )
        played += 1
        if not engine.is_over(state) and engine.round_over(state):
            state = engine.next_round(state)
            played += 1
    return not engine.is_over(state)


def running_seed(game: str, options: dict[str, Any], ply: int, level: str, first: int) -> int:
    for seed in range(first, first + 500):
        if played_to(game, seed, options, ply + EXTRA_PLIES, level):
            return seed
    raise SystemExit(f"web: no {game} seed from {first} keeps a match running to ply {ply}")


def entry_count(match: Any) -> int:
    from games.models import Move

    return Move.objects.filter(match_id=match.pk).count()


def prepare_match(
    *, game: str, seed: int, options: dict[str, Any], ply: int, level: str, users: Sequence[Any]
) -> Any:
    """A two-player match between ``users`` played through the services to ``ply`` entries,
    and on (at most ``EXTRA_PLIES`` more) until the awaited seat can hand the turn on."""
    from games.bots import choose_move
    from games.engines import get_engine
    from games.models import Match
    from games.services import match_create, match_join, move_submit

    engine = get_engine(game)
    match = match_create(
        game=game, num_players=2, created_by=users[0], options=dict(options), seed=seed
    )
    match_join(match=match, user=users[1])
    seats = {s.index: s for s in match.seats.all()}
    played = 0
    while True:
        match.refresh_from_db()  # a round's deal may have run after the move's commit
        if match.status != Match.Status.ACTIVE or not match.awaiting:
            raise SystemExit(f"web: {game} seed {seed} stopped at ply {played}, short of {ply}")
        seat = seats[match.awaiting[0]]
        state = engine.load(match.state)
        if played >= ply and turn_passing(engine, state, seat.index):
            return match
        if played >= ply + EXTRA_PLIES:
            raise SystemExit(f"web: {game} seed {seed}: no turn to hand on by ply {played}")
        view = engine.view(state, seat.index)
        move = choose_move(game, level, view, seed=choice_seed(seed, played))
        move_submit(match=match, seat=seat, move=move, expected_version=match.version)
        played = entry_count(match)


def copy_matches(original: Any, count: int) -> list[int]:
    """``count`` copies of ``original``: the row and every row pointing at it, column by column.

    Fields come from the models' metadata, so a column added later is copied as well. Unique
    fields of the match other than its key get fresh values from their defaults (the invite
    token). The rows pointing at the match (seats, the move log, whatever comes next) are
    copied in one ``INSERT ... SELECT`` per table.
    """
    from django.db import connection, transaction

    from games.models import Match

    fields = [f for f in Match._meta.concrete_fields if not f.primary_key]
    fresh = [f for f in fields if f.unique]
    for f in fresh:
        if not callable(f.default):
            raise SystemExit(f"web: cannot copy matches: unique {f.name} has no default to draw")
    copies = []
    for _ in range(count):
        copy = Match(**{f.attname: getattr(original, f.attname) for f in fields})
        for f in fresh:
            setattr(copy, f.attname, f.get_default())
        copies.append(copy)
    quote = connection.ops.quote_name
    with transaction.atomic():
        Match.objects.bulk_create(copies, batch_size=500)
        pks = [c.pk for c in copies]
        for relation in Match._meta.related_objects:
            if not (relation.one_to_many or relation.one_to_one) or relation.many_to_many:
                continue
            model = relation.related_model
            if not model._meta.concrete_fields or model._meta.proxy:
                continue
            pointer = relation.field.column
            columns = [f.column for f in model._meta.concrete_fields if not f.primary_key]
            chosen = ", ".join("c.id" if col == pointer else f"r.{quote(col)}" for col in columns)
            table = quote(model._meta.db_table)
            with connection.cursor() as cursor:
                cursor.execute(
                    f"INSERT INTO {table} ({', '.join(quote(col) for col in columns)}) "
                    f"SELECT {chosen} FROM {table} r CROSS JOIN unnest(%s::bigint[]) AS c(id) "
                    f"WHERE r.{quote(pointer)} = %s",
                    [pks, original.pk],
                )
    return pks


@dataclass
class Prepared:
    """A prepared match, its copies, and what each timed request on a copy posts."""

    game: str
    ply: int
    original: Any
    copies: list[int]
    seat: int
    version: int
    moves: list[dict[str, Any]]

    @property
    def label(self) -> str:
        return f"move POST, {'Faraway' if self.game == 'faraway' else 'Gulliver'} ply {self.ply}"


def fresh_moves(original: Any, count: int, seed: int) -> tuple[int, list[dict[str, Any]]]:
    """The awaited seat and ``count`` of its legal moves that hand the turn on, one per copy."""
    from games.engines import get_engine

    engine = get_engine(original.game)
    seat = original.awaiting[0]
    moves = turn_passing(engine, engine.load(original.state), seat)
    rng = random.Random(f"{seed}|{original.game}|{original.pk}")
    return seat, [rng.choice(moves) for _ in range(count)]


# --- The timed phase ----------------------------------------------------------------------


@dataclass
class Kind:
    """One kind of request: how to make its i-th instance, and what it measured."""

    key: str
    label: str
    expected: int
    make: Callable[[int], Callable[[], Response]]
    samples: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)
    # How many of ``queries`` were BEGIN, COMMIT or savepoints: round trips all the same.
    control: list[int] = field(default_factory=list)
    # Replay pages only: in process, with the move list's cache emptied first (ms).
    cold: list[float] = field(default_factory=list)


def build_kinds(
    clients: Sequence[HttpClient], prepared: list[Prepared], poll_match: Any, render_match: Any
) -> list[Kind]:
    user_a = clients[0]
    kinds = [
        Kind(
            "trivial",
            "trivial view (login required)",
            200,
            lambda i: lambda: user_a.request("GET", "/bench/trivial/"),
        ),
        Kind(
            "poll-204",
            "poll answered 204",
            204,
            lambda i: lambda: user_a.poll(poll_match.pk, poll_match.version),
        ),
        Kind(
            "poll-200",
            f"poll re-rendered ({render_match.game.title()} ply {entry_count(render_match)})",
            200,
            lambda i: lambda: user_a.poll(render_match.pk, render_match.version - 1),
        ),
    ]
    for p in prepared:

        def make(i: int, p: Prepared = p) -> Callable[[], Response]:
            client = clients[p.seat]  # user a holds seat 0 of every prepared match, b seat 1
            return lambda: client.post_move(p.copies[i], p.moves[i], p.version)

        kinds.append(Kind(f"move-{p.game}-{p.ply}", p.label, 200, make))
    for key, label, path, headers in replay_requests(prepared):
        kinds.append(
            Kind(
                key,
                label,
                200,
                lambda i, path=path, h=headers: lambda: user_a.request("GET", path, headers=h),
            )
        )
    return kinds


def replay_requests(prepared: list[Prepared]) -> list[tuple[str, str, str, dict[str, str]]]:
    """The replay viewer on the longest prepared match of each game (read only, so on the
    original): the whole page and the htmx frame, at ply 5 and ``REPLAY_LATE_BEFORE_END``
    plies before its end (Faraway 500: ply 400), as seat 0 (user a) sees it."""
    longest = {p.game: p for p in sorted(prepared, key=lambda p: p.ply)}
    requests = []
    for game, p in sorted(longest.items()):
        late = max(p.ply - REPLAY_LATE_BEFORE_END, 6)
        for ply in (5, late):
            path = f"/matches/{p.original.pk}/replay/?ply={ply}&as=0"
            name = "Faraway" if game == "faraway" else "Gulliver"
            frame_headers = {"HX-Request": "true", "HX-Target": "replay-frame"}
            requests.append(
                (f"replay-page-{game}-{ply}", f"replay page, {name} {ply}/{p.ply}", path, {})
            )
            requests.append(
                (
                    f"replay-frame-{game}-{ply}",
                    f"replay frame, {name} {ply}/{p.ply}",
                    path,
                    frame_headers,
                )
            )
    return requests


def run_rounds(kinds: list[Kind], rounds: range, *, record: bool) -> None:
    """Round-robin over the kinds, the starting kind rotating each round, so whatever else the
    machine does falls on every kind alike. Round ``r`` uses the ``r``-th copy of each match."""
    for r in rounds:
        shift = r % len(kinds)
        for kind in kinds[shift:] + kinds[:shift]:
            try:
                response = kind.make(r)()
            except OSError as exc:
                kind.errors.append(f"{type(exc).__name__}: {exc}")
                continue
            if response.status != kind.expected:
                kind.errors.append(f"{'' if record else 'warm-up '}answered {response.status}")
            elif record:
                kind.samples.append(response.seconds * 1000)


def count_queries(
    kinds: list[Kind],
    users: Sequence[Any],
    prepared: list[Prepared],
    poll_match: Any,
    render_match: Any,
    first_copy: int,
    repeats: int,
    show: str | None,
) -> list[str]:
    """Queries per request in process (same database, same code), on copies kept for it.

    Returns the SQL of the kind named by ``show`` (one request), for ``--show-queries``.
    """
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    clients = []
    for user in users:
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        client.get("/bench/trivial/")  # the first request may touch the session: not counted
        clients.append(client)
    htmx = {"HX-Request": "true"}
    by_key = {k.key: k for k in kinds}
    shown: list[str] = []

    def measure(key: str, send: Callable[[], Any]) -> None:
        with CaptureQueriesContext(connection) as captured:
            response = send()
        kind = by_key[key]
        if response.status_code != kind.expected:
            kind.errors.append(f"in process answered {response.status_code}")
        kind.queries.append(len(captured.captured_queries))
        kind.control.append(
            sum(q["sql"].lstrip().upper().startswith(TX_CONTROL) for q in captured.captured_queries)
        )
        if show == key and not shown:
            shown.extend(q["sql"] for q in captured.captured_queries)

    for _ in range(repeats):
        measure("trivial", lambda: clients[0].get("/bench/trivial/"))
        measure(
            "poll-204",
            lambda: clients[0].get(
                f"/matches/{poll_match.pk}/table/?version={poll_match.version}", headers=htmx
            ),
        )
        measure(
            "poll-200",
            lambda: clients[0].get(
                f"/matches/{render_match.pk}/table/?version={render_match.version - 1}",
                headers=htmx,
            ),
        )
    from django.core.cache import cache

    for key, _, path, headers in replay_requests(prepared):
        page = key.startswith("replay-page")
        for _ in range(repeats):
            if page:
                cache.clear()  # counted with the move list to render (one query more than kept)
            measure(key, lambda path=path, headers=headers: clients[0].get(path, headers=headers))
        if page:
            # The server keeps a match's move list once rendered (per process, per version):
            # the timed pages are served with it kept; here it is rendered afresh each time.
            for _ in range(COLD_REPEATS):
                cache.clear()
                start = time.perf_counter()
                clients[0].get(path)
                by_key[key].cold.append((time.perf_counter() - start) * 1000)
    for p in prepared:
        for i in range(first_copy, first_copy + repeats):
            measure(
                f"move-{p.game}-{p.ply}",
                lambda p=p, i=i: clients[p.seat].post(
                    f"/matches/{p.copies[i]}/move/",
                    {"move": json.dumps(p.moves[i]), "version": p.version},
                    headers=htmx,
                ),
            )
    return shown


# --- The load run -------------------------------------------------------------------------


@dataclass
class Pair:
    """Two clients sharing a table; the creator starts the next match when one ends."""

    game: str
    target: int
    pk: int = 0
    pks: list[int] = field(default_factory=list)
    started: int = 0
    finished: int = 0
    lock: threading.Condition = field(default_factory=threading.Condition)


@dataclass
class LoadTally:
    posts: list[float] = field(default_factory=list)
    polls_204: list[float] = field(default_factory=list)
    polls_rendered: list[float] = field(default_factory=list)
    other: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def merge(self, other: LoadTally) -> None:
        for name in ("posts", "polls_204", "polls_rendered", "other", "errors"):
            getattr(self, name).extend(getattr(other, name))


def new_match_form(game: str, target: int) -> dict[str, str]:
    form = {"game": game, "num_players": "2", "seat_0": "me", "seat_1": "person"}
    form["deadline_days"] = ""
    if game == "gulliver":
        form["target"] = str(target)
    return form


def create_match(creator: HttpClient, pair: Pair, tally: LoadTally) -> int | None:
    """Through the new-match form, the redirect followed to the table's page as a browser
    follows it; the new match's id."""
    created = creator.post_form("/matches/new/", new_match_form(pair.game, pair.target))
    tally.other.append(created.seconds * 1000)
    found = MATCH_PATH_RE.search(created.headers.get("Location", ""))
    if created.status != 302 or not found:
        tally.errors.append(f"new match answered {created.status}")
        return None
    pk = int(found.group(1))
    page = creator.request("GET", f"/matches/{pk}/")
    tally.other.append(page.seconds * 1000)
    if page.status != 200:
        tally.errors.append(f"a new match's page answered {page.status}")
        return None
    return pk


def join_match(joiner: HttpClient, pk: int, tally: LoadTally) -> bool:
    """The join button, then the table's page; the match starts with this second seat."""
    joined = joiner.post_form(f"/matches/{pk}/join/", {})
    tally.other.append(joined.seconds * 1000)
    page = joiner.request("GET", f"/matches/{pk}/")
    tally.other.append(page.seconds * 1000)
    if joined.status != 302 or page.status != 200:
        tally.errors.append(f"joining answered {joined.status}, then its page {page.status}")
        return False
    return True


class LoadClient(threading.Thread):
    """A person at one table: polls it, posts a move whenever the page offers some.

    When the match ends, the pair's creator starts the next one through the new-match form and
    the other client joins it through the join button, as two people would.
    """

    def __init__(
        self,
        index: int,
        client: HttpClient,
        pair: Pair,
        *,
        creator: bool,
        start_at: float,
        deadline: float,
        poll_every: float,
    ) -> None:
        super().__init__(name=f"load-client-{index}", daemon=True)
        self.client, self.pair, self.creator = client, pair, creator
        self.start_at, self.deadline, self.poll_every = start_at, deadline, poll_every
        self.rng = random.Random(f"load|{index}")
        self.tally = LoadTally()
        self.moves = 0

    def run(self) -> None:
        time.sleep(max(0.0, self.start_at - time.perf_counter()))
        pk, version = self.pair.pk, -1  # -1: the first poll renders the table
        while time.perf_counter() < self.deadline:
            try:
                polled = self.client.poll(pk, version)
                if polled.status == 204:
                    self.tally.polls_204.append(polled.seconds * 1000)
                    time.sleep(self.poll_every)
                    continue
                if polled.status not in (200, 286):
                    self.tally.errors.append(f"poll answered {polled.status}")
                    time.sleep(self.poll_every)
                    continue
                self.tally.polls_rendered.append(polled.seconds * 1000)
                version, over = self.play(pk, polled.body)
                if over:
                    pk, version = self.next_match(pk), -1
            except OSError as exc:
                self.tally.errors.append(f"{type(exc).__name__}: {exc}")
                time.sleep(self.poll_every)

    def play(self, pk: int, page: str) -> tuple[int, bool]:
        """Post offered moves while the page offers some; returns the version last seen, and
        whether the match is over."""
        while True:
            version = int(VERSION_RE.search(page).group(1))
            if STATUS_RE.search(page).group(1) == "finished":
                return version, True
            offered = offered_moves(page)
            if not offered or time.perf_counter() >= self.deadline:
                time.sleep(self.poll_every)
                return version, False
            keen = [m for m in offered if m["type"] in LOAD_PREFERENCES[self.pair.game]]
            posted = self.client.post_move(pk, self.rng.choice(keen or offered), version)
            if posted.status != 200:
                self.tally.errors.append(f"move POST answered {posted.status}")
                return -1, False
            self.tally.posts.append(posted.seconds * 1000)
            self.moves += 1
            page = posted.body

    def next_match(self, finished: int) -> int:
        """The pair's next match (``finished`` again when none is started before the end)."""
        pair = self.pair
        with pair.lock:
            if self.creator:
                if pair.pk == finished:
                    pair.finished += 1
                    if time.perf_counter() < self.deadline:
                        pk = create_match(self.client, pair, self.tally)
                        if pk is not None:
                            pair.pk = pk
                            pair.pks.append(pk)
                            pair.started += 1
                    pair.lock.notify_all()
                return pair.pk
            pair.lock.wait_for(
                lambda: pair.pk != finished,
                timeout=max(0.0, self.deadline - time.perf_counter()),
            )
            pk = pair.pk
        if pk != finished and not join_match(self.client, pk, self.tally):
            return finished
        return pk


@dataclass
class LoadResult:
    clients: int
    pairs: list[Pair]
    tally: LoadTally
    moves: int
    seconds: float
    cpu: CpuWindow


def run_load(
    *,
    port: int,
    users: Sequence[Any],
    password: str,
    seconds: float,
    poll_every: float,
    gulliver_target: int,
    server: Gunicorn,
    database_pids: Callable[[], list[int]],
) -> LoadResult:
    clients = [HttpClient(port) for _ in users]
    threads = [
        threading.Thread(target=c.login, args=(u.username, password), daemon=True)
        for c, u in zip(clients, users, strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if any(not c.csrf_token for c in clients):
        raise SystemExit("web: a load client could not log in")
    setup = LoadTally()
    pairs = []
    for i in range(0, len(clients), 2):
        # The first matches are set up before the clock starts, the same way as later ones.
        pair = Pair(game="faraway" if (i // 2) % 2 == 0 else "gulliver", target=gulliver_target)
        pk = create_match(clients[i], pair, setup)
        if pk is None or not join_match(clients[i + 1], pk, setup):
            raise SystemExit(f"web: could not start a load-run match: {setup.errors}")
        pair.pk = pk
        pair.pks.append(pk)
        pairs.append(pair)
    cpu = CpuWindow("load run")
    start_at = time.perf_counter() + 0.2
    runners = [
        LoadClient(
            i,
            clients[i],
            pairs[i // 2],
            creator=i % 2 == 0,
            start_at=start_at,
            deadline=start_at + seconds,
            poll_every=poll_every,
        )
        for i in range(len(clients))
    ]
    cpu.begin(server.pids(), database_pids())
    for r in runners:
        r.start()
    for r in runners:
        r.join(timeout=seconds + 2 * HTTP_TIMEOUT_S)
    elapsed = time.perf_counter() - start_at
    cpu.end(server.pids(), database_pids())
    tally = LoadTally()
    for r in runners:
        tally.merge(r.tally)
    if any(r.is_alive() for r in runners):
        tally.errors.append("a client was still running after the run")
    return LoadResult(len(clients), pairs, tally, sum(r.moves for r in runners), elapsed, cpu)


# --- Replaying the stored matches ---------------------------------------------------------


def chain_storage() -> Any:
    """``games.engines.replay`` when the storage keeps chain hashes, else ``None``."""
    from games.models import Match, Move

    try:
        from games.engines import replay
    except ImportError:
        return None
    if not (hasattr(Move, "chain_hash") and hasattr(Match, "head_hash")):
        return None
    return replay


def logged(match: Any) -> list[tuple[Any, Any, str]]:
    from games.models import Move

    rows = Move.objects.filter(match_id=match.pk).order_by("ply")
    return list(rows.values_list("seat", "payload", "chain_hash"))


def check_ends(match: Any, rows: list[tuple[Any, Any, str]], start_hash: str) -> str | None:
    """The match row agrees with its log: the head is the last link, ``ply`` its length."""
    head = rows[-1][2] if rows else start_hash
    if match.head_hash != head:
        return f"match {match.pk}: head_hash is not the last link"
    if hasattr(match, "ply") and match.ply != len(rows):
        return f"match {match.pk}: ply {match.ply} but {len(rows)} logged entries"
    return None


def verify_match(replay: Any, match: Any) -> tuple[int, str | None]:
    """Fold the whole log; the number of entries and the first problem found, if any."""
    from games.engines import get_engine

    engine = get_engine(match.game)
    rows = logged(match)
    entries = [(seat, move) for seat, move, _ in rows]
    bad = replay.verify(
        engine, match.num_players, match.seed, match.options, entries, [h for *_, h in rows]
    )
    if bad is not None:
        return len(rows), f"match {match.pk}: stored hash differs at ply {bad}"
    start = engine.state_hash(engine.new_game(match.num_players, match.seed, match.options))
    return len(rows), check_ends(match, rows, start)


def verify_copies(replay: Any, prepared: Prepared) -> tuple[int, list[str]]:
    """Each copy is the original's log (compared row by row) plus the entries posted to it,
    which are folded on from the original's last state: the same check as a whole fold, at a
    fraction of the cost (a copy of a 1500-ply match would otherwise be 1500 steps)."""
    from games.engines import get_engine
    from games.models import Match

    engine = get_engine(prepared.game)
    original = prepared.original
    rows = logged(original)
    entries = [(seat, move) for seat, move, _ in rows]
    frames = replay.frames(engine, original.num_players, original.seed, original.options, entries)
    final = deque(frames, maxlen=1)[0]
    base = engine.dump(final)
    problems: list[str] = []
    checked = 0
    for copy in Match.objects.filter(pk__in=prepared.copies):
        copied = logged(copy)
        checked += len(copied)
        if copied[: len(rows)] != rows:
            problems.append(
                f"copy {copy.pk}: its first {len(rows)} entries differ from the original"
            )
            continue
        state, link = engine.load(base), rows[-1][2]
        for ply, (seat, move, stored) in enumerate(copied[len(rows) :], start=len(rows) + 1):
            state = replay.step(engine, state, seat, move)
            link = replay.chain_hash(link, seat, move, engine.state_hash(state))
            if link != stored:
                problems.append(f"copy {copy.pk}: stored hash differs at ply {ply}")
                break
        else:
            problem = check_ends(copy, copied, "")
            if problem:
                problems.append(problem)
    return checked, problems


# --- Cleaning up ----------------------------------------------------------------------------


def delete_rows(users: Sequence[Any]) -> None:
    """The users' matches (and every row pointing at them), their sessions, and the users."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session
    from django.db import transaction
    from django.db.models import Q

    from games.models import Match

    ids = [u.pk for u in users]
    if not ids:
        return
    with transaction.atomic():
        mine = Match.objects.filter(Q(created_by_id__in=ids) | Q(seats__user_id__in=ids))
        pks = list(mine.values_list("pk", flat=True).distinct())
        # The rows pointing at the matches first, each table in one DELETE, so that deleting
        # the matches loads no snapshot and no log row into memory.
        for relation in Match._meta.related_objects:
            manager = relation.related_model._base_manager
            manager.filter(**{f"{relation.field.name}__in": pks}).delete()
        Match.objects.filter(pk__in=pks).only("pk").delete()
        # Sessions name their user only inside the encoded data (the form's and force_login's).
        keys = {str(pk) for pk in ids}
        stale = [
            s.session_key
            for s in Session.objects.all().iterator()
            if s.get_decoded().get("_auth_user_id") in keys
        ]
        Session.objects.filter(session_key__in=stale).delete()
        get_user_model().objects.filter(pk__in=ids).delete()


def delete_stale_runs(prefix: str = USER_PREFIX) -> int:
    """Rows left by an earlier run that crashed before cleaning up (its users, named
    ``prefix``..., are old)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    cutoff = timezone.now() - timedelta(seconds=STALE_AFTER_S)
    stale = list(
        get_user_model().objects.filter(username__startswith=prefix, date_joined__lt=cutoff)
    )
    delete_rows(stale)
    return len(stale)


def database_line(created: bool, removed: int) -> str:
    """The benchmark database's banner: its name, PostgreSQL's version, what setup did."""
    from django.db import connection

    return (
        f"Database {connection.settings_dict['NAME']} on PostgreSQL"
        f" {connection.cursor().connection.info.server_version // 10000}"
        f" ({'created, ' if created else ''}migrated"
        f"{f'; {removed} stale bench users removed' if removed else ''})"
    )


# --- Reporting ------------------------------------------------------------------------------


def ratio(a: float, b: float) -> float:
    """``a / b`` to the two decimals shown, so that a goal is judged on the printed figure."""
    return round(a / b, 2) if b else float("nan")


def verdict(ok: bool) -> str:
    return "yes" if ok else "NO"


def goals_table(kinds: list[Kind], prepared: list[Prepared]) -> list[str]:
    """The issue's goals: each move POST against the trivial page and against the same game's
    earliest ply; the 204 poll against the trivial page; the queries of every move POST."""
    by_key = {k.key: k for k in kinds}
    trivial = p50(by_key["trivial"].samples)

    def mid(p: Prepared) -> float:
        return p50(by_key[f"move-{p.game}-{p.ply}"].samples)

    earliest = {p.game: p for p in sorted(prepared, key=lambda p: -p.ply)}
    latest = {p.game: p for p in sorted(prepared, key=lambda p: p.ply)}
    header = (
        f"{'request':<36}{'p50 ms':>8}{'p95 ms':>8}{'p50/trivial':>13}  {'goal':<50}{'met?':>5}"
    )
    lines = [header, "-" * len(header)]

    def row(kind: Kind, goal: str = "", met: bool | None = None) -> None:
        if not kind.samples:
            lines.append(f"{kind.label:<36}{'no samples':>16}")
            return
        middle = p50(kind.samples)
        lines.append(
            f"{kind.label:<36}{middle:>8.2f}{percentile(kind.samples, 0.95):>8.2f}"
            f"{ratio(middle, trivial):>12.2f}x  {goal:<50}"
            f"{'' if met is None else verdict(met):>5}"
        )

    row(by_key["trivial"])
    poll = p50(by_key["poll-204"].samples)
    row(by_key["poll-204"], "<= 1.2x trivial", ratio(poll, trivial) <= 1.2)
    row(by_key["poll-200"])
    far = earliest.get("faraway")
    for p in prepared:
        kind = by_key[f"move-{p.game}-{p.ply}"]
        base = earliest[p.game]
        if p is base:
            if p.game == "faraway":
                row(kind, "<= 3x trivial", ratio(mid(p), trivial) <= 3.0)
            else:
                vs = f"(Faraway ply {far.ply}: {ratio(mid(p), mid(far)):.2f}x)" if far else ""
                row(kind, vs)
            continue
        to_base = ratio(mid(p), mid(base))
        goal = f"within 1.1x of ply {base.ply}: {to_base:.2f}x"
        if p.game == "gulliver" and far is not None:
            goal += f" (Faraway ply {far.ply}: {ratio(mid(p), mid(far)):.2f}x)"
        # The goal is set for the longest match of each game; plies between are for the curve.
        row(kind, goal, to_base <= 1.1 if p is latest[p.game] else None)
    counts = [by_key[f"move-{p.game}-{p.ply}"].queries for p in prepared]
    flat = [q for qs in counts for q in qs]
    if flat:
        low, high = min(flat), max(flat)
        measured = f"{low} at every ply" if low == high else f"{low} to {high}"
        lines.append(
            f"{'queries per move POST':<36}{measured:>29}  {'<= 8, equal at every ply':<50}"
            f"{verdict(high <= 8 and low == high):>5}"
        )
        each = ", ".join(
            f"{p.game.title()} {p.ply}: {'/'.join(map(str, qs))}"
            for p, qs in zip(prepared, counts, strict=True)
        )
        lines.append(f"{'':<36}({each})")
    replay_goals(by_key, row, prepared, lines)
    return lines


def replay_goals(
    by_key: dict[str, Kind],
    row: Callable[..., None],
    prepared: list[Prepared],
    lines: list[str],
) -> None:
    """The replay's goals: a late position costs at most 1.5x ply 5 of the same match, as a
    whole page and as a frame, with the same queries. Adds its rows to ``lines`` (``row``
    adds there too)."""
    requests = replay_requests(prepared)
    for early_key, *_ in requests[::4]:  # page-5, frame-5, page-late, frame-late per game
        game = early_key.split("-")[2]
        keys = [k for k, *_ in requests if k.split("-")[2] == game]
        page5, frame5, page_late, frame_late = (by_key[k] for k in keys)
        for early, late in ((page5, page_late), (frame5, frame_late)):
            row(early)
            if early.samples and late.samples:
                to_early = ratio(p50(late.samples), p50(early.samples))
                row(late, f"<= 1.5x ply 5: {to_early:.2f}x", to_early <= 1.5)
            if early.cold and late.cold:
                to_early = ratio(p50(late.cold), p50(early.cold))
                lines.append(
                    f"{'  list not kept (in process)':<36}{p50(early.cold):>8.2f}"
                    f"{p50(late.cold):>8.2f}{'':>13}  {f'late/ply 5: {to_early:.2f}x':<50}"
                    f"{verdict(to_early <= 1.5):>5}"
                )
            queries = sorted(set(early.queries + late.queries))
            if queries:
                same = len(queries) == 1
                measured = "/".join(map(str, queries))
                lines.append(
                    f"{'  queries, ' + early.label.split(',')[0]:<36}{measured:>29}"
                    f"  {'equal at every ply':<50}{verdict(same):>5}"
                )


def prepare_all(args: argparse.Namespace, users: Sequence[Any]) -> list[Prepared]:
    """Every prepared match through the services, then its copies: one per request on it."""
    from django.db import connection

    per_kind = args.warmup + args.requests + args.query_repeats
    plan = [
        ("faraway", args.faraway_plies, {}),
        ("gulliver", args.gulliver_plies, {"target": args.gulliver_target}),
    ]
    prepared: list[Prepared] = []
    t0 = time.perf_counter()
    for game, plies, options in plan:
        if not plies:
            continue
        # One seed per game, so that its shorter matches are the longest one's beginning.
        seed = running_seed(game, options, max(plies), args.level, args.seed)
        for ply in sorted(plies):
            original = prepare_match(
                game=game, seed=seed, options=options, ply=ply, level=args.level, users=users
            )
            seat, moves = fresh_moves(original, per_kind, args.seed)
            prepared.append(
                Prepared(game, entry_count(original), original, [], seat, original.version, moves)
            )
    prep_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for p in prepared:
        p.copies = copy_matches(p.original, per_kind)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # the planner then sees the tables as a long-running site's
    seeds = ", ".join(
        f"{game} {seed}" for game, seed in {(p.game, p.original.seed): 0 for p in prepared}
    )
    print(
        f"Prepared {len(prepared)} matches through the services in {prep_s:.1f} s"
        f" ({args.level} moves; seeds {seeds}; Gulliver target {args.gulliver_target});"
        f" each copied {per_kind} times in {time.perf_counter() - t0:.1f} s"
        f" ({sum(p.ply for p in prepared) * per_kind} log rows)"
    )
    return prepared


def report_timed(
    args: argparse.Namespace, kinds: list[Kind], prepared: list[Prepared], cpu: CpuWindow
) -> int:
    """Prints the timed phase and the queries; returns the number of errors."""
    print(
        f"\nTimed over HTTP: {args.requests} requests of each kind, interleaved round-robin"
        f" after {args.warmup} warm-up round(s); every move POST on a copy of its own."
    )
    print(cpu.line())
    print()
    print("\n".join(goals_table(kinds, prepared)))
    print(
        "\nQueries per request (in process, django.test.Client on the same database;"
        " BEGIN, COMMIT and savepoints included, and counted apart in brackets):"
    )
    for kind in kinds:
        counts = " ".join(f"{q} ({c})" for q, c in zip(kind.queries, kind.control, strict=True))
        print(f"  {kind.label:<36}{counts}")
    errors = 0
    for kind in kinds:
        if kind.errors:
            errors += len(kind.errors)
            print(f"  ERRORS {kind.label}: {len(kind.errors)}, first: {kind.errors[:3]}")
    return errors


def report_load(args: argparse.Namespace, load: LoadResult) -> int:
    """Prints the load run's figures; returns its number of errors."""
    t = load.tally
    polls = len(t.polls_204) + len(t.polls_rendered)
    post_p99 = percentile(t.posts, 0.99) if t.posts else float("nan")
    print(
        f"\nLoad run: {load.clients} clients (threads, each logged in through the form),"
        f" {len(load.pairs)} two-player matches at once (half Faraway, half Gulliver to"
        f" {args.load_gulliver_target}) for {load.seconds:.1f} s; a client waits"
        f" {args.poll_every:g} s between polls while it is not its turn"
    )
    print(load.cpu.line())
    print(
        f"  moves: {load.moves}, {load.moves / load.seconds:.1f} moves/s;"
        f" move POST p50 {p50(t.posts):.1f} ms, p99 {post_p99:.1f} ms"
    )
    served = len(t.posts) + polls + len(t.other)
    print(
        f"  requests: {served} ({served / load.seconds:.0f}/s); polls: {polls}"
        f" ({polls / load.seconds:.0f}/s), answered 204 p50"
        f" {p50(t.polls_204):.1f} ms, re-rendered p50 {p50(t.polls_rendered):.1f} ms;"
        f" other pages (new match, join, table): {len(t.other)}"
    )
    print(
        f"  matches finished: {sum(p.finished for p in load.pairs)},"
        f" new matches started: {sum(p.started for p in load.pairs)}"
    )
    first = f"; first: {t.errors[:5]}" if t.errors else ""
    print(f"  errors: {len(t.errors)} (goal 0) {verdict(not t.errors)}{first}")
    return len(t.errors)


def check_hashes(prepared: list[Prepared], load: LoadResult | None) -> int:
    """Replays the load run's matches and the prepared ones, compares every stored hash;
    returns the number of problems (0 while the storage keeps no chain)."""
    from games.models import Match

    replay = chain_storage()
    if replay is None:
        print(
            "\nHash check skipped: old storage (no games.engines.replay with Move.chain_hash"
            " and Match.head_hash)."
        )
        return 0
    t0 = time.perf_counter()
    problems: list[str] = []
    folded = matches = 0
    load_pks = [pk for p in (load.pairs if load else []) for pk in p.pks]
    for match in Match.objects.filter(pk__in=load_pks + [p.original.pk for p in prepared]):
        if match.status == Match.Status.WAITING:
            continue  # a match started at the very end, never joined: nothing logged
        count, problem = verify_match(replay, match)
        folded += count
        matches += 1
        if problem:
            problems.append(problem)
    copied = 0
    for p in prepared:
        count, found = verify_copies(replay, p)
        copied += count
        matches += len(p.copies)
        problems += found
    outcome = (
        f"{len(problems)} PROBLEMS"
        if problems
        else "every stored hash matches, and head_hash is the last link"
    )
    print(
        f"\nHash check: {matches} matches ({len(load_pks)} from the load run) in"
        f" {time.perf_counter() - t0:.1f} s: {folded} entries folded through"
        f" games.engines.replay, {copied} entries of copies compared to their original's and"
        f" folded on from its last state; {outcome}"
    )
    for problem in problems[:20]:
        print(f"  {problem}")
    return len(problems)


def create_users(run: str, load_clients: int) -> tuple[list[Any], list[Any], str]:
    """Two users for the timed phase and ``load_clients`` for the load run; their password."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    password = secrets.token_urlsafe(12)
    # One hash for every user: hashing is slow on purpose, and the login form checks it anyway.
    hashed = make_password(password)
    user_model = get_user_model()
    pair = [f"{USER_PREFIX}{run}-a", f"{USER_PREFIX}{run}-b"]
    crowd = [f"{USER_PREFIX}{run}-load{i:02d}" for i in range(load_clients)]
    user_model.objects.bulk_create([user_model(username=n, password=hashed) for n in pair + crowd])
    by_name = {u.username: u for u in user_model.objects.filter(username__in=pair + crowd)}
    return [by_name[n] for n in pair], [by_name[n] for n in crowd], password


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    check_database_url(args.database_url)
    data_dir = Path(tempfile.mkdtemp(prefix="parlour-web-bench-"))
    configure_environment(args.database_url, data_dir)
    created = ensure_database(args.database_url)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    print(f"Machine: {machine_line()}")
    print(f"At start: {load_line()}")
    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    removed = delete_stale_runs()
    print(
        f"{database_line(created, removed)};"
        f" gunicorn {WORKERS} sync workers, DEBUG off, Celery eager"
    )

    def database_pids() -> list[int]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return [row[0] for row in cursor.fetchall()]

    run = secrets.token_hex(3)
    pair_users, load_users, password = create_users(run, args.load_clients)
    server: Gunicorn | None = None
    failures = 0
    try:
        prepared = prepare_all(args, pair_users)
        # The 204 poll does the same work at any ply: it asks the longest match. The table is
        # re-rendered from the Faraway match nearest --render-ply.
        poll_match = max(prepared, key=lambda p: p.ply).original
        faraway = [p for p in prepared if p.game == "faraway"] or prepared
        render_match = min(faraway, key=lambda p: abs(p.ply - args.render_ply)).original

        server = Gunicorn(data_dir)
        server.wait_ready()
        clients = [HttpClient(server.port), HttpClient(server.port)]
        for client, user in zip(clients, pair_users, strict=True):
            client.login(user.username, password)
        kinds = build_kinds(clients, prepared, poll_match, render_match)
        # The warm-up rounds connect each worker to the database: the CPU window opens after.
        run_rounds(kinds, range(args.warmup), record=False)
        timed_cpu = CpuWindow("timed requests")
        timed_cpu.begin(server.pids(), database_pids())
        run_rounds(kinds, range(args.warmup, args.warmup + args.requests), record=True)
        timed_cpu.end(server.pids(), database_pids())
        shown = count_queries(
            kinds,
            pair_users,
            prepared,
            poll_match,
            render_match,
            args.warmup + args.requests,
            args.query_repeats,
            args.show_queries,
        )
        load = None
        if args.load_seconds > 0 and load_users:
            load = run_load(
                port=server.port,
                users=load_users,
                password=password,
                seconds=args.load_seconds,
                poll_every=args.poll_every,
                gulliver_target=args.load_gulliver_target,
                server=server,
                database_pids=database_pids,
            )
        server.stop()

        failures += report_timed(args, kinds, prepared, timed_cpu)
        if shown:
            print(f"\nSQL of one {args.show_queries} request:")
            for i, sql in enumerate(shown, 1):
                print(f"  {i:>2}. {sql[:300]}")
        if load is not None:
            failures += report_load(args, load)
        failures += check_hashes(prepared, load)
        print(f"\nAt end: {load_line()}; the whole run took {time.perf_counter() - started:.0f} s")
    finally:
        if server is not None:
            server.stop()
        if args.keep:
            print(f"Kept the run's rows: users {USER_PREFIX}{run}-*")
        else:
            delete_rows(pair_users + load_users)
        shutil.rmtree(data_dir, ignore_errors=True)
    return 1 if failures else 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--requests", type=int, default=240, help="timed requests of each kind")
    parser.add_argument("--warmup", type=int, default=8, help="untimed rounds first (default 8)")
    parser.add_argument(
        "--query-repeats", type=int, default=3, help="in-process query counts per kind"
    )
    parser.add_argument("--faraway-plies", type=int, nargs="*", default=[5, 150, 500])
    parser.add_argument("--gulliver-plies", type=int, nargs="*", default=[5, 1500])
    parser.add_argument(
        "--gulliver-target",
        type=int,
        default=1000,
        help="winning score of the prepared Gulliver match, high so it runs long (default 1000)",
    )
    parser.add_argument(
        "--level", default="random", choices=["random", "greedy"], help="preparation's bot level"
    )
    parser.add_argument("--seed", type=int, default=1, help="first seed tried (default 1)")
    parser.add_argument(
        "--render-ply", type=int, default=150, help="Faraway ply of the re-rendered poll"
    )
    parser.add_argument("--load-clients", type=int, default=40, help="even; two per match")
    parser.add_argument("--load-seconds", type=float, default=60.0, help="0 skips the load run")
    parser.add_argument(
        "--poll-every",
        type=float,
        default=0.25,
        help="seconds a load client waits between polls while it is not its turn (default "
        "0.25: 40 clients poll like 320 open tables at the page's 2 s)",
    )
    parser.add_argument(
        "--load-gulliver-target",
        type=int,
        default=50,
        help="Gulliver winning score in the load run, low so matches end and new ones start",
    )
    parser.add_argument(
        "--show-queries",
        metavar="KIND",
        help="print the SQL of one in-process request of KIND (e.g. move-gulliver-1500)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the run's rows afterwards")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: 30 requests, plies 5 60 / 5 200, 10 clients for 10 s",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.requests, args.warmup, args.query_repeats = 30, 2, 2
        args.faraway_plies, args.gulliver_plies, args.render_ply = [5, 60], [5, 200], 60
        args.load_clients, args.load_seconds = 10, 10.0
    if args.load_clients % 2:
        parser.error("--load-clients must be even: two clients per match")
    if args.requests < 1 or args.warmup < 1 or args.query_repeats < 1:
        parser.error("--requests, --warmup and --query-repeats must be at least 1")
    if not args.faraway_plies and not args.gulliver_plies:
        parser.error("prepare at least one match")
    return args


if __name__ == "__main__":
    sys.exit(main())

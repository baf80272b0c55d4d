"""The embedded default as a new user runs it (``make run``): one SQLite file, two writers.

A real ``runserver`` (threaded) and a real Celery worker on kombu's filesystem broker run as
subprocesses on a fresh data directory, exactly as ``Procfile.dev`` starts them. People then
play through HTTP only, as a browser would: the login form, the new-match form, the table's
poll and its move buttons, every move clicked twice at the same moment, and two people racing
for the last seat of a waiting match, while the worker writes the bots' moves and Gulliver's
deals into the same file. Before SQLite ran with IMMEDIATE transactions, WAL and a busy
timeout, such a session ended in 500s ("database is locked"); now every answer must be one the
page expects, both logs must be clean, and every match's log must replay to its hash chain.

Both processes get this run's ``DJANGO_SETTINGS_MODULE``, so pointing it at a module that
imports ``config.settings`` and drops the SQLite ``OPTIONS`` shows the test failing as the old
default did.
"""

from __future__ import annotations

import functools
import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path
from random import Random
from typing import Any

import pytest
from django.conf import settings

from games.engines import get_engine, replay
from tests.factories import PASSWORD

# How long people keep playing; the worker answers the bots' turns all along.
PLAY_SECONDS = 45.0
# A table's poll while nobody asks us to move (htmx polls every 2 s; quicker here, for load).
POLL_SECONDS = 0.15
# Longer than SQLite's busy timeout (20 s), so a request waiting for the lock is not cut off.
HTTP_TIMEOUT = 40.0
START_TIMEOUT = 60.0
# Seconds between two races for the last seat of a new waiting match.
RACE_EVERY = 12.0
# Every answer the pages expect: a page, a poll with nothing new (204) or the last one (286),
# a form's redirect, or a refusal that shows the table as it stands (409).
EXPECTED_STATUSES = {200, 204, 286, 302, 409}
PEOPLE = ("ann", "bea", "cal")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _celery_command() -> list[str]:
    # The venv's own console script, as make run puts .venv/bin first on PATH.
    script = Path(sys.executable).with_name("celery")
    return [str(script)] if script.exists() else [sys.executable, "-m", "celery"]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Hand 3xx answers back (counted like any other) instead of following them."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _gist(body: str) -> str:
    """An error page's title and message (Django's debug page), else the body's start."""
    title = re.search(r"<title>(.*?)</title>", body, re.S)
    value = re.search(r'<pre class="exception_value">(.*?)</pre>', body, re.S)
    if title and value:
        return " ".join(html.unescape(f"{title.group(1)}: {value.group(1)}").split())
    return body[:500]


@dataclass
class Tally:
    """Every answer the site gave, by kind of request and status; shared by all threads."""

    counts: Counter = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    # Move posts answered 200, by match: each must be exactly one person's Move row.
    moves_played: Counter = field(default_factory=Counter)
    double_clicks: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, method: str, path: str, status: int, body: str) -> None:
        with self.lock:
            self.counts[(kind, status)] += 1
            if status not in EXPECTED_STATUSES:
                self.unexpected.append(f"{method} {path} -> {status}: {_gist(body)}")

    def by_status(self) -> Counter:
        totals: Counter = Counter()
        for (_, status), count in self.counts.items():
            totals[status] += count
        return totals


@dataclass
class Table:
    """What a table page (whole or the ``#table`` partial) tells its reader."""

    version: int
    status: str
    seat: int | None
    moves: list[str]  # each button's move, the JSON exactly as the form posts it


TABLE_TAG = re.compile(r'<section id="table"[^>]*>')


def _table(page: str) -> Table:
    tag = TABLE_TAG.search(page)
    assert tag, f"no #table in the page: {page[:500]}"
    attrs = dict(re.findall(r'data-([a-z]+)="([^"]*)"', tag.group(0)))
    buttons = [html.unescape(m) for m in re.findall(r'data-move="([^"]+)"', page)]
    seat = attrs.get("seat")
    return Table(
        version=int(attrs["version"]),
        status=attrs["status"],
        seat=int(seat) if seat is not None else None,
        moves=buttons,
    )


class Person:
    """One person in one browser: their own cookie jar, talking HTTP to the real server."""

    def __init__(self, base_url: str, username: str, tally: Tally) -> None:
        self.base_url = base_url
        self.username = username
        self.tally = tally
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )
        self.csrf = ""

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        fields: dict[str, str] | None = None,
        *,
        htmx: bool = False,
    ) -> tuple[int, str, str]:
        """Status, body and Location of one request; forms post with the page's CSRF token."""
        headers = {"HX-Request": "true"} if htmx else {}
        data = None
        if method == "POST":
            fields = {"csrfmiddlewaretoken": self.csrf, **(fields or {})}
            data = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.csrf  # what base.html's hx-headers adds
        request = urllib.request.Request(
            self.base_url + path, data=data, headers=headers, method=method
        )
        try:
            with self.opener.open(request, timeout=HTTP_TIMEOUT) as response:
                status, body = response.status, response.read().decode()
                location = response.headers.get("Location", "")
        except urllib.error.HTTPError as exc:
            status, body = exc.code, exc.read().decode(errors="replace")
            location = exc.headers.get("Location", "")
        self.tally.record(kind, method, path, status, body)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        if token:
            self.csrf = token.group(1)
        return status, body, location

    def log_in(self) -> None:
        status, _, _ = self.request("login", "GET", "/accounts/login/")
        assert status == 200
        fields = {"username": self.username, "password": PASSWORD, "next": ""}
        status, body, location = self.request("login", "POST", "/accounts/login/", fields)
        assert status == 302, f"{self.username} could not log in: {body[:500]}"
        # Logging in rotates the CSRF token: the lobby the browser lands on carries the new one.
        status, _, _ = self.request("lobby", "GET", urllib.parse.urlsplit(location).path)
        assert status == 200

    def match_new(self, game: str, seats: list[str], **options: str) -> int:
        """A match through the new-match form; ``seats`` are seat 1's choice, then the rest."""
        status, _, _ = self.request("new", "GET", "/matches/new/")
        assert status == 200
        fields = {"game": game, "num_players": str(len(seats)), "deadline_days": ""}
        # A browser sends every seat's select, shown or not: the extras say "person".
        choices = [*seats, *["person"] * (8 - len(seats))]
        fields.update({f"seat_{index}": choice for index, choice in enumerate(choices)})
        fields.update(options)
        status, body, location = self.request("new", "POST", "/matches/new/", fields)
        assert status == 302, f"the new-match form refused: {body[:1000]}"
        found = re.fullmatch(r"/matches/(\d+)/", urllib.parse.urlsplit(location).path)
        assert found, location
        return int(found.group(1))

    def open_table(self, pk: int) -> Table:
        status, body, _ = self.request("detail", "GET", f"/matches/{pk}/")
        assert status == 200
        return _table(body)


def _at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` in threads released by one barrier, as close to the same moment as can be."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HTTP_TIMEOUT + 15)
    assert not any(t.is_alive() for t in threads), "a request never returned"
    if errors:
        raise errors[0]
    return results


def play(person: Person, pk: int, deadline: float, rng: Random) -> bool:
    """Poll ``pk``'s table and click a legal move twice whenever this person is asked to move,
    until the match ends (True) or ``deadline`` passes (False)."""
    path = f"/matches/{pk}/table/"
    post = functools.partial(person.request, "move", "POST", f"/matches/{pk}/move/", htmx=True)
    status, page, _ = person.request("poll", "GET", path, htmx=True)
    while time.monotonic() < deadline:
        if status not in {200, 286, 409}:
            # Counted as unexpected already; carry on from the table as it stands.
            time.sleep(POLL_SECONDS)
            status, page, _ = person.request("poll", "GET", path, htmx=True)
            continue
        table = _table(page)
        if status == 286 or table.status == "finished":
            return True
        if not table.moves or table.status != "active":
            time.sleep(POLL_SECONDS)
            status, body, _ = person.request(
                "poll", "GET", f"{path}?version={table.version}", htmx=True
            )
            if status == 204:
                status = 200  # nothing new: the page in hand still stands
            else:
                page = body
            continue
        fields = {"move": rng.choice(table.moves), "version": str(table.version)}
        answers = _at_once([functools.partial(post, fields)] * 2)
        played = [answer for answer in answers if answer[0] == 200]
        # One click of the two plays; the other finds the version moved on. (Both may be
        # refused when a bot's vote or a rival's move got in first.)
        assert len(played) <= 1, f"one move played twice on match {pk}"
        with person.tally.lock:
            person.tally.double_clicks += 1
            person.tally.moves_played[pk] += len(played)
        status, page, _ = (played or answers)[0]
    return False


def series(person: Person, game: str, seats: list[str], deadline: float, **options: str) -> None:
    """Matches one after another, each played to its end, until ``deadline``."""
    rng = Random(f"{person.username}-{game}")
    while time.monotonic() < deadline - 3:
        pk = person.match_new(game, seats, **options)
        table = person.open_table(pk)
        assert (table.status, table.seat) == ("active", 0)
        play(person, pk, deadline, rng)


@dataclass
class Site:
    base_url: str
    env: dict[str, str]
    data_dir: Path
    server_log: Path
    worker_log: Path
    server: subprocess.Popen
    worker: subprocess.Popen

    def stop(self) -> None:
        for proc in (self.server, self.worker):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)  # the worker's warm shutdown ends its task
        for proc in (self.server, self.worker):
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def _manage(env: dict[str, str], *args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=cwd or settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _wait_until(check: Callable[[], bool], what: str, procs: list[subprocess.Popen]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        for proc in procs:
            assert proc.poll() is None, f"{proc.args} exited with {proc.returncode}"
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _server_answers(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(base_url + "/accounts/login/", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


CREATE_PEOPLE = """
from django.contrib.auth import get_user_model
User = get_user_model()
for name in {names!r}:
    User.objects.create_user(name, email=f"{{name}}@example.com", password={password!r})
"""

# Everything the checks need, read by the site's own models once both processes have stopped.
DUMP_MATCHES = """
import json, os
from games.models import Match
out = []
for m in Match.objects.order_by("pk"):
    out.append({
        "pk": m.pk, "game": m.game, "num_players": m.num_players, "seed": m.seed,
        "options": m.options, "status": m.status, "ply": m.ply, "head_hash": m.head_hash,
        "seats": [[s.index, s.user.username if s.user else None, s.bot_level]
                  for s in m.seats.select_related("user").order_by("index")],
        "moves": [[mv.ply, mv.seat, mv.payload, mv.chain_hash, mv.auto]
                  for mv in m.moves.order_by("ply")],
    })
with open(os.environ["PARLOUR_DUMP"], "w") as f:
    json.dump(out, f)
"""


@pytest.fixture
def embedded_site(tmp_path: Path) -> Iterator[Site]:
    """``make run``'s web process and worker on a fresh SQLite file, people already registered."""
    with make_run_site(tmp_path) as site:
        yield site


@contextmanager
def make_run_site(tmp_path: Path, code: Path | None = None, beat: bool = False) -> Iterator[Site]:
    """``make run``'s processes (web, worker, and beat if asked) on a fresh SQLite file in
    ``tmp_path``, people already registered; ``code`` runs another checkout (bench/, to measure
    the commit before side by side)."""
    code = Path(code or settings.BASE_DIR)
    data_dir = tmp_path / "var"
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "CELERY_BROKER_URL",
            "PARLOUR_PRODUCTION",
            "SQLITE_BUSY_TIMEOUT",
            # make run leaves debug mode to developers who ask for it (PARLOUR_DEBUG=1).
            "DEBUG",
            "PARLOUR_DEBUG",
            "PARLOUR_LIVE",
            "PARLOUR_LIVE_LOCAL",
            "PARLOUR_LIVE_SOCKET",
        }
    }
    env.update(
        {
            "PARLOUR_DATA_DIR": str(data_dir),
            "CELERY_BROKER_URL": "filesystem",
            "PARLOUR_BOT_WINDOW": "0",
            "PARLOUR_ROUND_PAUSE": "0",
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            # pytest-django put the settings module here; a run may pass another on purpose.
            "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings"),
        }
    )
    _manage(env, "migrate", "--noinput", cwd=code)
    _manage(env, "shell", "-c", CREATE_PEOPLE.format(names=PEOPLE, password=PASSWORD), cwd=code)

    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    server_log, worker_log = tmp_path / "web.log", tmp_path / "worker.log"
    procs: list[subprocess.Popen] = []
    with server_log.open("w") as web_out, worker_log.open("w") as worker_out:
        try:
            procs.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                    cwd=code,
                    env=env,
                    stdout=web_out,
                    stderr=subprocess.STDOUT,
                )
            )
            procs.append(
                subprocess.Popen(
                    [
                        *_celery_command(),
                        *("-A", "config", "worker", "--pool=solo"),
                        *("--without-gossip", "--without-mingle", "-l", "info"),
                    ],
                    cwd=code,
                    env=env,
                    stdout=worker_out,
                    stderr=subprocess.STDOUT,
                )
            )
            site = Site(base_url, env, data_dir, server_log, worker_log, *procs)
            if beat:
                procs.append(
                    subprocess.Popen(
                        [*_celery_command(), "-A", "config", "beat", "-l", "info"],
                        cwd=code,
                        env=env,
                        stdout=web_out,
                        stderr=subprocess.STDOUT,
                    )
                )
            _wait_until(lambda: _server_answers(base_url), "the web server", procs)
            _wait_until(lambda: " ready." in worker_log.read_text(), "the worker", procs)
            yield site
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                proc.wait(timeout=10)


class Crew:
    """The people's threads: started together, joined with a bound, their failures kept."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []
        self.errors: list[BaseException] = []

    def start(self, work: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        def run() -> None:
            try:
                work(*args, **kwargs)
            except BaseException as exc:
                self.errors.append(exc)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        self.threads.append(thread)

    def join(self, deadline: float) -> None:
        # Threads started while joining (the seat races start players) are joined as well.
        index = 0
        while index < len(self.threads):
            self.threads[index].join(max(0.0, deadline - time.monotonic()))
            index += 1
        assert not any(t.is_alive() for t in self.threads), "a person's thread never stopped"


def seat_races(
    people: dict[str, Person], crew: Crew, deadline: float, races: list[tuple[int, str]]
) -> None:
    """Ann opens a match with one seat left for a person; Bea and Cal each click "Take a seat"
    twice at the same moment. Exactly one of them sits; then that one and Ann play it."""
    ann, rivals = people["ann"], [people["bea"], people["cal"]]
    next_race = time.monotonic() + 1.0
    # A race leaves time for its match to be played a little before the deadline.
    while next_race < deadline - 10.0:
        time.sleep(max(0.0, next_race - time.monotonic()))
        next_race += RACE_EVERY
        pk = ann.match_new("faraway", ["me", "person", "greedy"])
        for rival in rivals:
            assert rival.open_table(pk).status == "waiting"
        join = f"/matches/{pk}/join/"
        answers = _at_once([functools.partial(r.request, "join", "POST", join) for r in rivals * 2])
        assert [a[0] for a in answers] == [302] * 4, [a[0] for a in answers]
        seated = [r for r in rivals if r.open_table(pk).seat is not None]
        assert len(seated) == 1, f"{[r.username for r in seated]} sat in match {pk}'s last seat"
        winner = seated[0]
        assert winner.open_table(pk).seat == 1
        races.append((pk, winner.username))
        for person in (ann, winner):
            crew.start(play, person, pk, deadline, Random(f"{person.username}-{pk}"))


# What a failed write leaves in either log (runserver logs a 500's request line with '" 500 ').
FAULTS = ("database is locked", "Traceback", '" 500 ')


def log_faults(path: Path) -> list[str]:
    """The faults found in a log, then its tail to read them in (none when it is clean)."""
    text = path.read_text()
    faults = [f"{path.name}: {needle!r}" for needle in FAULTS if needle in text]
    return [*faults, text[-5000:]] if faults else []


def replay_faults(match: dict[str, Any], moves_played: int) -> list[str]:
    """Why ``match``'s stored log does not hold (none when it does)."""
    pk, rows = match["pk"], match["moves"]
    engine = get_engine(match["game"])
    args = (engine, match["num_players"], match["seed"], match["options"])
    faults = []
    if [row[0] for row in rows] != list(range(1, match["ply"] + 1)):
        faults.append(f"match {pk}: plies {[row[0] for row in rows]} for ply {match['ply']}")
    entries = [(seat, payload) for _, seat, payload, _, _ in rows]
    broken = replay.verify(*args, entries, [row[3] for row in rows])
    if broken is not None:
        faults.append(f"match {pk}: the hash chain breaks at ply {broken}")
    if match["head_hash"] != (rows[-1][3] if rows else replay.start_hash(*args)):
        faults.append(f"match {pk}: head_hash is not the last link")
    bots = {index for index, _, level in match["seats"] if level}
    chosen = [row for row in rows if row[1] is not None and row[1] not in bots]
    # Every click that played (a 200) is one logged move of a person's, and nothing else is
    # (auto "" is a move the seat chose; no deadline is set, so the server chose none).
    if len(chosen) != moves_played or any(row[4] != "" for row in chosen):
        faults.append(f"match {pk}: {len(chosen)} people's moves logged, {moves_played} played")
    return faults


def test_web_and_worker_share_one_sqlite_file_without_a_500(embedded_site: Site) -> None:
    site = embedded_site
    tally = Tally()
    people = {name: Person(site.base_url, name, tally) for name in PEOPLE}
    started = time.monotonic()
    for person in people.values():
        person.log_in()
    deadline = time.monotonic() + PLAY_SECONDS
    crew = Crew()
    races: list[tuple[int, str]] = []
    crew.start(series, people["ann"], "faraway", ["me", "greedy", "greedy", "random"], deadline)
    crew.start(series, people["bea"], "gulliver", ["me", "greedy", "random"], deadline, target="40")
    # Challenges on: the bots' votes and Cal's vote are awaited at once and race each other.
    crew.start(
        series,
        people["cal"],
        "gulliver",
        ["me", "greedy", "greedy"],
        deadline,
        target="40",
        challenges="on",
    )
    crew.start(seat_races, people, crew, deadline, races)
    crew.join(deadline + HTTP_TIMEOUT + 30)
    played_for = time.monotonic() - started

    site.stop()
    dump = site.data_dir / "dump.json"
    _manage({**site.env, "PARLOUR_DUMP": str(dump)}, "shell", "-c", DUMP_MATCHES)
    matches = json.loads(dump.read_text())
    worker_log = site.worker_log.read_text()

    statuses = tally.by_status()
    bot_moves = deals = 0
    for match in matches:
        bots = {index for index, _, level in match["seats"] if level}
        bot_moves += sum(1 for row in match["moves"] if row[1] in bots)
        deals += sum(1 for row in match["moves"] if row[1] is None)
    moves = sum(len(m["moves"]) for m in matches)
    print(
        f"\nembedded default: {played_for:.1f} s, {len(matches)} matches "
        f"({sum(m['status'] == 'finished' for m in matches)} finished), {moves} moves "
        f"({sum(tally.moves_played.values())} by people, {bot_moves} by bots, {deals} deals), "
        f"{tally.double_clicks} double clicks, {len(races)} seat races, "
        f"{worker_log.count(' succeeded in ')} worker tasks;\n"
        f"statuses {dict(sorted(statuses.items()))};\n"
        f"by request {dict(sorted(tally.counts.items()))}"
    )

    unexpected = tally.unexpected
    assert not unexpected, f"{len(unexpected)} unexpected answers:\n" + "\n".join(unexpected[:5])
    assert not crew.errors, crew.errors[0]
    assert not log_faults(site.server_log), "\n".join(log_faults(site.server_log))
    assert not log_faults(site.worker_log), "\n".join(log_faults(site.worker_log))
    faults = [f for m in matches for f in replay_faults(m, tally.moves_played[m["pk"]])]
    assert not faults, "\n".join(faults)
    for pk, winner in races:
        seats = next(m["seats"] for m in matches if m["pk"] == pk)
        assert seats == [[0, "ann", None], [1, winner, None], [2, None, "greedy"]]
    assert races, "no race for a last seat was run"
    assert statuses[409] > 0, "no double click met the version check"
    assert sum(tally.moves_played.values()) > 0, "nobody got a move in"
    # The web process cannot play bots here (tasks are not eager): the worker did. Deals are
    # only counted: whether a Gulliver round ends within the time depends on the cards.
    assert bot_moves > 0, "the worker played no bot's move"
    assert "Task games.bot_turn[" in worker_log


def test_a_private_match_is_the_sites_own_404_under_make_run(embedded_site: Site) -> None:
    """What a newcomer meets first: a stranger at a private match's address gets the site's
    404 page (its look, a way home), never Django's technical debug page, and the stylesheet is
    served without DEBUG (WhiteNoise)."""
    site = embedded_site
    tally = Tally()
    ann, bea = Person(site.base_url, "ann", tally), Person(site.base_url, "bea", tally)
    ann.log_in()
    bea.log_in()
    pk = ann.match_new("faraway", ["me", "person"], visibility="private")
    assert ann.open_table(pk).status == "waiting"

    # No Redis here, and still live: the page listens to its stream, fed by the local hub
    # (docs/live.md, "The embedded default"; tests/functional/test_embedded_live_browser.py).
    status, page, _ = ann.request("detail", "GET", f"/matches/{pk}/")
    assert status == 200 and f'data-live="/live/?match={pk}"' in page
    assert 'hx-trigger="parlour-poll"' in page and "js/live.js" in page

    status, page, _ = bea.request("detail", "GET", f"/matches/{pk}/")
    assert status == 404
    assert "There is no such page" in page
    assert 'class="site-header"' in page and "css/parlour.css" in page
    for debug in ("DEBUG = True", "technical_404", "Django tried these URL patterns", "Raised by"):
        assert debug not in page
    with urllib.request.urlopen(site.base_url + "/static/css/parlour.css", timeout=10) as css:
        assert css.status == 200 and b"site-header" in css.read()
    assert not log_faults(site.server_log), "\n".join(log_faults(site.server_log))

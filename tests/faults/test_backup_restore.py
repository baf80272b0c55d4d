"""Backups, tested (docs/operations.md): a backup taken while people and bots play, restored
into a fresh database and served, loses nothing committed before it started.

For PostgreSQL (``manage.py backup``: pg_dump -Fc, then ``pg_restore --clean --if-exists
--no-owner`` into a new database of the same cluster) and for the embedded default's SQLite file
(``manage.py backup``: SQLite's online backup, taken while gunicorn and a real worker on the
filesystem broker write the file). Each run:

1. serves the site (gunicorn, a worker, beat) with a finished bots-only match in it, then
   people playing two matches and one against a bot over HTTP, and a bots-only match playing
   in the worker;
2. remembers every move committed so far, and runs ``manage.py backup`` as the operator would
   while the playing goes on (more moves commit while it runs);
3. stops the site, restores the file into a fresh database, runs ``migrate`` and
   ``manage.py verify_matches`` on it, and serves it: new processes, a new (empty) queue, as
   after losing the machine;
4. through HTTP, as the people signed in before the backup (their sessions are in it too):
   every remembered move is in each match's record (``/matches/<id>/record.json``) with its
   keyed hash; then every match is played to its end on the restored site (the bots by the new
   worker: what was queued at backup time is gone, and the sweeper sends the stalled turns
   again), and each finished record holds under the stand-alone verifier
   (``python -m games.verify_record``), its chain beginning with the remembered links.
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import dj_database_url
from celery import Celery, current_app
from django.db import connections

from core.publish import broker_backoff_reset
from games import bots
from games.engines import get_engine
from games.engines.records import keyed_hash
from games.models import Match, Move
from games.services import match_create
from tests import factories
from tests.faults.conftest import SWEEP_AFTER, SWEEP_EVERY, person, visitor_for
from tests.polling import wait_for
from tests.stack.http import Browser, offered_moves, page_state
from tests.stack.processes import REPO, Stack, pg_binary

FAST = {
    "PARLOUR_BOT_WINDOW": "0",
    "PARLOUR_ROUND_PAUSE": "0",
    "PARLOUR_SWEEP_EVERY": str(SWEEP_EVERY),
    "PARLOUR_SWEEP_AFTER": str(SWEEP_AFTER),
}
PLAY_BEFORE = 2.0  # seconds of play before the moves are remembered and the backup starts
TO_THE_END = 150  # seconds for every match to be played out on the restored site


@dataclass
class Followed:
    """A match the test follows: who plays it over HTTP (browsers by seat), and its salt."""

    pk: int
    salt: str
    people: dict[int, Browser]


# -- playing over HTTP ---------------------------------------------------------------------------


def move_offered_taken(browser: Browser, pk: int, rng: random.Random) -> bool:
    """One of the moves the table offers this browser, at random, posted as htmx posts it;
    ``False`` when the table offers none (not this seat's turn, or over)."""
    page = browser.table(pk)
    assert page.status == 200, f"match {pk}: the table answered {page.status}"
    state, moves = page_state(page.body), offered_moves(page.body)
    if state is None or state[1] != Match.Status.ACTIVE or not moves:
        return False
    answer = browser.move(pk, rng.choice(moves), state[0])
    assert answer.status == 200, f"match {pk}: the move answered {answer.status}"
    return True


class People(threading.Thread):
    """People at their tables over HTTP, each taking a move offered at random, until halted.
    HTTP only: the thread never touches the test process's database connection."""

    def __init__(self, tables: list[Followed]) -> None:
        super().__init__(daemon=True)
        self.tables, self.halt, self.moves = tables, threading.Event(), 0
        self.rng = random.Random(5)
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.halt.is_set():
                taken = [
                    move_offered_taken(browser, table.pk, self.rng)
                    for table in self.tables
                    for browser in table.people.values()
                ]
                self.moves += sum(taken)
                if not any(taken):
                    time.sleep(0.05)
        except BaseException as exc:  # raised in the test by stop()
            self.error = exc

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=60)
        if self.error is not None:
            raise self.error


def bots_awaited(tables: list[Followed]) -> list[int]:
    """The followed matches that wait on a bot's turn (read from the database)."""
    going = Match.objects.filter(pk__in=[t.pk for t in tables], status=Match.Status.ACTIVE)
    return [
        match.pk
        for match in going.prefetch_related("seats")
        if {s.index for s in match.seats.all() if s.bot_level} & set(match.awaiting)
    ]


def played_out(tables: list[Followed]) -> None:
    """Every followed match played to its end on the restored site: the people by the move a
    greedy bot would make in their seat's view (read from the restored database), posted over
    HTTP; the bots by the site's worker."""
    deadline = time.monotonic() + TO_THE_END
    while True:
        going = Match.objects.filter(pk__in=[t.pk for t in tables]).exclude(
            status=Match.Status.FINISHED
        )
        if not going:
            return
        assert time.monotonic() < deadline, f"not played out in time: {list(going)}"
        moved = False
        for match in going:
            people = next(t.people for t in tables if t.pk == match.pk)
            for seat in set(match.awaiting) & set(people):
                engine = get_engine(match.game)
                view = engine.view(engine.load(match.state), seat)
                move = bots.choose_move(match.game, "greedy", view, seed=match.seed)
                answer = people[seat].move(match.pk, move, match.version)
                assert answer.status == 200, f"match {match.pk}: the move answered {answer.status}"
                moved = True
                break
        if not moved:
            time.sleep(0.1)


def record_of(browser: Browser, pk: int) -> dict:
    answer = browser.request("GET", f"/matches/{pk}/record.json")
    assert answer.status == 200, f"match {pk}: record.json answered {answer.status}"
    return json.loads(answer.body)


# -- the run -------------------------------------------------------------------------------------


def tables_made(stack: Stack) -> tuple[list[Followed], Browser]:
    """The site's processes started and the matches made (see the module docstring, step 1);
    the matches and a signed-in browser of ann's, who can read every one of them."""
    stack.web(asgi=True)  # as the Procfile serves
    stack.worker()
    stack.beat()
    ann, bea = person("ann"), person("bea")
    ann_browser, bea_browser = visitor_for(stack, ann), visitor_for(stack, bea)
    # Played out by the worker before the backup: a finished match in it.
    early = match_create(
        game="faraway",
        num_players=2,
        created_by=ann,
        bots={0: "greedy", 1: "greedy"},
        creator_plays=False,
        public=True,
        seed=31,
    )
    wait_for(
        lambda: Match.objects.get(pk=early.pk).status == Match.Status.FINISHED,
        "the early bots-only match to finish",
        timeout=90,
    )
    both = {0: ann_browser, 1: bea_browser}
    duel = factories.match_make(game="faraway", players=[ann, bea], seed=32)
    # Gulliver to 20 points, not 250: a round or two, each dealt by the worker (a seatless entry).
    rounds = factories.match_make(
        game="gulliver", players=[ann, bea], seed=35, options={"target": 20}
    )
    with_bot = match_create(
        game="faraway", num_players=2, created_by=ann, bots={1: "greedy"}, seed=34
    )
    bots = match_create(
        game="gulliver",
        num_players=3,
        created_by=ann,
        options={"target": 20},
        bots={0: "greedy", 1: "greedy", 2: "greedy"},
        creator_plays=False,
        public=True,
        seed=36,
    )
    tables = [
        Followed(early.pk, early.salt, {}),
        Followed(duel.pk, duel.salt, both),
        Followed(rounds.pk, rounds.salt, both),
        Followed(with_bot.pk, with_bot.salt, {0: ann_browser}),
        Followed(bots.pk, bots.salt, {}),
    ]
    return tables, ann_browser


def committed(tables: list[Followed]) -> dict[int, list[str]]:
    """Every committed move of the followed matches: its chain hashes in ply order."""
    rows = Move.objects.filter(match_id__in=[t.pk for t in tables]).order_by("match_id", "ply")
    links: dict[int, list[str]] = {t.pk: [] for t in tables}
    for pk, ply, link in rows.values_list("match_id", "ply", "chain_hash"):
        assert ply == len(links[pk]) + 1, f"match {pk}: ply {ply} out of order"
        links[pk].append(link)
    return links


def backup_while_playing(stack: Stack, tables: list[Followed], into: Path) -> tuple[dict, Path]:
    """``manage.py backup`` run while people and bots play; what was committed before it began
    and the file it wrote."""
    people = People(tables)
    people.start()
    time.sleep(PLAY_BEFORE)
    before = committed(tables)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "manage.py", "backup", "--output-dir", str(into)],
        cwd=REPO,
        env=stack.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    took = time.monotonic() - started
    moves_during = people.moves
    people.stop()
    assert done.returncode == 0, done.stderr
    after = committed(tables)
    written = Path(done.stdout.strip())
    assert written.parent == into and written.exists(), done.stdout
    assert all(before.values()), f"a match with nothing committed yet: {before}"
    grown = sum(len(after[pk]) - len(before[pk]) for pk in before)
    print(
        f"backup {written.name}: {took:.1f} s; {sum(map(len, before.values()))} entries"
        f" remembered, {grown} more committed while the backup ran (people's moves by then:"
        f" {moves_during})"
    )
    assert grown > 0, "nothing was played while the backup ran"
    return before, written


def matches_verified(env: dict[str, str]) -> None:
    """``manage.py verify_matches`` against the restored database, as the operator runs it."""
    done = subprocess.run(
        [sys.executable, "manage.py", "verify_matches"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "match(es) hold" in done.stdout
    print(done.stdout.strip())


def restored_served(
    restored: Stack,
    tables: list[Followed],
    before: dict[int, list[str]],
    reader: Browser,
    database: dict,
    django_db_blocker,
) -> None:
    """Step 4 of the module docstring, on the restored site (started here); ``database`` the
    restored database's connection settings, where the people's next moves are chosen."""
    for table in tables:  # the signed-in browsers now talk to the restored site
        for browser in [*table.people.values(), reader]:
            browser.port = restored.web_port
    with default_database_at(database, django_db_blocker):
        waiting_on_bots = bots_awaited(tables)
    restored.web(asgi=True)  # as the Procfile serves
    worker = restored.worker()
    restored.beat()

    for table in tables:  # every remembered move, as the restored site serves it
        entries = record_of(reader, table.pk)["entries"]
        remembered = before[table.pk]
        assert len(entries) >= len(remembered), f"match {table.pk} lost moves"
        keyed = [e["keyed_hash"] for e in entries[: len(remembered)]]
        assert keyed == [keyed_hash(table.salt, link) for link in remembered], table.pk

    with default_database_at(database, django_db_blocker):
        played_out(tables)
    if waiting_on_bots:  # their turns were queued on the old site: only the sweeper sent them
        print(f"restored with bots awaited in match(es) {waiting_on_bots}")
        assert "sweep_stalled: re-enqueued" in worker.output()

    for table in tables:
        record = record_of(reader, table.pk)
        remembered = before[table.pk]
        assert [e["hash"] for e in record["entries"][: len(remembered)]] == remembered
        checked = subprocess.run(
            [sys.executable, "-m", "games.verify_record", "-"],
            cwd=REPO,
            input=json.dumps(record),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert checked.returncode == 0, f"match {table.pk}:\n{checked.stdout}{checked.stderr}"
        assert "The record holds" in checked.stdout


# -- PostgreSQL ----------------------------------------------------------------------------------


def test_a_postgres_backup_taken_during_play_restores_whole(
    stack, fault_db, redis_server, django_db_blocker
):
    tables, reader = tables_made(stack)
    before, written = backup_while_playing(stack, tables, stack.folder / "backups")
    assert written.suffix == ".dump"
    stack.stop_all()

    import psycopg

    name = f"parlour_restored_{uuid.uuid4().hex[:8]}"
    admin = f"host=127.0.0.1 port={fault_db.port} user=postgres"
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    url = f"postgres://postgres@127.0.0.1:{fault_db.port}/{name}"
    argv = [pg_binary("pg_restore"), "--clean", "--if-exists", "--no-owner", "--exit-on-error"]
    argv += ["--host", "127.0.0.1", "--port", str(fault_db.port), "--username", "postgres"]
    done = subprocess.run([*argv, "--dbname", name, str(written)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

    restored = Stack(stack.folder / "restored", fault_db, redis_server, DATABASE_URL=url, **FAST)
    restored.folder.mkdir()
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=REPO,
        env=restored.env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert migrated.returncode == 0, migrated.stderr
    assert "No migrations to apply" in migrated.stdout
    matches_verified(restored.env)
    try:
        database = dj_database_url.parse(url, conn_max_age=0)
        restored_served(restored, tables, before, reader, database, django_db_blocker)
        matches_verified(restored.env)
    finally:
        restored.stop_all()
        print(restored.logs())


# -- SQLite, the embedded default ----------------------------------------------------------------


def sqlite_database(path: Path) -> dict:
    """Connection settings for the SQLite file ``path`` with the options
    config/settings/database.py gives the embedded default (WAL, IMMEDIATE, a busy timeout),
    which this run's settings need not have (CI runs the suite with DATABASE_URL on PostgreSQL)."""
    target = dj_database_url.parse(f"sqlite:///{path}", conn_max_age=0)
    target["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20.0,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    return target


@contextlib.contextmanager
def default_database_at(target: dict, django_db_blocker) -> Iterator[None]:
    """The test process's default connection on ``target`` (connection settings), unblocked,
    autocommit, for the duration; then back where it was."""
    previous = connections.settings["default"]
    connections["default"].close()
    connections.settings["default"] = connections.configure_settings({"default": target})["default"]
    del connections["default"]
    try:
        with django_db_blocker.unblock():
            yield
            connections["default"].close()
    finally:
        connections.settings["default"] = previous
        del connections["default"]


@contextlib.contextmanager
def filesystem_queue(stack: Stack) -> Iterator[None]:
    """This process's task sends go to the stack's filesystem broker and queue, as the web
    process's do (config/settings/celery.py's ``CELERY_BROKER_URL=filesystem``)."""
    broker = Path(stack.env["PARLOUR_DATA_DIR"]) / "broker"
    app = Celery(f"parlour-backup-{uuid.uuid4().hex[:6]}")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(
        broker_url="filesystem://",
        broker_transport="core.broker:Transport",
        broker_transport_options={
            "data_folder_in": str(broker / "queue"),
            "data_folder_out": str(broker / "queue"),
            "processed_folder": str(broker / "processed"),
            "store_processed": False,
            "control_folder": str(broker / "control"),
        },
        task_always_eager=False,
        task_default_queue=stack.queue,
    )
    previous = current_app._get_current_object()
    app.set_current()
    broker_backoff_reset()
    try:
        yield
    finally:
        previous.set_current()
        app.close()
        broker_backoff_reset()


def sqlite_stack(folder: Path) -> Stack:
    """The embedded default as ``make run`` serves it: SQLite, a worker and beat on the
    filesystem broker (no PostgreSQL, no Redis); migrated."""
    stack = Stack(folder, None, None, CELERY_BROKER_URL="filesystem", **FAST)
    folder.mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO,
        env=stack.env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return stack


def test_a_sqlite_online_backup_taken_during_play_restores_whole(
    binaries, tmp_path, django_db_blocker
):
    stack = sqlite_stack(tmp_path / "site")
    live = Path(stack.env["PARLOUR_DATA_DIR"]) / "parlour.sqlite3"
    restored = Stack(tmp_path / "restored", None, None, CELERY_BROKER_URL="filesystem", **FAST)
    try:
        with default_database_at(sqlite_database(live), django_db_blocker), filesystem_queue(stack):
            tables, reader = tables_made(stack)
            before, written = backup_while_playing(stack, tables, tmp_path / "backups")
        assert written.suffix == ".sqlite3"
        stack.stop_all()

        # Restore: the copy becomes the data folder's database file (the site is stopped).
        data = Path(restored.env["PARLOUR_DATA_DIR"])
        data.mkdir(parents=True)
        shutil.copyfile(written, data / "parlour.sqlite3")
        migrated = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=REPO,
            env=restored.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert migrated.returncode == 0, migrated.stderr
        assert "No migrations to apply" in migrated.stdout
        matches_verified(restored.env)
        database = sqlite_database(data / "parlour.sqlite3")
        restored_served(restored, tables, before, reader, database, django_db_blocker)
        matches_verified(restored.env)
    finally:
        restored.stop_all()
        stack.stop_all()
        print(stack.logs())
        print(restored.logs())

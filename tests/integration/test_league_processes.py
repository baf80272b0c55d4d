"""Issue 36's "done means" for leagues, with real processes (docs/competitions.md, "Checked
with real processes"): the embedded default's web server, worker and beat on one SQLite file
(``make run``, as ``tests/functional/test_embedded_default.py`` starts them), a league of three
on a one-day turn deadline in which cal never moves.

Beat's sweep starts the league at its time; ann and bea play their tables over HTTP as a
browser would; every time cal is awaited the test moves that turn's deadline into the past (as
the deadline tests do: a day is not waited for) and beat's deadline sweep has the greedy bot
play cal's turn in the worker. Then the league's stated day is brought forward to now (its
start, end and tables' opening moved back together, as the days passing would leave them) and
beat's sweep ends it. The record is downloaded over HTTP and ``python -m
competitions.verify_league``, a real subprocess, recomputes the standings from it. What the
league told its people went out once each (the console mail backend prints every mail in the
worker's log) although beat swept every second.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from random import Random

import pytest

from tests.functional.test_embedded_default import (
    Person,
    Tally,
    _manage,
    log_faults,
    make_run_site,
    play,
)

TABLES_BUDGET = 300.0  # seconds the tables may take before the day is brought anyway
END_TIMEOUT = 120.0  # seconds for beat's sweep to end the league once its day has come
LATE_AT_MOST = dt.timedelta(seconds=END_TIMEOUT)  # ended on its day: within the sweeps' wait
LEAGUE = "Harbour league"

MAKE_LEAGUE = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from competitions.league_entries import league_enter
from competitions.models import Event
event = Event.objects.create(
    name={name!r}, game="faraway", seats=2, circle_size=3, circles=1, deadline_days=1,
    open_tables_most=2, absences_most=3, starts_at=timezone.now() + timedelta(days=1),
)
for name in ("ann", "bea", "cal"):
    league_enter(event_id=event.pk, user=get_user_model().objects.get(username=name))
# Its time comes now: beat's next sweep starts it.
Event.objects.filter(pk=event.pk).update(starts_at=timezone.now())
print("league", event.pk)
"""

# cal never moves: each turn of cal's is overdue at once (the deadline rows moved, not waited).
CAL_NEVER_MOVES = """
import os, time
from datetime import timedelta
from django.utils import timezone
from games.models import Match
while not os.path.exists(os.environ["PARLOUR_TEST_STOP"]):
    Match.objects.filter(
        status="active", event_table__event_id={league}, seats__user__username="cal",
        seats__awaited_since__isnull=False,
    ).update(deadline_at=timezone.now() - timedelta(seconds=1))
    time.sleep(0.5)
"""

# The days pass: the league's start, end and tables' opening move back together so that its
# stated day is now (its length unchanged).
BRING_THE_DAY = """
from django.db.models import F
from django.utils import timezone
from competitions.models import Event, EventTable
event = Event.objects.get(pk={league})
shift = event.ends_at - timezone.now()
Event.objects.filter(pk=event.pk).update(
    started_at=F("started_at") - shift, ends_at=F("ends_at") - shift
)
EventTable.objects.filter(event_id=event.pk, opened_at__isnull=False).update(
    opened_at=F("opened_at") - shift
)
print("ends", Event.objects.get(pk=event.pk).ends_at.isoformat())
"""

TABLE_LINK = re.compile(r'<a href="/matches/(\d+)/">\d+</a></td><td>([^<]*)</td>')


def _tables_of(person: Person, league: int) -> dict[int, str]:
    """The league's tables the person is seated at (match id -> the people, as listed)."""
    status, page, _ = person.request("league", "GET", f"/leagues/{league}/")
    assert status == 200
    return {int(pk): people for pk, people in TABLE_LINK.findall(page)}


def _wait_for(check, what: str, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def quick_beat(monkeypatch) -> None:
    """Beat sweeps the leagues and the deadlines every second."""
    monkeypatch.setenv("PARLOUR_LEAGUE_EVERY", "1")
    monkeypatch.setenv("PARLOUR_DEADLINE_EVERY", "1")


def test_a_league_with_a_person_who_never_moves_ends_on_its_day_and_the_verifier_agrees(
    tmp_path: Path, quick_beat: None
) -> None:
    with make_run_site(tmp_path, beat=True) as site:
        made = _manage(site.env, "shell", "-c", MAKE_LEAGUE.format(name=LEAGUE))
        league = int(re.search(r"league (\d+)", made).group(1))
        tally = Tally()
        watcher = Person(site.base_url, "ann", tally)
        watcher.log_in()
        tables = _wait_for(lambda: _tables_of(watcher, league), "beat to start the league", 60)
        assert len(tables) == 2  # ann's two tables of the three, all open at once

        stop = tmp_path / "stop"
        mover = subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-c", CAL_NEVER_MOVES.format(league=league)],
            cwd=Path(__file__).resolve().parents[2],
            env={**site.env, "PARLOUR_TEST_STOP": str(stop)},
            stdout=(tmp_path / "mover.log").open("w"),
            stderr=subprocess.STDOUT,
        )
        try:
            players = []
            for name in ("ann", "bea"):
                person = Person(site.base_url, name, tally)
                person.log_in()
                for pk in _tables_of(person, league):
                    players.append((Person(site.base_url, name, tally), pk))
            assert len(players) == 4  # ann-bea (both), ann-cal, bea-cal
            finished: dict[tuple[str, int], bool] = {}
            until = time.monotonic() + TABLES_BUDGET

            def run(person: Person, pk: int) -> None:
                person.log_in()
                finished[(person.username, pk)] = play(person, pk, until, Random(pk))

            threads = [threading.Thread(target=run, args=item) for item in players]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(TABLES_BUDGET + 60)
        finally:
            stop.write_text("stop")
            mover.wait(timeout=60)

        brought = _manage(site.env, "shell", "-c", BRING_THE_DAY.format(league=league))
        stated = re.search(r"ends (\S+)", brought).group(1)

        def record() -> bytes | None:
            status, body, _ = watcher.request("record", "GET", f"/leagues/{league}/record.json")
            return body.encode() if status == 200 else None

        body = _wait_for(record, "beat's sweep to end the league on its day", END_TIMEOUT)
        site.stop()
        data = json.loads(body)
        assert data["league"]["ends_at"] == stated
        ended = dt.datetime.fromisoformat(data["league"]["finished_at"])
        assert dt.timedelta(0) <= ended - dt.datetime.fromisoformat(stated) < LATE_AT_MOST
        path = tmp_path / "league.json"
        path.write_bytes(body)
        verified = subprocess.run(
            [sys.executable, "-m", "competitions.verify_league", str(path)],
            cwd=Path(__file__).resolve().parents[2],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "The league's record holds." in verified.stdout

        rows = {row["username"]: row for row in data["standings"][0]}
        assert rows["cal"]["forfeits"] == 2 and rows["cal"]["points"] == 0
        assert all(t["match"]["outcome"] for t in data["tables"])
        cal_moves = [
            entry
            for table in data["tables"]
            for entry in table["match"]["entries"]
            if entry["seat"] is not None
            and table["match"]["seats"][entry["seat"]]["username"] == "cal"
        ]
        assert cal_moves and all(e.get("auto") in ("deadline", "played_out") for e in cal_moves)

        # Told once each, although beat swept every second: entered, started, ended for three.
        worker_log = site.worker_log.read_text()
        assert worker_log.count(f"Subject: News of {LEAGUE}") == 9, worker_log[-3000:]
        assert worker_log.count("has ended: you finished in place") >= 3  # text and HTML
        assert tally.unexpected == []
        assert log_faults(site.server_log) == [] and log_faults(site.worker_log) == []

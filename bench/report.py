"""What the benchmarks share: the stack's start and end, percentiles, the CPU each group of
processes took over a window, and the check of every stored match by the project's verifiers."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from tests.stack.machine import load_line, machine_line, process_cpu
from tests.stack.processes import PostgresCluster, RedisServer, Stack


@contextlib.contextmanager
def stack_running(name: str, *, redis: bool = False, **env: str) -> Iterator[Stack]:
    """A private PostgreSQL cluster (initdb's settings, durable, migrated), with ``redis`` a
    private Redis, and a ``Stack`` on them with ``env``; this process set up on the same
    settings. The machine and its load printed at the start and the end; all of it stopped and
    removed at the end."""
    print(f"Machine: {machine_line()}\nAt start: {load_line()}")
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix=f"parlour-{name}-"))
    cluster = PostgresCluster(f"parlour_{name}", durable=True)
    server = RedisServer(folder) if redis else None
    stack = Stack(folder, cluster, server, LOG_LEVEL="WARNING", **env)
    try:
        cluster.init()
        cluster.migrate()
        if server is not None:
            server.start()
        stack.configure_this_process()
        import django

        django.setup()
        yield stack
        print(f"\nAt end: {load_line()}; the whole run took {time.perf_counter() - started:.0f} s")
    finally:
        stack.stop_all()
        if server is not None:
            server.stop()
        cluster.destroy()
        shutil.rmtree(folder, ignore_errors=True)


def create_users(count: int, prefix: str = "bench") -> tuple[list[Any], str]:
    """``count`` users with one password (one hash for all: the form checks it anyway)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    password = secrets.token_urlsafe(12)
    hashed = make_password(password)
    names = [f"{prefix}-{i:02d}" for i in range(count)]
    model = get_user_model()
    model.objects.bulk_create([model(username=n, password=hashed) for n in names])
    by_name = {u.username: u for u in model.objects.filter(username__in=names)}
    return [by_name[n] for n in names], password


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 to 1) of ``values``."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def p50(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def ratio(a: float, b: float) -> float:
    """``a / b`` to the two decimals shown."""
    return round(a / b, 2) if b else float("nan")


def ms(values: Sequence[float], q: float) -> str:
    return f"{percentile(values, q):.1f}" if values else "-"


def distribution(values: Sequence[float]) -> str:
    """Count, p50, p99 and max of milliseconds, on one line."""
    if not values:
        return "none"
    return (
        f"{len(values)}, p50 {ms(values, 0.5)} ms, p99 {ms(values, 0.99)} ms,"
        f" max {max(values):.0f} ms"
    )


class CpuWatch:
    """The CPU each group of processes (and this one) used over a window, as a share of the
    wall time. A process is kept as first and last seen, so one killed inside the window counts
    with what it used until its last sample; ``sample`` more often to follow such processes."""

    def __init__(self, groups: dict[str, Callable[[], list[int]]]) -> None:
        self.groups = groups
        self.begin()

    def begin(self) -> None:
        self.cpu: dict[str, dict[int, list[float]]] = {name: {} for name in self.groups}
        self.client = time.process_time()
        self.started = time.perf_counter()
        self.load_start = load_line()
        self.sample(baseline=True)

    def sample(self, *, baseline: bool = False) -> None:
        for name, pids in self.groups.items():
            try:
                found = pids()
            except Exception:  # a sample missed is no reason to stop the run
                continue
            for pid in found:
                used = process_cpu(pid)
                # A process first seen after the baseline started within the window.
                seen = self.cpu[name].setdefault(pid, [used if baseline else 0.0, used])
                if used:
                    seen[1] = used

    def line(self) -> str:
        """The shares since ``begin`` (gunicorn's per process, master first), and the load."""
        self.sample()
        wall = time.perf_counter() - self.started

        def share(seconds: float) -> str:
            return f"{100 * seconds / wall:.0f}%"

        parts = []
        for name, seen in self.cpu.items():
            used = [max(0.0, last - first) for first, last in seen.values()]
            each = f" ({', '.join(map(share, used))} per process)" if name == "gunicorn" else ""
            parts.append(f"{name} {share(sum(used))}{each}")
        cores = os.cpu_count() or 1
        return (
            f"{wall:.1f} s wall; CPU share {', '.join(parts)}, this client"
            f" {share(time.process_time() - self.client)} (of {cores} cores = {100 * cores}%);"
            f" {self.load_start} at start, {load_line().removeprefix('load average ')} at end"
        )


def chain_check(title: str, pks: Iterable[int]) -> int:
    """Every started match of ``pks`` checked by the project's verifiers (bench/README.md),
    plies 1..n once each and ``head_hash`` the last link. Prints ``title``, a summary and the
    problems found; returns how many."""
    from games.engines import get_engine, replay
    from games.engines.records import record_verify
    from games.models import Match, Move
    from games.presentation.names import seat_names
    from games.selectors.facts import seat_facts
    from games.selectors.records import match_record

    started = time.perf_counter()
    problems: list[str] = []
    records = running = entries = 0
    for match in Match.objects.filter(pk__in=list(pks)).prefetch_related("seats__user"):
        if match.status == Match.Status.WAITING:
            continue
        rows = list(
            Move.objects.filter(match_id=match.pk)
            .order_by("ply")
            .values_list("ply", "seat", "payload", "chain_hash")
        )
        entries += len(rows)
        engine = get_engine(match.game)
        args = (engine, match.num_players, match.seed, match.options)
        head = rows[-1][3] if rows else replay.start_hash(*args)
        if [r[0] for r in rows] != list(range(1, len(rows) + 1)) or match.ply != len(rows):
            problems.append(f"match {match.pk}: ply {match.ply}, plies not 1..n once each")
        elif match.head_hash != head:
            problems.append(f"match {match.pk}: head_hash is not the last link")
        elif match.status == Match.Status.FINISHED:
            records += 1
            seats = list(match.seats.all())
            names = seat_names(match.num_players, seat_facts(seats))
            record = match_record(match=match, seats=seats, names=names, viewer_seat=None)
            report = record_verify(record)
            if not report.ok:
                problems.append(f"match {match.pk}: record does not hold: {report.problem}")
        else:
            running += 1
            moves = [(seat, move) for _, seat, move, _ in rows]
            bad = replay.verify(*args, moves, [r[3] for r in rows])
            if bad is not None:
                problems.append(f"match {match.pk}: stored hash differs at ply {bad}")
    outcome = f"{len(problems)} PROBLEMS" if problems else "every check holds"
    print(
        f"\n{title}: {records + running} matches, {entries} entries, in"
        f" {time.perf_counter() - started:.1f} s: {records} finished matches' records verified by"
        f" record_verify, {running} running matches' logs by games.engines.replay.verify;"
        f" plies 1..n once each, head_hash the last link; {outcome}"
    )
    for problem in problems[:20]:
        print(f"  {problem}")
    return len(problems)

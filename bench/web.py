"""Requests to the served site, timed over HTTP, as multiples of a trivial signed-in page.

    .venv/bin/python bench/web.py            # 240 requests of each kind; --quick: a smoke run

What it measures: bench/README.md (load figures come from bench/load.py); its figures:
docs/performance.md. Figures and ratios only: the goals that must hold are tests.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script

from bench.report import CpuWatch, chain_check, create_users, p50, percentile, ratio, stack_running
from tests.stack.http import Browser

TX_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
# A prepared match goes on past its ply until the awaited move hands the turn on (a Faraway
# turn is a draw, then a card): this many entries at most.
EXTRA_PLIES = 8
# The late replay frame is this many plies before the end of the longest match (500: ply 400).
REPLAY_LATE_BEFORE_END = 100
# Copies of each prepared match whose whole log the verifier checks after the run.
COPIES_CHECKED = 10
WORKERS = 2


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


def preparing_move(game: str, view: dict[str, Any], seed: int, ply: int) -> dict[str, Any]:
    """The preparation's move at ``ply``: the random bot's, seeded by the match and the ply."""
    from games.bots import choose_move

    return choose_move(game, "random", view, seed=seed * 100_003 + ply)


def played_to(game: str, seed: int, options: dict[str, Any], ply: int) -> bool:
    """Whether the preparation's moves keep a match of ``seed`` running past ``ply``.

    Mirrors ``prepare_match`` in the engine alone (no database, so a failed seed costs little),
    a next round dealt at once as eager Celery does after the round's last move.
    """
    from games.engines import get_engine
    from games.engines.base import seeded_rng

    engine = get_engine(game)
    # The options ``match_start`` hands the engine: the dealer is drawn from the seed.
    state = engine.new_game(2, seed, {**options, "dealer": seeded_rng(seed, "dealer").randrange(2)})
    played = 0
    while played < ply:
        if engine.is_over(state):
            return False
        seat = engine.awaiting(state)[0]
        state = engine.apply(
            state, seat, preparing_move(game, engine.view(state, seat), seed, played)
        )
        played += 1
        if not engine.is_over(state) and engine.round_over(state):
            state = engine.next_round(state)
            played += 1
    return not engine.is_over(state)


def running_seed(game: str, options: dict[str, Any], ply: int, first: int) -> int:
    for seed in range(first, first + 500):
        if played_to(game, seed, options, ply + EXTRA_PLIES):
            return seed
    raise SystemExit(f"web: no {game} seed from {first} keeps a match running to ply {ply}")


def entry_count(match: Any) -> int:
    from games.models import Move

    return Move.objects.filter(match_id=match.pk).count()


def prepare_match(
    *, game: str, seed: int, options: dict[str, Any], ply: int, users: Sequence[Any]
) -> Any:
    """A two-player match between ``users`` played through the services to ``ply`` entries,
    and on (at most ``EXTRA_PLIES`` more) until the awaited seat can hand the turn on."""
    from games.engines import get_engine
    from games.models import Match
    from games.services import match_create, match_join, move_submit

    engine = get_engine(game)
    match = match_create(
        game=game,
        num_players=2,
        created_by=users[0],
        options=dict(options),
        seed=seed,
        public=True,  # a third person may watch it (the watcher's poll)
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
        move = preparing_move(game, view, seed, played)
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
    """A prepared match, the moves its timed requests post (one per copy), and its copies."""

    game: str
    ply: int
    original: Any
    moves: list[dict[str, Any]]
    copies: list[int] = field(default_factory=list)


# --- The timed requests --------------------------------------------------------------------


@dataclass
class Request:
    """One request as the browser of ``seat`` sends it (a ``form`` gets its CSRF field)."""

    seat: int
    path: str
    form: dict[str, Any] | None = None
    htmx: bool = False
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Kind:
    """One kind of request: its i-th instance, the kinds its p50 is set against, its figures."""

    key: str
    label: str
    expected: int
    request: Callable[[int], Request]
    against: tuple[str, ...] = ()
    samples: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)
    # How many of ``queries`` were BEGIN, COMMIT or savepoints: round trips all the same.
    control: list[int] = field(default_factory=list)


def build_kinds(
    prepared: list[Prepared], poll_match: Any, render_match: Any, *, watcher: bool = False
) -> list[Kind]:
    """The kinds of request timed; ``watcher``: also the re-rendered poll as a third person,
    who watches the public match (its browser is ``browsers[2]``): served the watchers' shared
    render (games/views/shared_table.py), rendered on the first request only."""

    def fixed(request: Request) -> Callable[[int], Request]:
        return lambda i: request

    poll = f"/matches/{poll_match.pk}/table/?version={poll_match.version}"
    stale = f"/matches/{render_match.pk}/table/?version={render_match.version - 1}"
    rendered = f"{render_match.game.title()} ply {entry_count(render_match)}"
    kinds = [
        Kind("trivial", "trivial view (login required)", 200, fixed(Request(0, "/bench/trivial/"))),
        Kind("poll-204", "poll answered 204", 204, fixed(Request(0, poll, htmx=True))),
        Kind(
            "poll-200", f"poll re-rendered ({rendered})", 200, fixed(Request(0, stale, htmx=True))
        ),
    ]
    if watcher:
        kinds.append(
            Kind(
                "poll-200-watcher",
                f"poll re-rendered, a watcher ({rendered})",
                200,
                fixed(Request(2, stale, htmx=True)),
                ("poll-200",),
            )
        )
    first = {p.game: p for p in sorted(prepared, key=lambda p: -p.ply)}
    for p in prepared:

        def move(i: int, p: Prepared = p) -> Request:
            form = {"move": json.dumps(p.moves[i]), "version": str(p.original.version)}
            return Request(p.original.awaiting[0], f"/matches/{p.copies[i]}/move/", form, htmx=True)

        against = [] if p is first[p.game] else [f"move-{p.game}-{first[p.game].ply}"]
        if p.game != "faraway" and "faraway" in first:
            against.append(f"move-faraway-{first['faraway'].ply}")
        label = f"move POST, {p.game.title()} ply {p.ply}"
        kinds.append(Kind(f"move-{p.game}-{p.ply}", label, 200, move, tuple(against)))
    longest = {p.game: p for p in sorted(prepared, key=lambda p: p.ply)}
    for game, p in sorted(longest.items()):
        # The replay viewer on each game's longest match (read only, so on the original), the
        # whole page and the htmx frame, at ply 5 and some plies before its end, as seat 0.
        plies = (5, max(p.ply - REPLAY_LATE_BEFORE_END, 6))
        for what, headers in (
            ("page", {}),
            ("frame", {"HX-Request": "true", "HX-Target": "replay-frame"}),
        ):
            for ply in plies:
                request = Request(
                    0, f"/matches/{p.original.pk}/replay/?ply={ply}&as=0", headers=headers
                )
                against = () if ply == 5 else (f"replay-{what}-{game}-5",)
                label = f"replay {what}, {game.title()} {ply}/{p.ply}"
                kinds.append(
                    Kind(f"replay-{what}-{game}-{ply}", label, 200, fixed(request), against)
                )
    return kinds


def run_rounds(
    browsers: Sequence[Browser], kinds: list[Kind], rounds: range, *, record: bool
) -> None:
    """Round-robin over the kinds, the starting kind rotating each round, so whatever else the
    machine does falls on every kind alike. Round ``r`` uses the ``r``-th copy of each match."""
    for r in rounds:
        shift = r % len(kinds)
        for kind in kinds[shift:] + kinds[:shift]:
            request = kind.request(r)
            browser = browsers[request.seat]
            form = request.form and {"csrfmiddlewaretoken": browser.token, **request.form}
            method = "GET" if form is None else "POST"
            try:
                answer = browser.request(
                    method, request.path, form, headers=request.headers, htmx=request.htmx
                )
            except OSError as exc:
                kind.errors.append(f"{type(exc).__name__}: {exc}")
                continue
            if answer.status != kind.expected:
                kind.errors.append(f"{'' if record else 'warm-up '}answered {answer.status}")
            elif record:
                kind.samples.append(answer.seconds * 1000)


def count_queries(
    kinds: list[Kind],
    users: Sequence[Any],
    browsers: Sequence[Browser],
    first_copy: int,
    repeats: int,
) -> None:
    """Statements per request in process (``django.test.Client``, same database, same code),
    on copies kept for it; replay pages with their move list to render (the server keeps it
    once rendered, per process and version)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    clients = []
    for user in users:
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        client.get("/bench/trivial/")  # the first request may touch the session: not counted
        clients.append(client)

    def answer(request: Request) -> Any:
        headers = {**request.headers}
        if request.htmx:
            headers.update(browsers[request.seat].htmx_headers(request.path))
        client = clients[request.seat]
        if request.form is None:
            return client.get(request.path, headers=headers)
        return client.post(request.path, request.form, headers=headers)

    for kind in kinds:
        page = kind.key.startswith("replay-page")
        for i in range(first_copy, first_copy + repeats):
            if page:
                cache.clear()  # counted with the move list to render (one query more than kept)
            with CaptureQueriesContext(connection) as captured:
                response = answer(kind.request(i))
            if response.status_code != kind.expected:
                kind.errors.append(f"in process answered {response.status_code}")
            sql = [q["sql"].lstrip().upper() for q in captured.captured_queries]
            kind.queries.append(len(sql))
            kind.control.append(sum(q.startswith(TX_CONTROL) for q in sql))


def figures(kinds: list[Kind]) -> list[str]:
    """Each kind's p50 and p95, its p50 over the trivial page's and over the kinds it is set
    against (a move at a late ply against the same game's first, a late replay position
    against ply 5), and its statements (BEGIN, COMMIT and savepoints counted apart)."""
    by_key = {k.key: k for k in kinds}
    trivial = p50(by_key["trivial"].samples)
    header = f"{'request':<36}{'p50 ms':>8}{'p95 ms':>8}{'p50/trivial':>13}  {'p50 against':<44}"
    lines = [header + f"{'statements':>11}", "-" * (len(header) + 11)]

    for kind in kinds:
        if not kind.samples:
            lines.append(f"{kind.label:<36}{'no samples':>16}")
            continue
        mid = p50(kind.samples)
        against = ", ".join(
            f"{by_key[k].label.split(', ')[-1]}: {ratio(mid, p50(by_key[k].samples)):.2f}x"
            for k in kind.against
        )
        counts = sorted({f"{q} ({c})" for q, c in zip(kind.queries, kind.control, strict=True)})
        lines.append(
            f"{kind.label:<36}{mid:>8.2f}{percentile(kind.samples, 0.95):>8.2f}"
            f"{ratio(mid, trivial):>12.2f}x  {against:<44}{'/'.join(counts):>11}"
        )
    moves = sorted({q for k in kinds if k.key.startswith("move-") for q in k.queries})
    lines.append(f"statements per move POST: {'/'.join(map(str, moves))} at every ply")
    return lines


# --- The run --------------------------------------------------------------------------------


def prepare_all(args: argparse.Namespace, users: Sequence[Any]) -> list[Prepared]:
    """Every prepared match through the services, then its copies: one per request on it."""
    from django.db import connection

    from games.engines import get_engine

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
        seed = running_seed(game, options, max(plies), args.seed)
        for ply in sorted(plies):
            original = prepare_match(game=game, seed=seed, options=options, ply=ply, users=users)
            engine = get_engine(game)
            passing = turn_passing(engine, engine.load(original.state), original.awaiting[0])
            rng = random.Random(f"{args.seed}|{game}|{original.pk}")
            moves = [rng.choice(passing) for _ in range(per_kind)]
            prepared.append(Prepared(game, entry_count(original), original, moves))
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
        f" (random moves; seeds {seeds}; Gulliver target {args.gulliver_target});"
        f" each copied {per_kind} times in {time.perf_counter() - t0:.1f} s"
        f" ({sum(p.ply for p in prepared) * per_kind} log rows)"
    )
    return prepared


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    failures = 0
    with stack_running("web", PARLOUR_BENCH="1") as stack:
        from django.db import connection

        print(
            f"Private PostgreSQL {connection.cursor().connection.info.server_version // 10000}"
            f" cluster (initdb's settings, migrated); gunicorn {WORKERS} sync workers, DEBUG off,"
            " Celery eager"
        )
        users, password = create_users(3, f"web-{secrets.token_hex(3)}")
        prepared = prepare_all(args, users[:2])
        # The 204 poll does the same work at any ply: it asks the longest match. The table is
        # re-rendered from the Faraway match nearest --render-ply.
        poll_match = max(prepared, key=lambda p: p.ply).original
        faraway = [p for p in prepared if p.game == "faraway"] or prepared
        render_match = min(faraway, key=lambda p: abs(p.ply - args.render_ply)).original
        connection.close()  # this process's session is idle from here until the counting

        web = stack.web(WORKERS)
        browsers = [Browser(stack.web_port, timeout=30.0) for _ in users]
        for browser, user in zip(browsers, users, strict=True):
            browser.sign_in(user.username, password)
        kinds = build_kinds(prepared, poll_match, render_match, watcher=True)
        # The warm-up rounds connect each worker to the database: the CPU window opens after.
        run_rounds(browsers, kinds, range(args.warmup), record=False)
        watch = CpuWatch({"gunicorn": web.pids, "PostgreSQL": stack.postgres.pids})
        run_rounds(browsers, kinds, range(args.warmup, args.warmup + args.requests), record=True)
        timed_cpu = watch.line()
        count_queries(kinds, users, browsers, args.warmup + args.requests, args.query_repeats)
        stack.stop_all()

        print(
            f"\nTimed over HTTP: {args.requests} requests of each kind, interleaved round-robin"
            f" after {args.warmup} warm-up round(s); every move POST on a copy of its own."
        )
        print(f"timed requests: {timed_cpu}\n")
        print("\n".join(figures(kinds)))
        for kind in kinds:
            if kind.errors:
                failures += len(kind.errors)
                print(f"  ERRORS {kind.label}: {len(kind.errors)}, first: {kind.errors[:3]}")
        copies = [
            pk for p in prepared for pk in p.copies[:: max(1, len(p.copies) // COPIES_CHECKED)]
        ]
        originals = [p.original.pk for p in prepared]
        failures += chain_check(
            f"Check of the originals and {len(copies)} copies", originals + copies
        )
    return 1 if failures else 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for flag, kind, default, text in (
        ("--requests", int, 240, "timed requests of each kind"),
        ("--warmup", int, 8, "untimed rounds first"),
        ("--query-repeats", int, 3, "in-process statement counts per kind"),
        ("--gulliver-target", int, 1000, "the prepared Gulliver match's winning score"),
        ("--seed", int, 1, "first seed tried"),
        ("--render-ply", int, 150, "Faraway ply of the re-rendered poll"),
    ):
        parser.add_argument(flag, type=kind, default=default, help=f"{text} (default {default})")
    parser.add_argument("--faraway-plies", type=int, nargs="*", default=[5, 150, 500])
    parser.add_argument("--gulliver-plies", type=int, nargs="*", default=[5, 1500])
    parser.add_argument("--quick", action="store_true", help="30 requests, plies 5 60 / 5 200")
    args = parser.parse_args(argv)
    if args.quick:
        args.requests, args.warmup, args.query_repeats = 30, 2, 2
        args.faraway_plies, args.gulliver_plies, args.render_ply = [5, 60], [5, 200], 60
    if min(args.requests, args.warmup, args.query_repeats) < 1:
        parser.error("--requests, --warmup and --query-repeats must be at least 1")
    if not args.faraway_plies and not args.gulliver_plies:
        parser.error("prepare at least one match")
    return args


if __name__ == "__main__":
    sys.exit(main())

"""The table poll and the move POST in process: thread CPU per request and cProfile call counts.

    .venv/bin/python bench/profile_request.py                # 3 rounds of 200 of each kind
    .venv/bin/python bench/profile_request.py --profile 50 --top 40 --language de

Where ``bench/web.py`` times requests over HTTP against gunicorn (wall clock, which the other
work on a shared box moves), this script sends them through ``django.test.Client`` in its own
process and times each with ``time.thread_time()``: the CPU of this thread alone, far less
moved by others' load. On the same private cluster ``web.py`` starts (``bench.report``), it
prepares a two-player Faraway match at ``--ply`` through the services (``bench.web``), copies it
once per move POST, and times, interleaved round-robin as seat 0 or the awaited seat:

- the trivial signed-in page (``/bench/trivial/``), the yardstick;
- the poll answered 204 (nothing changed) and the poll re-rendered (one version stale);
- the move POST, each on a copy of its own (htmx, as the page sends it).

Then, with ``--profile N``, each kind N more times under cProfile: Python calls per request
(deterministic, unlike time) and the functions with the most cumulative time. Run it in two
trees to compare commits (docs/performance.md, "Profiling a request in process").
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script

from bench.report import create_users, stack_running
from bench.web import copy_matches, prepare_match, running_seed, turn_passing


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ply", type=int, default=60, help="the match's ply (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="first seed tried (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds (default 3)")
    parser.add_argument("--requests", type=int, default=200, help="per kind a round (200)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed first requests (20)")
    parser.add_argument("--profile", type=int, default=50, help="profiled per kind (50; 0: none)")
    parser.add_argument("--top", type=int, default=25, help="functions listed per kind (25)")
    parser.add_argument("--language", default="", help="the users' language (default: none)")
    parser.add_argument("--save", default="", help="keep each kind's stats as SAVE-<kind>.prof")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with stack_running("profile", PARLOUR_BENCH="1"):
        from django.test import Client

        from accounts.selectors.language import SESSION_KEY as LANGUAGE_KEY
        from games.engines import get_engine

        users, _password = create_users(2, f"profile-{secrets.token_hex(3)}")
        seed = running_seed("faraway", {}, args.ply, args.seed)
        original = prepare_match(game="faraway", seed=seed, options={}, ply=args.ply, users=users)
        engine = get_engine("faraway")
        awaited = original.awaiting[0]
        passing = turn_passing(engine, engine.load(original.state), awaited)
        posts = args.warmup + args.rounds * args.requests + args.profile
        copies = copy_matches(original, posts)
        rng = random.Random(f"{args.seed}|{original.pk}")
        moves = [rng.choice(passing) for _ in copies]
        print(f"Faraway seed {seed} at ply {args.ply}; {len(copies)} copies for the move POSTs")

        clients = []
        for user in users:
            client = Client(SERVER_NAME="localhost")  # one of the stack's ALLOWED_HOSTS
            client.force_login(user)
            if args.language:  # as a sign-in leaves it (accounts.services.language)
                session = client.session
                session[LANGUAGE_KEY] = args.language
                session.save()
            clients.append(client)
        htmx = {"HTTP_HX_REQUEST": "true"}
        base = f"/matches/{original.pk}/table/?version="
        posted = iter(range(len(copies)))

        def move_post() -> Any:
            i = next(posted)
            form = {"move": json.dumps(moves[i]), "version": str(original.version)}
            return clients[awaited].post(f"/matches/{copies[i]}/move/", form, **htmx)

        kinds: dict[str, tuple[int, Callable[[], Any]]] = {
            "trivial": (200, lambda: clients[0].get("/bench/trivial/")),
            "poll-204": (204, lambda: clients[0].get(f"{base}{original.version}", **htmx)),
            "poll-200": (200, lambda: clients[0].get(f"{base}{original.version - 1}", **htmx)),
            "move": (200, move_post),
        }
        for _ in range(args.warmup):
            for name, (status, send) in kinds.items():
                _checked(name, status, send())
        cpu: dict[str, list[float]] = {name: [] for name in kinds}
        for r in range(args.rounds):
            order = list(kinds)[r % len(kinds) :] + list(kinds)[: r % len(kinds)]
            for _ in range(args.requests):
                for name in order:
                    status, send = kinds[name]
                    t0 = time.thread_time()
                    response = send()
                    cpu[name].append(time.thread_time() - t0)
                    _checked(name, status, response)
        print(f"\nThread CPU per request, p50 over {args.rounds} x {args.requests} (ms):")
        trivial = statistics.median(cpu["trivial"])
        for name, values in cpu.items():
            rounds = [
                statistics.median(values[i * args.requests : (i + 1) * args.requests]) * 1000
                for i in range(args.rounds)
            ]
            each = ", ".join(f"{v:.2f}" for v in rounds)
            mid = statistics.median(values)
            print(f"  {name:9} {mid * 1000:6.2f}  ({each}; {mid / trivial:.2f}x trivial)")
        if args.profile:
            _profiled(kinds, args.profile, args.top, args.save)
    return 0


def _checked(name: str, status: int, response: Any) -> None:
    if response.status_code != status:
        raise SystemExit(f"profile: {name} answered {response.status_code}, not {status}")


def _profiled(
    kinds: dict[str, tuple[int, Callable[[], Any]]], count: int, top: int, save: str
) -> None:
    for name, (status, send) in kinds.items():
        profiler = cProfile.Profile()
        for _ in range(count):
            profiler.enable()
            response = send()
            profiler.disable()
            _checked(name, status, response)
        stats = pstats.Stats(profiler)
        if save:  # for pstats, or a comparison of call counts between two trees
            stats.dump_stats(f"{save}-{name}.prof")
        calls = stats.total_calls / count  # type: ignore[attr-defined]
        print(f"\n== {name}: {calls:,.0f} Python calls per request (cProfile, {count} requests)")
        out = io.StringIO()
        stats.stream = out  # type: ignore[attr-defined]
        stats.sort_stats("cumulative").print_stats(top)
        lines = out.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        print("\n".join(line for line in lines[start:] if line.strip()))


if __name__ == "__main__":
    sys.exit(main())

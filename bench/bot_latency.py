"""Time from a person's move POST to the bots' replies committed, through a real Celery worker.

    .venv/bin/python bench/bot_latency.py --moves 30 [--bots 1]

What it measures: bench/README.md, docs/performance.md (Bots through a worker), its figures too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script

from bench.report import p50, percentile, stack_running


def wait_replies(match: object, since: float, timeout: float) -> None:
    """Until the person (seat 0) is awaited again or the match is over."""
    from games.models import Match

    while True:
        match.refresh_from_db()
        if match.awaiting == [0] or match.status == Match.Status.FINISHED:
            return
        if time.perf_counter() - since > timeout:
            raise SystemExit("bot_latency: the worker did not answer in time")
        time.sleep(0.002)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30, help="timed person moves")
    parser.add_argument("--bots", type=int, default=3, help="greedy bots at the table (1-3)")
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args(argv)
    samples: list[float] = []
    posts: list[float] = []
    replies: list[int] = []
    matches = 0
    with stack_running("bot_latency", redis=True, PARLOUR_BOT_WINDOW="0") as stack:
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.test.utils import setup_test_environment

        from games.engines import get_engine
        from games.models import Match
        from games.services import match_create

        setup_test_environment()  # lets the test client through ALLOWED_HOSTS
        stack.worker()
        engine = get_engine("faraway")
        person = get_user_model().objects.create_user(username="bench")
        client = Client()
        client.force_login(person)
        while len(samples) < args.moves:
            bots = {i: "greedy" for i in range(1, args.bots + 1)}
            match = match_create(
                game="faraway", num_players=args.bots + 1, created_by=person, bots=bots
            )
            matches += 1
            wait_replies(match, time.perf_counter(), args.timeout)  # the bots may open
            while len(samples) < args.moves and match.status != Match.Status.FINISHED:
                move = engine.legal_moves(engine.load(match.state), 0)[0]
                before = match.version
                t0 = time.perf_counter()
                response = client.post(
                    f"/matches/{match.pk}/move/",
                    {"move": json.dumps(move), "version": before},
                    headers={"HX-Request": "true"},
                )
                t_post = time.perf_counter()
                assert response.status_code == 200, response.status_code
                match.refresh_from_db()
                if match.awaiting == [0] or match.status == Match.Status.FINISHED:
                    continue  # the person's turn goes on (a draw): no bot to wait for
                wait_replies(match, t0, args.timeout)
                samples.append((time.perf_counter() - t0) * 1000)
                posts.append((t_post - t0) * 1000)
                replies.append(match.version - before - 1)

        bots = f"{args.bots} greedy bot" + ("s" if args.bots != 1 else "")
        print(
            f"Faraway Tree, 1 person + {bots}, worker --pool=solo on a private Redis, private"
            f" PostgreSQL, window 0: {len(samples)} person moves over {matches} match(es)"
        )
        print(
            f"  POST -> bots' replies committed: p50 {p50(samples):.0f} ms, "
            f"p95 {percentile(samples, 0.95):.0f} ms, max {max(samples):.0f} ms"
        )
        print(
            f"  the POST alone: p50 {p50(posts):.1f} ms; bot moves per reply: "
            f"mean {statistics.mean(replies):.1f} (each a task of its own)"
        )
        per_move = [s / r for s, r in zip(samples, replies, strict=True) if r]
        print(f"  per bot move through the worker: p50 {p50(per_move):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

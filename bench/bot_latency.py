"""Time from a person's move POST to the bots' replies committed, through a real Celery worker.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/parlour_bench \\
    REDIS_URL=redis://127.0.0.1:6379/14 .venv/bin/python bench/bot_latency.py --moves 30

Needs ``REDIS_URL`` (the broker) and a database every process can reach (PostgreSQL, or the
SQLite file of the embedded default). The script migrates that database, starts one worker
process (``celery -A config worker --pool=solo``, as in Procfile.dev) on a queue of its own with
``PARLOUR_BOT_WINDOW=0``, and plays a person's turns through the Django test client against
greedy bots at a Faraway Tree table. A sample starts just before the POST that ends the
person's turn and stops when the database shows the person awaited again (or the match over),
that is, when every bot reply has been committed by the worker. The worker is stopped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUEUE = f"parlour-bench-{uuid.uuid4().hex[:10]}"
os.environ["PARLOUR_CELERY_QUEUE"] = QUEUE
os.environ["PARLOUR_BOT_WINDOW"] = "0"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def start_worker() -> subprocess.Popen:
    celery = Path(sys.executable).with_name("celery")
    command = [str(celery), "-A", "config", "worker", "--pool=solo", "-l", "warning"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "-Q", QUEUE]
    return subprocess.Popen(command, cwd=ROOT, env=os.environ.copy())


def forget_queue() -> None:
    """Drop the bench's queue and kombu's bindings for it from Redis."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=2)
    client.delete(QUEUE, f"_kombu.binding.{QUEUE}", f"_kombu.binding_permanent.{QUEUE}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30, help="timed person moves")
    parser.add_argument("--bots", type=int, default=3, help="greedy bots at the table (1-3)")
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        print("bot_latency: set REDIS_URL (a real worker needs a broker)", file=sys.stderr)
        return 2

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from games.engines import get_engine
    from games.models import Match
    from games.services import match_create

    setup_test_environment()  # lets the test client through ALLOWED_HOSTS
    call_command("migrate", verbosity=0)
    engine = get_engine("faraway")
    db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    name = f"bench-{uuid.uuid4().hex[:8]}"
    person = get_user_model().objects.create_user(username=name)
    client = Client()
    client.force_login(person)

    worker = start_worker()
    samples: list[float] = []
    posts: list[float] = []
    replies: list[int] = []
    matches = 0
    try:
        while len(samples) < args.moves:
            match = match_create(
                game="faraway",
                num_players=args.bots + 1,
                created_by=person,
                bots={i: "greedy" for i in range(1, args.bots + 1)},
            )
            matches += 1
            waited = time.perf_counter()
            while len(samples) < args.moves:
                match.refresh_from_db()
                if match.status == Match.Status.FINISHED:
                    break
                if match.awaiting != [0]:
                    if time.perf_counter() - waited > args.timeout:
                        raise SystemExit("bot_latency: the worker did not answer in time")
                    time.sleep(0.002)
                    continue
                state = engine.load(match.state)
                move = engine.legal_moves(state, 0)[0]
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
                    waited = time.perf_counter()
                    continue  # the person's turn goes on (a draw): no bot to wait for
                while True:
                    match.refresh_from_db()
                    if match.awaiting == [0] or match.status == Match.Status.FINISHED:
                        break
                    if time.perf_counter() - t0 > args.timeout:
                        raise SystemExit("bot_latency: the worker did not answer in time")
                    time.sleep(0.002)
                t1 = time.perf_counter()
                samples.append((t1 - t0) * 1000)
                posts.append((t_post - t0) * 1000)
                replies.append(match.version - before - 1)
                waited = time.perf_counter()
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        forget_queue()

    bots = f"{args.bots} greedy bot" + ("s" if args.bots != 1 else "")
    print(
        f"Faraway Tree, 1 person + {bots}, worker --pool=solo on Redis, "
        f"database {db}, window 0: {len(samples)} person moves over {matches} match(es)"
    )
    print(
        f"  POST -> bots' replies committed: p50 {statistics.median(samples):.0f} ms, "
        f"p95 {percentile(samples, 0.95):.0f} ms, max {max(samples):.0f} ms"
    )
    print(
        f"  the POST alone: p50 {statistics.median(posts):.1f} ms; bot moves per reply: "
        f"mean {statistics.mean(replies):.1f} (each a task of its own)"
    )
    per_move = [s / r for s, r in zip(samples, replies, strict=True) if r]
    print(f"  per bot move through the worker: p50 {statistics.median(per_move):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

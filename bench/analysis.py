"""How long a post-game analysis takes, per game and table size, at the production budget.

    .venv/bin/python bench/analysis.py                 # PARLOUR_ANALYSIS_BUDGET_MS (300 ms)
    .venv/bin/python bench/analysis.py --quick         # Gulliver to 60 points: a smoke run

One seeded match a case played greedily through the services, then ``analysis_run`` in slices
as the task runs it, on a throwaway SQLite file in one process. Figures: docs/analysis.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script

CASES = [("faraway", 2), ("faraway", 4), ("gulliver", 2), ("gulliver", 4)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-ms", type=float, default=None, help="strong bot ms a decision")
    parser.add_argument("--seed", type=int, default=11, help="the matches' seed")
    parser.add_argument("--quick", action="store_true", help="Gulliver to 60 points only")
    parser.add_argument("--slice-s", type=float, default=None, help="seconds a task run judges")
    args = parser.parse_args()

    data = tempfile.mkdtemp(prefix="parlour-bench-analysis-")
    os.environ["DATABASE_URL"] = f"sqlite:///{data}/bench.sqlite3"
    os.environ["PARLOUR_DATA_DIR"] = data
    for name in ("REDIS_URL", "CELERY_BROKER_URL", "PARLOUR_ANALYSIS_ITERATIONS"):
        os.environ.pop(name, None)  # eager Celery; the analysis timed only, as in production
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    if args.budget_ms is not None:
        os.environ["PARLOUR_ANALYSIS_BUDGET_MS"] = str(args.budget_ms)
    if args.slice_s is not None:
        os.environ["PARLOUR_ANALYSIS_SLICE_S"] = str(args.slice_s)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.models import AnalysedDecision, AnalysisStatus, MatchAnalysis
    from games.services import match_create, match_join
    from games.services.analysis import analysis_run
    from tests.analysis_matches import play_greedy
    from tests.stack.machine import load_line, machine_line

    call_command("migrate", verbosity=0)
    users = [get_user_model().objects.create_user(f"p{i}") for i in range(4)]
    print(f"# {machine_line()}; {load_line()} at the start")
    print(
        f"# strong bot budget {settings.PARLOUR_ANALYSIS_BUDGET_MS:.0f} ms a decision, seed "
        f"{args.seed}, greedy play at every seat, one process, slices of "
        f"{settings.PARLOUR_ANALYSIS_SLICE_S:g} s"
    )
    print(
        "| game | seats | moves | people's decisions | judged | forced | analysis (s) "
        "| ms a judged decision | runs | longest run (s) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for game, seats in CASES:
        options = {"target": 60} if game == "gulliver" and args.quick else None
        match = match_create(
            game=game,
            num_players=seats,
            created_by=users[0],
            options=options,
            seed=args.seed,
            public=True,
        )
        for user in users[1:seats]:
            match_join(match=match, user=user)
        match = play_greedy(match)
        MatchAnalysis.objects.create(
            match=match, requested_by=users[0], budget_ms=settings.PARLOUR_ANALYSIS_BUDGET_MS
        )
        runs, longest, took = 0, 0.0, 0.0
        while True:  # what the task and its continuations do, one run after another
            started = time.perf_counter()
            analysis = analysis_run(match_id=match.pk, slice_s=settings.PARLOUR_ANALYSIS_SLICE_S)
            run = time.perf_counter() - started
            runs, longest, took = runs + 1, max(longest, run), took + run
            if analysis is None or analysis.status != AnalysisStatus.RUNNING:
                break
        rows = AnalysedDecision.objects.filter(analysis=analysis)
        judged = rows.filter(judged=True).count()
        forced = rows.filter(judged=False).count()
        per = 1000 * took / judged if judged else 0.0
        print(
            f"| {game} | {seats} | {match.ply} | {analysis.decisions_total} | {judged} | {forced} "
            f"| {took:.1f} | {per:.0f} | {runs} | {longest:.1f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

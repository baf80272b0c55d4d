"""``make run`` as a newcomer meets it: how soon a move reaches the screen, and what an idle
open table sends, under the real processes (runserver, a Celery worker and beat on the
filesystem broker, SQLite, no Redis) and a real Chromium, for this code and, side by side,
another checkout (the commit before):

    .venv/bin/python bench/embedded_live.py --samples 20 [--before /path/to/old/checkout]

(a) a greedy bot's reply to the person's screen: from the move's answer to the worker's next
    version shown; (b) the other seat's screen: from the other person's move answer (HTTP) to
    the table shown; (c) requests an idle open table sends in 10 s (its stream's own excluded).
Goals (issue 35): (a) p50 <= 300 ms, (b) p50 <= 150 ms, (c) 0. docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root, as a script
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
for _name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
    os.environ.pop(_name, None)

import django  # noqa: E402

django.setup()

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.report import p50, percentile  # noqa: E402
from tests.functional.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.functional.pages import log_in  # noqa: E402
from tests.functional.test_embedded_default import Person, Tally, make_run_site  # noqa: E402
from tests.functional.test_embedded_live_browser import (  # noqa: E402
    STREAMING_JS,
    bot_reply_ms,
    http_move,
    open_table,
    other_seat_ms,
    requests_of,
)


def measure(code: Path, samples: int, browser) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"bot": [], "other": [], "idle": []}
    with (
        tempfile.TemporaryDirectory(prefix="embench", dir="/tmp") as tmp,
        make_run_site(Path(tmp), code=code, beat=True) as site,
    ):
        context = browser.new_context()
        context.set_default_timeout(20_000)
        page = context.new_page()
        log_in(page, site.base_url, "ann")
        tally = Tally()
        ann, bea = Person(site.base_url, "ann", tally), Person(site.base_url, "bea", tally)
        ann.log_in()
        bea.log_in()
        live = None
        # (a): a new match against a greedy bot for each few samples.
        while len(figures["bot"]) < samples:
            pk = ann.match_new("faraway", ["me", "greedy"])
            page.goto(f"{site.base_url}/matches/{pk}/")
            page.wait_for_timeout(300)
            live = page.evaluate(STREAMING_JS) if live is None else live
            table = open_table(page, site.base_url, pk, live=bool(live))
            for _ in range(4):
                if len(figures["bot"]) >= samples:
                    break
                try:
                    figures["bot"].append(bot_reply_ms(page, table))
                except Exception:  # the match ended or the turn came back: a new one
                    break
        # (b): ann watches, bea moves over HTTP.
        while len(figures["other"]) < samples:
            pk = ann.match_new("faraway", ["me", "person"])
            assert bea.request("join", "POST", f"/matches/{pk}/join/")[0] == 302
            table = open_table(page, site.base_url, pk, live=bool(live))
            for _ in range(12):
                if len(figures["other"]) >= samples:
                    break
                if bea.open_table(pk).moves:
                    figures["other"].append(other_seat_ms(page, table, bea, pk))
                elif not http_move(ann, pk):  # ann's part of the turn, unmeasured
                    break
        # (c): an idle open table, 10 s, three times.
        for _ in range(3):
            sent = requests_of(page)
            page.wait_for_timeout(10_000)
            figures["idle"].append(float(len([p for p in sent if not p.startswith("live/")])))
        context.close()
    figures["live"] = [1.0 if live else 0.0]
    return figures


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: no samples"
    return (
        f"{name}: p50 {p50(values):.0f}, p90 {percentile(values, 90):.0f}, "
        f"min {min(values):.0f}, max {max(values):.0f} (n={len(values)})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--before", type=Path, help="another checkout, measured the same way")
    args = parser.parse_args(argv)
    runs = [("this code", Path(__file__).resolve().parents[1])]
    if args.before:
        runs.insert(0, ("before", args.before))
    with sync_playwright() as play:
        browser = play.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        for label, code in runs:
            figures = measure(code, args.samples, browser)
            print(f"== {label} ({code}); streaming: {bool(figures['live'][0])}")
            print("  " + line("(a) greedy bot's reply to the person's screen, ms", figures["bot"]))
            print("  " + line("(b) the other seat's screen, ms", figures["other"]))
            print(f"  (c) requests an idle open table sent in 10 s: {figures['idle']}")
            print(f"      mean {statistics.mean(figures['idle']):.1f}")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

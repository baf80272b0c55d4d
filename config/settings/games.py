"""Bots, rounds, deadlines, challenges, ratings and post-game analysis: their timing and how
often beat looks for work (docs/configuration.md, "Bots, rounds and deadlines").
"""

from __future__ import annotations

import os

# --- Bots, rounds and deadlines ---------------------------------------------------------------
# Seconds bots hold back after a person's card when challenges are on, so a challenge can come.
PARLOUR_BOT_WINDOW = float(os.environ.get("PARLOUR_BOT_WINDOW", "2"))
# Seconds a finished Gulliver round stays on the table before the next deal.
PARLOUR_ROUND_PAUSE = float(os.environ.get("PARLOUR_ROUND_PAUSE", "5"))
# Seconds a match waiting on a bot (or a deal) may sit still before the sweeper re-enqueues it.
PARLOUR_SWEEP_AFTER = float(os.environ.get("PARLOUR_SWEEP_AFTER", "60"))
# How long a challenge waits for its answer before it expires (days; docs/invitations.md), and
# how often beat marks the lapsed ones expired (seconds).
PARLOUR_CHALLENGE_DAYS = float(os.environ.get("PARLOUR_CHALLENGE_DAYS", "3"))
PARLOUR_INVITATIONS_EVERY = float(os.environ.get("PARLOUR_INVITATIONS_EVERY", "300"))
# How often beat runs the sweeper and the deadline check (seconds); Play now's bot fill runs as
# often as the deadline check.
PARLOUR_SWEEP_EVERY = float(os.environ.get("PARLOUR_SWEEP_EVERY", "30"))
PARLOUR_DEADLINE_EVERY = float(os.environ.get("PARLOUR_DEADLINE_EVERY", "60"))
# Leagues (docs/competitions.md): how often beat opens tables, counts absences and ends leagues
# on their day (seconds), and how many turn deadlines a league table is given before the bots
# finish it (its allowance, which also sets a league's end date).
PARLOUR_LEAGUE_EVERY = float(os.environ.get("PARLOUR_LEAGUE_EVERY", "60"))
PARLOUR_LEAGUE_TABLE_SPANS = int(os.environ.get("PARLOUR_LEAGUE_TABLE_SPANS", "6"))
# How often beat runs the rating sweeper, which rates finished matches left pending (seconds).
PARLOUR_RATINGS_EVERY = float(os.environ.get("PARLOUR_RATINGS_EVERY", "60"))
# The strong bot's thinking time per decision, in milliseconds.
PARLOUR_BOT_STRONG_BUDGET_MS = float(os.environ.get("PARLOUR_BOT_STRONG_BUDGET_MS", "800"))
# Post-game analysis (docs/analysis.md): the strong bot's thinking time per decision analysed,
# in milliseconds, and optionally an iteration cap too (tests set one, so a run replays exactly).
PARLOUR_ANALYSIS_BUDGET_MS = float(os.environ.get("PARLOUR_ANALYSIS_BUDGET_MS", "300"))
PARLOUR_ANALYSIS_ITERATIONS = (
    int(os.environ["PARLOUR_ANALYSIS_ITERATIONS"])
    if os.environ.get("PARLOUR_ANALYSIS_ITERATIONS")
    else None
)
# How long one run of the analysis task judges decisions before it sends its own continuation
# and returns (seconds), so the bot moves queued meanwhile run between slices; 0: one decision
# a run.
PARLOUR_ANALYSIS_SLICE_S = float(os.environ.get("PARLOUR_ANALYSIS_SLICE_S", "2.0"))
# How many new analyses one person may ask for (django-ratelimit, the "throttle" cache); asking
# for one that exists already costs nothing.
PARLOUR_ANALYSIS_RATE = os.environ.get("PARLOUR_ANALYSIS_RATE", "10/h")
# --- Holidays (docs/accounts.md, "Holidays") ---------------------------------------------------
# The holiday days a new account starts with (before the first holiday), on top of the day
# earned each week; at most the cap (30).
PARLOUR_HOLIDAY_START_DAYS = int(os.environ.get("PARLOUR_HOLIDAY_START_DAYS", "2"))

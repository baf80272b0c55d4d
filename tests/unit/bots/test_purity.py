"""The bot layer stays pure: no framework, database or global randomness, and a clock only
where the strong bot keeps its time budget."""

from __future__ import annotations

from tests.unit.purity import FRAMEWORK_ROOTS, GAMES, forbidden_imports, global_random_calls

BOTS = GAMES / "bots"
CLOCK_ALLOWED = {"search.py"}  # the strong bot's time budget


def test_no_framework_database_or_stray_clock():
    offenders = forbidden_imports(
        BOTS, FRAMEWORK_ROOTS | {"datetime", "time"}, allowed_in={"time": CLOCK_ALLOWED}
    )
    assert offenders == []


def test_no_global_random_calls():
    assert global_random_calls(BOTS) == []

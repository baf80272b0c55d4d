"""The command-line studies run without Django: no framework or database import, directly or
through another part of ``games``, and no shared random generator (their runs replay)."""

from __future__ import annotations

from tests.unit.purity import (
    FRAMEWORK_ROOTS,
    GAMES,
    absolute_imports,
    forbidden_imports,
    global_random_calls,
)

LAB = GAMES / "lab"
# The packages of ``games`` that their own purity tests hold free of Django; the rest of
# ``games`` (models, services, tasks...) needs settings and a database.
PURE_PACKAGES = ("games.engines", "games.bots", "games.lab")


def test_lab_modules_exist():
    assert {p.name for p in LAB.glob("*.py")} >= {"__init__.py", "simulate.py", "tournament.py"}


def test_no_framework_or_database_imports():
    assert forbidden_imports(LAB, FRAMEWORK_ROOTS) == []


def test_games_imports_stay_in_the_pure_packages():
    offenders = [
        f"{where}:{line} imports {name}"
        for where, line, name in absolute_imports(LAB)
        if name.split(".")[0] == "games"
        and not any(name == pure or name.startswith(pure + ".") for pure in PURE_PACKAGES)
    ]
    assert offenders == []


def test_no_global_random_calls():
    assert global_random_calls(LAB) == []

"""The bot layer stays pure: no framework, database or global randomness, and a clock only
where the strong bot keeps its time budget."""

from __future__ import annotations

import ast
from pathlib import Path

BOTS = Path(__file__).resolve().parents[3] / "games" / "bots"
FORBIDDEN_ROOTS = {"django", "celery", "kombu", "redis", "psycopg", "psycopg2", "sqlite3"}
CLOCK_ALLOWED = {"search.py", "tournament.py"}  # the time budget; the tournament's timing


def test_no_framework_database_or_stray_clock():
    offenders = []
    for path in BOTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                root = name.split(".")[0]
                if root in FORBIDDEN_ROOTS or root == "datetime":
                    offenders.append(f"{path.name} imports {name}")
                if root == "time" and path.name not in CLOCK_ALLOWED:
                    offenders.append(f"{path.name} reads the clock")
    assert offenders == []


def test_no_global_random_calls():
    offenders = []
    for path in BOTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                offenders.append(f"{path.name}:{node.lineno} random.{node.attr}")
    assert offenders == []

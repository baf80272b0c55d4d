"""The rules layer stays pure: no framework, database, clock or global randomness."""

import ast
from pathlib import Path

ENGINES = Path(__file__).resolve().parents[3] / "games" / "engines"
FORBIDDEN_ROOTS = {"django", "celery", "kombu", "redis", "psycopg", "psycopg2", "sqlite3", "time"}
FORBIDDEN_NAMES = {"datetime"}


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_engine_modules_exist():
    assert (ENGINES / "__init__.py").exists()
    assert (ENGINES / "base.py").exists()


def test_no_framework_clock_or_io_imports():
    offenders = []
    for path in ENGINES.rglob("*.py"):
        for name in imported_modules(path):
            root = name.split(".")[0]
            if root in FORBIDDEN_ROOTS or root in FORBIDDEN_NAMES:
                offenders.append(f"{path.relative_to(ENGINES)} imports {name}")
    assert offenders == []


def test_no_global_random_calls():
    """Only a seeded ``random.Random`` instance may be used, never the module-level functions."""
    offenders = []
    for path in ENGINES.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                offenders.append(f"{path.relative_to(ENGINES)}:{node.lineno} random.{node.attr}")
    assert offenders == []

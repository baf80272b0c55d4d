"""The read side runs one way: views call a selector for data and a presentation function
for words (docs/architecture.md). Selectors never word anything, so they never import the
presentation; the presentation never reads the database, so it imports no ``django.db`` and
no selector, service or task at run time (a selector's dataclass may be named in a hint, under
``if TYPE_CHECKING:``, which never runs)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.unit.purity import GAMES

SELECTORS = GAMES / "selectors"
PRESENTATION = GAMES / "presentation"
# The competitions keep the same read side (the ladder: docs/competitions.md).
COMPETITIONS = GAMES.parent / "competitions"


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(package: Path) -> Iterator[tuple[str, int, str, bool]]:
    """(file, line, module, only for type checking) for every import in ``package``'s
    sources, function-level ones included; relative imports resolved against the package."""
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package).as_posix()
        parts = list(path.relative_to(GAMES.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        tree = ast.parse(path.read_text(), filename=str(path))
        hinted: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and _type_checking(node):
                hinted |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield where, node.lineno, alias.name, id(node) in hinted
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = parts[: len(parts) - node.level + (path.name == "__init__.py")]
                    module = ".".join([*base, node.module] if node.module else base)
                else:
                    module = node.module or ""
                names = [module] if node.module or not node.level else []
                names += [f"{module}.{a.name}" for a in node.names if not node.module]
                for name in names or [module]:
                    yield where, node.lineno, name, id(node) in hinted


def offenders(package: Path, prefixes: tuple[str, ...], *, hints_allowed: bool) -> list[str]:
    return [
        f"{where}:{line} imports {module}"
        for where, line, module, hint in runtime_imports(package)
        if module.startswith(prefixes) and not (hints_allowed and hint)
    ]


def test_selectors_never_import_the_presentation():
    assert offenders(SELECTORS, ("games.presentation",), hints_allowed=False) == []


def test_the_presentation_reads_nothing():
    forbidden = ("django.db", "games.selectors", "games.services", "games.tasks", "games.queue")
    assert offenders(PRESENTATION, forbidden, hints_allowed=True) == []


def test_the_competitions_selectors_never_import_their_presentation():
    found = offenders(
        COMPETITIONS / "selectors", ("competitions.presentation",), hints_allowed=False
    )
    assert found == []


def test_the_competitions_presentation_reads_nothing():
    forbidden = (
        "django.db",
        "games.selectors",
        "games.services",
        "competitions.selectors",
        "competitions.services",
        "competitions.models",
    )
    assert offenders(COMPETITIONS / "presentation", forbidden, hints_allowed=True) == []


def test_the_scanner_sees_function_level_and_relative_imports(tmp_path):
    """The scan is only as good as what it sees: an import inside a function, a relative one,
    and one under ``TYPE_CHECKING`` (seen, and marked as a hint)."""
    package = GAMES / "presentation"
    found = {(m, h) for _, _, m, h in runtime_imports(package)}
    assert ("games.presentation.common", False) in found  # ``from .common import ...``
    assert ("games.selectors.table", True) in found  # a hint in presentation/table.py

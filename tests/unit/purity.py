"""One scanner for the purity tests of the pure packages (engines, bots, lab).

Each check reads the sources with ``ast`` instead of importing them, so a forbidden import is
caught even in a module no test happens to import, and returns offenders as readable lines
("file:line ...") so that a failing ``assert offenders == []`` says where to look.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
# Frameworks and databases: importing any of these ties a package to settings or services.
FRAMEWORK_ROOTS = frozenset(
    {"django", "celery", "kombu", "redis", "psycopg", "psycopg2", "sqlite3"}
)


def absolute_imports(package: Path) -> Iterator[tuple[str, int, str]]:
    """(file relative to ``package``, line, module) for each absolute import in its sources.

    Relative imports stay inside the package, which is being scanned anyway, so they are skipped.
    """
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield where, node.lineno, alias.name
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                yield where, node.lineno, node.module


def forbidden_imports(
    package: Path,
    roots: Iterable[str],
    allowed_in: Mapping[str, Iterable[str]] | None = None,
) -> list[str]:
    """Imports in ``package`` whose top-level module is in ``roots``.

    ``allowed_in`` maps a root to the files (relative to ``package``) that may import it anyway.
    """
    forbidden = set(roots)
    exempt = {root: set(files) for root, files in (allowed_in or {}).items()}
    return [
        f"{where}:{line} imports {name}"
        for where, line, name in absolute_imports(package)
        if (root := name.split(".")[0]) in forbidden and where not in exempt.get(root, ())
    ]


def global_random_calls(package: Path) -> list[str]:
    """Uses of the ``random`` module's shared generator (anything but ``random.Random``).

    Only a seeded ``random.Random`` instance replays; the module-level functions draw from one
    generator every caller shares.
    """
    offenders = []
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                offenders.append(f"{where}:{node.lineno} random.{node.attr}")
    return offenders

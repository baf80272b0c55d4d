"""The module map is whole (docs/architecture.md, "Every module"): every module of ``games``,
``accounts`` and ``competitions`` has a row there with its one job, and the page names no module
that is gone.

A module is every ``.py`` file under those packages except migrations and empty
``__init__.py`` files (a package's ``__init__.py`` with code in it is a module like any other).
A new module fails here until it has its row, the way ``tests/integration/test_registry.py``
fails for a game that lacks a page; a moved or deleted one fails until its row follows.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PACKAGES = ("games", "accounts", "competitions")
SECTION = "## Every module"

# A table row whose first cell is a path in backticks: | `games/live/hub.py` | its job |
ROW = re.compile(r"^\|\s*`(?P<path>[^`]+)`\s*\|")
# A module or package of theirs anywhere in the page, in backticks:
# `games/live/hub.py`, `games/live/`. A path with a placeholder (`games/engines/<name>.py`)
# names no module, and a template (`games/_move.html`, under templates/) is not one.
NAMED_PATH = re.compile(r"`(?P<path>(?:games|accounts|competitions)/(?:[\w/]*\.py|[\w/]*/)?)`")


def modules() -> set[str]:
    """Every module's path relative to the project, as the map spells it."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts:
                continue
            if path.name == "__init__.py" and not path.read_text().strip():
                continue
            found.add(relative.as_posix())
    return found


def map_rows() -> list[str]:
    """The first cell of every row of the "Every module" section's tables, in page order."""
    text = ARCHITECTURE.read_text()
    assert SECTION in text, f"docs/architecture.md has no {SECTION!r} section"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return [match["path"] for line in section.splitlines() if (match := ROW.match(line))]


def test_every_module_has_a_row_in_the_map():
    missing = sorted(modules() - set(map_rows()))
    assert missing == [], (
        "add a row to docs/architecture.md's 'Every module' table for each: "
        "| `path` | its one job |"
    )


def test_the_map_names_no_module_that_is_gone():
    stale = sorted(set(map_rows()) - modules())
    assert stale == [], "these rows of docs/architecture.md's 'Every module' name no module"


def test_each_module_has_one_row():
    rows = map_rows()
    assert sorted(path for path in set(rows) if rows.count(path) > 1) == []


def test_every_path_the_page_names_exists():
    """The layers' table and the prose name packages and modules by path too
    (`games/live/`, `games/verify_record.py`): each must still be there."""
    named = {match["path"] for match in NAMED_PATH.finditer(ARCHITECTURE.read_text())}
    gone = sorted(path for path in named if not (ROOT / path).exists())
    assert gone == []

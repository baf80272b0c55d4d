"""Every variable the settings read is in docs/configuration.md, and nothing else is.

The settings modules (``config/settings/*.py``) are read with ``ast``: a variable counts as read
when it is the constant key of ``os.environ.get``/``os.getenv``/``os.environ[...]``, the first
argument of a helper named ``env_*`` (``env_bool``, ``env_list``), or ``dj_database_url.config``'s
``env`` (``DATABASE_URL`` by default). A read whose key is not a constant, outside those
helpers, fails the test too: it would hide a variable from the check. Each section of the page
names its module in its heading and lists exactly what that module reads; the processes'
section lists what the Procfiles and the Makefile read (docs/configuration.md says so).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "config" / "settings"
DOC = ROOT / "docs" / "configuration.md"
PROCESS_FILES = ("Procfile", "Procfile.dev", "deploy/nginx/Procfile", "Makefile")

VARIABLE = re.compile(r"`([A-Z][A-Z0-9_]*)`")
SECTION_MODULE = re.compile(r"^## .*\(`(config/settings/\w+\.py)`\)\s*$")
PROCESSES = "processes"


def _is_environ(node: ast.AST) -> bool:
    """``os.environ``."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "environ"
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
    )


def _constant(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def environment_reads(source: str) -> tuple[set[str], list[int]]:
    """The variables ``source`` reads, and the lines of reads whose key is not a constant
    (outside the ``env_*`` helpers, which read the name they are given)."""
    read: set[str] = set()
    unresolved: list[int] = []
    helpers_lines: set[int] = set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("env_"):
            helpers_lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))

    def key(arg: ast.AST | None, line: int) -> None:
        name = _constant(arg)
        if name is not None:
            read.add(name)
        elif line not in helpers_lines:
            unresolved.append(line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_environ(node.value):
            if isinstance(node.ctx, ast.Load):
                key(node.slice, node.lineno)
        elif isinstance(node, ast.Call):
            func = node.func
            first = node.args[0] if node.args else None
            if isinstance(func, ast.Attribute) and func.attr == "get" and _is_environ(func.value):
                key(first, node.lineno)
            elif (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and (func.value.id, func.attr) in {("os", "getenv"), ("dj_database_url", "config")}
            ):
                if func.attr == "config":
                    env = next((k.value for k in node.keywords if k.arg == "env"), None)
                    key(env if env is not None else ast.Constant("DATABASE_URL"), node.lineno)
                else:
                    key(first, node.lineno)
            elif isinstance(func, ast.Name) and func.id.startswith("env_"):
                key(first, node.lineno)
    return read, unresolved


def documented(text: str) -> dict[str, set[str]]:
    """The variables in the first column of each section's table, by the section's module
    (``processes`` for the section that names none)."""
    sections: dict[str, set[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            match = SECTION_MODULE.match(line)
            current = match.group(1) if match else PROCESSES
            sections.setdefault(current, set())
        elif current and line.startswith("| `"):
            first_cell = line.split("|")[1]
            sections[current].update(VARIABLE.findall(first_cell))
    return sections


def settings_reads(settings_dir: Path) -> dict[str, set[str]]:
    """What each settings module reads, by its path from the project's root."""
    found = {}
    for path in sorted(settings_dir.glob("*.py")):
        read, unresolved = environment_reads(path.read_text())
        assert unresolved == [], (
            f"{path.name}: a variable read by a computed name, lines {unresolved}"
        )
        if read:
            found[path.relative_to(settings_dir.parents[1]).as_posix()] = read
    return found


def mismatches(reads: dict[str, set[str]], listed: dict[str, set[str]]) -> list[str]:
    """Every variable a module reads that its section lacks, and every one a section lists
    that its module does not read."""
    problems = []
    for module in sorted(set(reads) | (set(listed) - {PROCESSES})):
        for name in sorted(reads.get(module, set()) - listed.get(module, set())):
            problems.append(f"{module} reads {name}, not listed in its section")
        for name in sorted(listed.get(module, set()) - reads.get(module, set())):
            problems.append(f"{module}'s section lists {name}, which it does not read")
    return problems


def test_every_variable_the_settings_read_is_listed_and_nothing_else():
    reads = settings_reads(SETTINGS)
    assert "config/settings/base.py" in reads and "config/settings/live.py" in reads
    assert mismatches(reads, documented(DOC.read_text())) == []


def test_no_variable_is_listed_twice():
    listed = documented(DOC.read_text())
    seen: dict[str, str] = {}
    twice = []
    for module, names in listed.items():
        for name in names:
            if name in seen:
                twice.append(f"{name}: {seen[name]} and {module}")
            seen[name] = module
    assert twice == []


def test_the_processes_section_lists_what_the_process_files_read():
    text = "\n".join((ROOT / name).read_text() for name in PROCESS_FILES)
    process_reads = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", text))
    listed = documented(DOC.read_text())[PROCESSES]
    # The process files pass a few settings' variables on (CELERY_BROKER_URL, REDIS_URL): those
    # have their rows in their modules' sections.
    settings_variables = set().union(*settings_reads(SETTINGS).values())
    assert sorted(listed - process_reads) == []
    assert sorted(process_reads - listed - settings_variables) == []


# --- The check itself, on made-up settings ----------------------------------------------------


def test_the_scanner_finds_every_way_of_reading(tmp_path):
    source = """
import os
import dj_database_url

def env_bool(name, default=False):
    return os.environ.get(name) in {"1"}

A = os.environ.get("A", "x")
B = os.environ["B"] if os.environ.get("C") else None
D = env_bool("D")
E = env_list(
    "E",
    "a,b",
)
F = os.getenv("F")
DATABASES = {"default": dj_database_url.config(default="sqlite://")}
os.environ["WRITTEN"] = "only written, not read"
"""
    read, unresolved = environment_reads(source)
    assert read == {"A", "B", "C", "D", "E", "F", "DATABASE_URL"}
    assert unresolved == []
    _, unresolved = environment_reads("import os\nNAME = 'X'\nX = os.environ.get(NAME)\n")
    assert unresolved == [3]


def test_a_variable_read_but_not_listed_and_one_listed_but_not_read_both_fail():
    listed = documented(
        "## The site (`config/settings/base.py`)\n\n"
        "| variable | default | meaning |\n| --- | --- | --- |\n"
        "| `A`, `B` | `1` | read |\n"
        "| `GONE` | off | nobody reads it (`NOT_A_ROW` in the meaning is no variable) |\n"
        "## Processes\n\n| `PORT` | `8000` | not a setting |\n"
    )
    assert listed == {"config/settings/base.py": {"A", "B", "GONE"}, PROCESSES: {"PORT"}}
    reads = {"config/settings/base.py": {"A", "B", "NEW"}, "config/settings/mail.py": {"M"}}
    assert mismatches(reads, listed) == [
        "config/settings/base.py reads NEW, not listed in its section",
        "config/settings/base.py's section lists GONE, which it does not read",
        "config/settings/mail.py reads M, not listed in its section",
    ]

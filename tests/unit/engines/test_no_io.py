"""The engines package does no I/O: no files, no command line, no standard streams.

Reading a record from a file and parsing arguments belong to ``games.verify_record`` (and the
``verify_record`` management command); the engines only check what they are handed.
"""

from __future__ import annotations

import ast

from tests.unit.purity import GAMES, forbidden_imports

ENGINES = GAMES / "engines"
IO_ROOTS = {"argparse", "sys", "pathlib", "io"}


def test_the_engines_import_no_io_or_command_line_module():
    assert forbidden_imports(ENGINES, IO_ROOTS) == []


def test_the_engines_open_no_file():
    offenders = []
    for path in sorted(ENGINES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Call) and (
                (isinstance(node.func, ast.Name) and node.func.id == "open")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "open")
            ):
                offenders.append(f"{path.relative_to(ENGINES)}:{node.lineno} open(...)")
    assert offenders == []

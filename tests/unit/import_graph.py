"""The import graph of the site's own packages, read with ``ast`` (nothing is imported).

Every import counts, wherever it stands: at the top, inside a function, under ``TYPE_CHECKING``.
An import deferred into a function still ties the two modules together (it only hides the
circle from Python's loader), so it is an edge here like any other.

One exception, named by the layering rule: a package's ``__init__`` that re-exports names of
its own modules. ``from games.services import StaleVersion`` is an edge to the module that
defines ``StaleVersion`` (``games.services.errors``), not to the package, and a package's
``__init__`` importing its own submodules is what makes it a package, not a circle.

Usable as a script on any checkout (the state before a change, say):
``python tests/unit/import_graph.py ROOT games accounts`` prints the cycles it finds.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Import:
    """One import statement's target as written: ``module``, and ``name`` for ``from ... import
    name`` (``None`` for ``import module``), at ``line`` of the importing file."""

    module: str
    name: str | None
    line: int


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    imports: list[Import] = field(default_factory=list)
    # Names this module binds by importing them: name -> (module, attribute or None).
    bound: dict[str, tuple[str, str | None]] = field(default_factory=dict)


def _module_name(root: Path, path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def _absolute(module: Module, level: int, target: str | None) -> str:
    """The absolute module a relative ``from`` import names."""
    if level == 0:
        return target or ""
    base = module.name.split(".")
    if not module.is_package:
        base.pop()
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def modules(root: Path, packages: Iterable[str]) -> dict[str, Module]:
    """Every module of ``packages`` under ``root``, with the imports it makes anywhere."""
    found: dict[str, Module] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            name, is_package = _module_name(root, path)
            module = Module(name=name, path=path, is_package=is_package)
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        module.imports.append(Import(alias.name, None, node.lineno))
                        top = alias.asname or alias.name.split(".")[0]
                        module.bound[top] = (alias.name if alias.asname else top, None)
                elif isinstance(node, ast.ImportFrom):
                    source = _absolute(module, node.level, node.module)
                    for alias in node.names:
                        module.imports.append(Import(source, alias.name, node.lineno))
                        module.bound[alias.asname or alias.name] = (source, alias.name)
            found[name] = module
    return found


def _resolve(found: dict[str, Module], target: Import, seen: frozenset[str] = frozenset()) -> str:
    """The module an import depends on: a submodule when one is named, and through a package's
    re-export to the module that defines the name."""
    if target.name is not None and f"{target.module}.{target.name}" in found:
        return f"{target.module}.{target.name}"
    package = found.get(target.module)
    if package is None or not package.is_package or target.name is None:
        return target.module
    origin = package.bound.get(target.name)
    if origin is None or target.module in seen:
        return target.module  # defined in the package's __init__ itself
    source, attribute = origin
    return _resolve(found, Import(source, attribute, target.line), seen | {target.module})


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int


def edges(found: dict[str, Module]) -> Iterator[Edge]:
    """Each dependency between two of ``found``'s modules (once per importing line)."""
    for module in found.values():
        seen: set[Edge] = set()
        for target in module.imports:
            resolved = _resolve(found, target)
            if resolved not in found or resolved == module.name:
                continue
            if module.is_package and _within(resolved, module.name):
                continue  # a package's __init__ importing its own modules: a re-export
            edge = Edge(module.name, resolved, target.line)
            if edge not in seen:
                seen.add(edge)
                yield edge


def _shortest_cycle(graph: dict[str, set[str]], start: str) -> list[str]:
    """One shortest path from ``start`` back to itself (breadth first), as module names."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node]):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if succ not in previous:
                    previous[succ] = node
                    following.append(succ)
        frontier = following
    return []


def cycles(found: dict[str, Module]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {name: set() for name in found}
    for edge in edges(found):
        graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        # Iterative, so a long chain of imports cannot hit the recursion limit.
        nonlocal counter
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(components)


def cycle_report(found: dict[str, Module], component: list[str]) -> str:
    """A component's modules, one cycle through it, and the import lines that tie them."""
    members = set(component)
    inside: dict[str, set[str]] = {name: set() for name in component}
    for edge in edges(found):
        if edge.source in members and edge.target in members:
            inside[edge.source].add(edge.target)
    loop = " -> ".join(_shortest_cycle(inside, component[0]))
    lines = [
        f"  {edge.source}:{edge.line} -> {edge.target}"
        for edge in sorted(edges(found), key=lambda e: (e.source, e.line, e.target))
        if edge.source in members and edge.target in members
    ]
    return "\n".join([f"cycle among {', '.join(component)}", f"  e.g. {loop}", *lines])


def tasks_imports(found: dict[str, Module], packages: Iterable[str]) -> list[str]:
    """Imports of a Celery tasks module (``<app>.tasks``) by modules of ``packages``."""
    tasks_modules = {name for name in found if name.split(".")[-1] == "tasks"}
    offenders = []
    for module in found.values():
        if not any(_within(module.name, p) for p in packages):
            continue
        for target in module.imports:
            named = {target.module}
            if target.name is not None:
                named.add(f"{target.module}.{target.name}")
            hit = sorted(named & tasks_modules)
            if hit:
                where = module.path.relative_to(ROOT) if module.path.is_relative_to(ROOT) else ""
                offenders.append(f"{where or module.name}:{target.line} imports {hit[0]}")
    return offenders


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    packages = sys.argv[2:] or ["games", "accounts"]
    found = modules(root, packages)
    components = cycles(found)
    for component in components:
        print(cycle_report(found, component))
    print(f"{len(components)} cycle(s) among {len(found)} modules")

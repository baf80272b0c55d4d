"""The layers import downwards only: no module reaches a tasks module, and no import circle.

Read from the sources with ``ast`` (``tests/unit/import_graph.py``), so an import inside a
function counts, and a module no test imports is checked too.
"""

from __future__ import annotations

import ast

from tests.unit.import_graph import ROOT, cycle_report, cycles, edges, modules, tasks_imports

# Everything but the tasks themselves sends background work by name, through ``games.queue``.
NO_TASKS_IMPORTS = (
    "games.services",
    "games.selectors",
    "games.presentation",
    "games.views",
    "games.engines",
    "games.bots",
    "games.queue",
    "accounts",
    "core",
)

# The one games module accounts may name: it sends background work by its registered name.
ACCOUNTS_MAY_IMPORT = ("games.queue",)


def test_no_layer_imports_a_tasks_module():
    found = modules(ROOT, ["games", "accounts", "core"])
    assert tasks_imports(found, NO_TASKS_IMPORTS) == []


def test_the_import_graph_of_games_and_accounts_has_no_cycle():
    found = modules(ROOT, ["games", "accounts", "core"])
    assert "games.tasks" in found and "games.services._store" in found  # the scan saw them
    components = cycles(found)
    assert components == [], "\n" + "\n\n".join(cycle_report(found, c) for c in components)


def test_the_platform_imports_no_games_or_accounts_module():
    """``core`` (middlewares, error views, brokers, the publisher, the page queue, the backup
    command) sits below both: the games and the accounts use it, never the other way round."""
    found = modules(ROOT, ["core"])
    assert "core.publish" in found and "core.management.commands.backup" in found
    upward = [
        f"{module.path.relative_to(ROOT)}:{target.line} {target.module}"
        for module in found.values()
        for target in module.imports
        if target.module.split(".")[0] in {"games", "accounts"}
    ]
    assert upward == []


def test_no_service_or_task_names_a_game():
    """What a game does (has rounds, say) is asked of its engine through the registry: a
    service or task testing ``Match.Game.GULLIVER`` would leave a new game out."""
    games = ROOT / "games"
    offenders = []
    for path in [
        *sorted((games / "services").glob("*.py")),
        games / "tasks.py",
        games / "queue.py",
    ]:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "Match"
                and node.attr == "Game"
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} Match.Game")
    assert offenders == []


# Only the write funnel announces a table change, and only the invitations a badge count: a
# change announced anywhere else is a change some other path forgets (docs/live.md).
LIVE_PUBLISHER = "games.live.publish"
LIVE_PUBLISHER_CALLERS = {
    "games.services._store",
    "games.services.invitations",
    "competitions.league_notices",
    "competitions.services.ladder",
}


def _publisher_importers(found) -> set[str]:
    return {
        module.name
        for module in found.values()
        if not module.name.startswith("games.live")
        for imported in module.imports
        if imported.module == LIVE_PUBLISHER
        or (imported.module == "games.live" and imported.name == "publish")
    }


def test_only_the_write_funnel_and_the_notices_writers_call_the_live_publisher():
    found = modules(ROOT, ["games", "accounts", "config", "competitions"])
    importers = _publisher_importers(found)
    assert importers == LIVE_PUBLISHER_CALLERS


def test_the_publisher_scan_sees_every_spelling_of_the_import(tmp_path):
    _tree(
        tmp_path,
        {
            "games/__init__.py": "",
            "games/live/__init__.py": "",
            "games/live/publish.py": "",
            "games/a.py": "from games.live import publish as live\n",
            "games/b.py": "import games.live.publish\n",
            "games/c.py": "def f():\n    from games.live.publish import table_changed\n",
            "games/d.py": "from games.live import stream\n",
        },
    )
    assert _publisher_importers(modules(tmp_path, ["games"])) == {"games.a", "games.b", "games.c"}


# --- The scanner itself, on small made-up packages ---------------------------------------------


def _tree(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_an_import_inside_a_function_closes_a_cycle(tmp_path):
    _tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/tasks.py": "from app.services import work\n",
            "app/services.py": "def work():\n    from app import tasks\n",
        },
    )
    found = modules(tmp_path, ["app"])
    assert cycles(found) == [["app.services", "app.tasks"]]
    report = cycle_report(found, ["app.services", "app.tasks"])
    assert "app.services:2 -> app.tasks" in report
    assert tasks_imports(found, ["app.services"]) == ["app.services:2 imports app.tasks"]


def test_a_package_reexporting_its_modules_is_no_cycle(tmp_path):
    _tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/services/__init__.py": "from app.services.moves import move\n",
            "app/services/moves.py": "from app.services.errors import Rejected\n",
            "app/services/errors.py": "class Rejected(Exception): ...\n",
            "app/tasks.py": "from app.services import move\n",
            "app/other.py": "from .services import errors\n",
        },
    )
    found = modules(tmp_path, ["app"])
    assert cycles(found) == []
    # The re-exported name leads to the module defining it, not to the package.
    targets = {(e.source, e.target) for e in edges(found)}
    assert ("app.tasks", "app.services.moves") in targets
    assert ("app.other", "app.services.errors") in targets


def test_accounts_imports_no_games_module_but_the_queue():
    """``accounts`` is the person, below the games (docs/architecture.md): what a block, a
    deletion or an export means for matches, games says by listening to ``accounts.signals``;
    the account page takes the sections games adds. Function-level imports count."""
    found = modules(ROOT, ["games", "accounts"])
    assert "accounts.services.deletion" in found  # the scan saw it
    crossing = sorted(
        f"{edge.source}:{edge.line} imports {edge.target}"
        for edge in edges(found)
        if edge.source.startswith("accounts")
        and edge.target.startswith("games")
        and not any(edge.target == allowed for allowed in ACCOUNTS_MAY_IMPORT)
    )
    assert crossing == []


def test_the_games_and_the_accounts_import_no_competition_module():
    """Competitions (leagues, cups, the ladder) stand on the games: a match never knows the
    league it belongs to by importing it."""
    found = modules(ROOT, ["games", "accounts"])
    upward = [
        f"{module.path.relative_to(ROOT)}:{target.line} {target.module}"
        for module in found.values()
        for target in module.imports
        if target.module.split(".")[0] == "competitions"
    ]
    assert upward == []

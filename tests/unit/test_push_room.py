"""Web push is one room, ``games/push/`` (docs/notifications.md, "Web push"): its borders.

The settings import the room's VAPID module before Django is set up, so importing it must not
import Django; the room sends no work through a tasks module; and ``accounts/tasks.py``, which
no longer holds the turn push, reaches no games module but ``games.queue``.
"""

from __future__ import annotations

import subprocess
import sys

from tests.unit.import_graph import ROOT, modules, tasks_imports


def test_the_vapid_module_imports_no_django():
    """What ``config/settings/push.py`` imports at its top: ``games``, ``games.push`` and the keys
    module itself, none of which may set Django's app loading going."""
    script = (
        "import sys\n"
        "from games.push.vapid import key_pair_stored\n"
        "ours = {'django', 'games', 'accounts'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ours))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "['games', 'games.push', 'games.push.vapid']"


def test_the_room_imports_no_tasks_module():
    found = modules(ROOT, ["games", "accounts"])
    assert "games.push.turn" in found  # the scan saw the room
    assert tasks_imports(found, ["games.push"]) == []


def test_the_accounts_tasks_reach_no_games_module_but_the_queue():
    found = modules(ROOT, ["accounts"])
    games_imports = sorted(
        f"{target.module}.{target.name}" if target.module == "games" else target.module
        for target in found["accounts.tasks"].imports
        if target.module.split(".")[0] == "games"
    )
    assert games_imports == ["games.queue"]

"""Dealing a chosen pack order is for lessons only (issue 34 item 1; docs/engine-contract.md,
"Lessons"): nothing on the path of real matches reaches ``Engine.new_game_from_pack`` or the
lessons, and a lesson's game can never pass for a match's."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.engines import get_engine, registered
from games.engines.base import LESSON_SEED
from games.lessons import games, lessons_for
from games.lessons.base import deal_order, lesson_start

ROOT = Path(__file__).resolve().parents[3]
LESSON_NAMES = {"new_game_from_pack", "lesson_pack", "LESSON_SEED"}
ALLOWED = ("games/lessons/", "games/engines/")
# The lessons' pages (docs/lessons.md): they run lessons, and reach no match.
LESSON_PAGES = (
    "games/views/lessons.py",
    "games/services/lessons.py",
    "games/presentation/lessons.py",
)
# The path of a real match's move, from the click to the store and the work after it.
MATCH_PATH = (
    "games/views/table.py",
    "games/services/moves.py",
    "games/services/_store.py",
    "games/services/matches.py",
    "games/services/bots.py",
    "games/services/deadlines.py",
    "games/services/results.py",
    "games/services/ratings.py",
    "games/services/notifications.py",
    "games/tasks.py",
)


def _references(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in LESSON_NAMES:
            found.add(node.attr)
        elif isinstance(node, ast.Name) and node.id in LESSON_NAMES:
            found.add(node.id)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games.lessons"):
            found.add(node.module or "")
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module == "games"
            and any(a.name == "lessons" for a in node.names)
        ) or (
            isinstance(node, ast.Import)
            and any(a.name.startswith("games.lessons") for a in node.names)
        ):
            found.add("games.lessons")
    return found


def test_nothing_outside_the_lessons_and_engines_deals_a_lesson() -> None:
    """The services, views, forms, bots, tasks and accounts never name the lessons' entry
    point: a real match is dealt only by ``new_game`` from its own seed."""
    offenders = {}
    for package in ("games", "accounts", "config", "core"):
        for path in (ROOT / package).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(ALLOWED) or relative in LESSON_PAGES:
                continue
            if "/migrations/" in relative:
                continue
            if found := _references(path):
                offenders[relative] = sorted(found)
    assert offenders == {}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            names |= {node.module or ""} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    return names


def test_the_lesson_pages_and_the_match_path_never_meet() -> None:
    """The lessons' pages import no match's service, task or row, and no module on a real
    match's move path imports the lessons or their pages: a lesson has no Match row, rating,
    history, record or notice."""
    pages = {p.removesuffix(".py").replace("/", ".") for p in LESSON_PAGES}
    match_rows = {f"games.models.{name}" for name in ("Match", "Seat", "Move", "Rating")}
    for relative in LESSON_PAGES:
        imported = _imports(ROOT / relative)
        services = {n for n in imported if n.startswith("games.services")}
        assert all(n.startswith("games.services.lessons") for n in services), relative
        assert not imported & match_rows, relative
        assert not any(n.startswith(("games.tasks", "games.queue")) for n in imported), relative
    for relative in MATCH_PATH:
        imported = _imports(ROOT / relative)
        assert not any(n.startswith(("games.lessons", *pages)) for n in imported), relative


def test_a_lesson_game_has_a_string_seed_where_every_match_seed_is_a_number() -> None:
    from games.models import Match

    assert isinstance(LESSON_SEED, str)
    assert Match._meta.get_field("seed").get_internal_type() in {
        "BigIntegerField",
        "IntegerField",
        "PositiveBigIntegerField",
    }
    for game in games():
        engine = get_engine(game)
        state = lesson_start(lessons_for(game)[0]).state
        assert engine.dump(state)["seed"] == LESSON_SEED


def test_new_game_from_pack_deals_the_order_given_and_refuses_a_deck_option() -> None:
    for engine in registered():
        if engine.name not in games():
            continue
        pack = list(reversed(engine.lesson_pack(2)))
        state = engine.new_game_from_pack(2, pack)
        assert engine.state_hash(state) == engine.state_hash(
            engine.new_game(2, LESSON_SEED, {"deck": pack})
        )
        with pytest.raises(ValueError, match="pack argument"):
            engine.new_game_from_pack(2, pack, {"deck": pack})
        with pytest.raises(ValueError):
            engine.new_game_from_pack(2, pack[1:])  # not the whole pack


def test_a_lesson_deal_holds_only_cards_of_the_pack() -> None:
    engine = get_engine("faraway")
    with pytest.raises(ValueError, match="the pack does not"):
        deal_order(engine, [("1",) * 5 + ("2",), ("3",) * 6], 1, ())


def test_the_lessons_import_only_the_engines() -> None:
    """Lessons never reach a match: their modules import the engines and the standard
    library, never Django, the models or the services."""
    allowed = ("games.engines", "games.lessons", "__future__", "collections", "dataclasses")
    allowed += ("typing",)
    for path in (ROOT / "games" / "lessons").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = ["games.lessons" if node.level else node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                assert name.startswith(allowed), f"{path.name} imports {name}"

"""The rule-clause map (docs/lessons.md, "Clause map") against the lessons' own marks: every
clause of each printed rule sheet is taught by the lessons the doc names, exactly, or left to
the rules page and taught by none; every clause a step names is in the doc."""

from __future__ import annotations

import re
from pathlib import Path

from games.lessons import games, lessons_for

DOC = Path(__file__).resolve().parents[3] / "docs" / "lessons.md"
LEFT = "left to the rules page"
SECTION = re.compile(r"^### .*\(`(?P<game>\w+)`\)\s*$")
ROW = re.compile(r"^\|\s*(?P<id>[A-Z]\d+)\s*\|\s*(?P<words>[^|]+?)\s*\|\s*(?P<by>[^|]+?)\s*\|$")


def clause_map() -> dict[str, dict[str, set[str] | None]]:
    """Per game, each clause id with the lessons the doc names (``None``: left)."""
    text = DOC.read_text().split("## Clause map", 1)[1]
    out: dict[str, dict[str, set[str] | None]] = {}
    game = None
    for line in text.splitlines():
        if m := SECTION.match(line):
            game = m["game"]
            out[game] = {}
        elif (m := ROW.match(line)) and game is not None:
            assert m["id"] not in out[game], f"{m['id']} twice in the {game} map"
            by = m["by"]
            out[game][m["id"]] = None if by == LEFT else set(re.findall(r"`([\w-]+)`", by))
    return out


def taught(game: str) -> dict[str, set[str]]:
    marks: dict[str, set[str]] = {}
    for lesson in lessons_for(game):
        for clause in lesson.clauses:
            marks.setdefault(clause, set()).add(lesson.slug)
    return marks


def test_every_game_with_lessons_has_a_clause_map() -> None:
    assert set(clause_map()) == set(games())


def test_the_map_and_the_lessons_agree() -> None:
    doc = clause_map()
    for game in games():
        marks = taught(game)
        unknown = set(marks) - set(doc[game])
        assert not unknown, f"{game}: steps name clauses the doc lacks: {sorted(unknown)}"
        for clause, by in doc[game].items():
            if by is None:
                assert clause not in marks, f"{game} {clause}: left, but taught by {marks[clause]}"
            else:
                assert by, f"{game} {clause}: neither taught nor left"
                assert by == marks.get(clause, set()), (
                    f"{game} {clause}: the doc says {sorted(by)}, the lessons"
                    f" {sorted(marks.get(clause, set()))}"
                )


def test_clauses_are_numbered_in_order() -> None:
    for game, clauses in clause_map().items():
        ids = list(clauses)
        prefix = ids[0][0]
        assert ids == [f"{prefix}{i}" for i in range(1, len(ids) + 1)], game


def test_the_lesson_tables_name_every_lesson_with_its_target() -> None:
    """docs/lessons.md's "The lessons" tables: every lesson, in order, with its target."""
    text = DOC.read_text().split("## The lessons", 1)[1].split("## Clause map", 1)[0]
    rows = re.findall(r"^\|\s*`([\w-]+)`\s*\|[^|]+\|\s*(\d+)\s*\|$", text, re.MULTILINE)
    listed = [(slug, int(target)) for slug, target in rows]
    assert listed == [
        (lesson.slug, lesson.target) for game in games() for lesson in lessons_for(game)
    ]

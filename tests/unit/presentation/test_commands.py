"""What keyboard and text-mode players are given on every table (docs/accessibility.md): each
legal move is one button with its own text-mode command and a name that says which card it is
(by place) and what pressing it does; another seat's hand is named by its count alone."""

from __future__ import annotations

import pytest

from games.engines import get_engine
from games.presentation import table_build
from games.presentation.common import MoveButton, name_commands
from tests.unit.presentation.helpers import NAMES, random_play

CASES = [
    (game, players, seed, steps)
    for game, players in (("faraway", 2), ("faraway", 4), ("gulliver", 2), ("gulliver", 3))
    for seed in (1, 2)
    for steps in (1, 7, 30)
]
OPTIONS = {"faraway": {}, "gulliver": {"target": 60, "challenges": True}}


def _awaited_table(game: str, players: int, seed: int, steps: int) -> tuple[dict, dict]:
    state, _ = random_play(game, players, seed, OPTIONS[game], viewer=None, max_steps=steps)
    engine = get_engine(game)
    seat = (engine.awaiting(state) or [0])[0]
    view = engine.view(state, seat)
    view["legal_moves"] = engine.legal_moves(state, seat)
    return view, table_build(game, view=view, names=NAMES[:players], log=[])


def _buttons(table: dict) -> list[MoveButton]:
    slots = list(table["hand"]) + list(table.get("discards", []))
    return [b for slot in slots for b in slot.moves] + list(table["bar_moves"])


@pytest.mark.parametrize(("game", "players", "seed", "steps"), CASES)
def test_every_legal_move_is_one_button_with_its_own_command(game, players, seed, steps):
    view, table = _awaited_table(game, players, seed, steps)
    buttons = _buttons(table)
    assert len(buttons) == len(view["legal_moves"])
    commands = [b.command for b in buttons]
    assert all(commands) and len(set(commands)) == len(commands), commands
    for n, slot in enumerate(table["hand"], start=1):
        assert slot.number == n
        assert (
            slot.name
            == f"Card {n} of {len(table['hand'])} in your hand: " + (slot.face["aria_label"])
        )
        for button in slot.moves:
            assert button.name == f"{slot.place}: {button.aria_label}"
            assert button.command == f"{button.move['type']} {n}"
    for n, slot in enumerate(table.get("discards", []), start=1):
        assert slot.place == f"Discard {n} of {len(table['discards'])}"
        assert all(button.command == f"take discard {n}" for button in slot.moves)


@pytest.mark.parametrize(("game", "players", "seed", "steps"), CASES[:6])
def test_another_seats_hand_is_named_face_down_by_its_count_alone(game, players, seed, steps):
    view, table = _awaited_table(game, players, seed, steps)
    for player in table["players"]:
        count = view["hand_counts"][player["index"]]
        cards = f"{count} card" + ("" if count == 1 else "s")
        if player["is_me"]:
            assert player["hand_words"] == f"Your hand: {cards}"
        else:
            assert player["hand_words"] == f"{player['name']}\u2019s hand: {cards}, face down"


def test_bar_moves_of_one_type_are_numbered_and_a_lone_one_is_its_type():
    bar = [
        MoveButton({"type": "vote", "accept": True}, "Vote: it stands"),
        MoveButton({"type": "vote", "accept": False}, "Vote: take it back"),
        MoveButton({"type": "pass"}, "Pass"),
    ]
    name_commands(bar)
    assert [b.command for b in bar] == ["vote 1", "vote 2", "pass"]
    assert bar[2].name == "Pass"  # no card: its name is the move's words alone

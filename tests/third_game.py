"""A third game, made for one test: "Last token", the simplest whole game the contract allows
(docs/engine-contract.md). Players take one or two tokens from a pile in turn; whoever takes
the last token wins. It has an option (the pile's size), no hidden cards and no rounds.

``registered_third_game()`` puts it, with its presentation, into the site's registries for the
length of a test, which proves every page asks the registries rather than naming a game
(docs/architecture.md, "Adding a game")."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from games import engines, presentation
from games.engines.base import Engine, IllegalMove, Option, check_seat, copy_json
from games.presentation.common import GameBuilder, attach, table_common

NAME = "lasttoken"


class LastTokenEngine(Engine):
    name = NAME
    title = "Last Token"
    min_players = 2
    max_players = 3
    rules_version = 1
    summary = "Take one or two tokens a turn; whoever takes the last one wins."
    score_help = "tokens taken by the end"
    table_phrases = (("last_one", "The last one is mine"),)
    options = (Option("pile", "Tokens in the pile", "int", minimum=3, maximum=30),)

    def new_game(self, num_players: int, seed: int | str, options: dict | None = None) -> dict:
        n = self.check_players(num_players)
        pile = int((options or {}).get("pile", 7))
        events = [{"type": "deal", "seat": None, "pile": pile}]
        return {"n": n, "pile": pile, "turn": 0, "taken": [0] * n, "winner": None, "ev": events}

    def awaiting(self, state: dict) -> list[int]:
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict[str, Any]]:
        if state["winner"] is not None or seat != state["turn"]:
            return []
        return [{"type": "take", "count": k} for k in (1, 2) if k <= state["pile"]]

    def explain(self, state: dict, seat: int, move: object) -> str:
        check_seat(state["n"], seat)
        if state["winner"] is not None:
            return "The match is over."
        if seat != state["turn"]:
            return "It is not your turn."
        if move not in self.legal_moves(state, seat):
            return "Take one or two tokens."
        return ""

    def apply(self, state: dict, seat: int, move: dict[str, Any]) -> dict:
        reason = self.explain(state, seat, move)
        if reason:
            raise IllegalMove(reason)
        new = copy_json(state)
        new["pile"] -= move["count"]
        new["taken"][seat] += move["count"]
        new["ev"] = [{"type": "take", "seat": seat, "count": move["count"]}]
        if new["pile"] == 0:
            new["winner"] = seat
        else:
            new["turn"] = (seat + 1) % state["n"]
        return new

    def view(self, state: dict, seat: int | None) -> dict[str, Any]:
        over = state["winner"] is not None
        return {
            "seat": seat,
            "pile": state["pile"],
            "taken": list(state["taken"]),
            "awaiting": self.awaiting(state),
            "legal_moves": [] if seat is None else self.legal_moves(state, seat),
            "hand": [],
            "hand_counts": [0] * state["n"],
            "over": over,
            "outcome": self.outcome(state) if over else None,
            "events": self.events(state),
        }

    def events(self, state: dict) -> list[dict[str, Any]]:
        return copy_json(state["ev"])

    def is_over(self, state: dict) -> bool:
        return state["winner"] is not None

    def outcome(self, state: dict) -> dict[str, Any]:
        winner = state["winner"]
        return {
            "winners": [] if winner is None else [winner],
            "draw": False,
            "scores": list(state["taken"]),
        }

    def dump(self, state: dict) -> dict[str, Any]:
        return {k: v for k, v in copy_json(state).items() if k != "ev"}

    def load(self, data: dict[str, Any]) -> dict:
        return {**copy_json(data), "ev": []}

    def sample_state(self, view: dict[str, Any], rng: random.Random) -> dict:
        raise NotImplementedError("Last Token has nothing hidden to sample.")


def _table(view: dict[str, Any], names: list[str], log: Any) -> dict[str, Any]:
    table = table_common(view, names)
    table["bar_moves"] = attach(
        view.get("legal_moves") or [], [], lambda m: None, lambda m: _label(m, view, names)
    )
    table["pile"] = view["pile"]
    return table


def _label(move: dict[str, Any], view: dict[str, Any], names: list[str]) -> tuple[str, str]:
    count = move["count"]
    return str(count), f"Take {count} token{'s' if count > 1 else ''}"


def _event_line(event: dict[str, Any], names: list[str]) -> str:
    if event["type"] == "deal":
        return f"The pile holds {event['pile']} tokens."
    return f"{names[event['seat']]} took {event['count']}."


BUILDER = GameBuilder(
    table=_table,
    event_line=_event_line,
    board_template="games/_hand.html",  # no cards to lay out: the moves sit in the bar
    face=lambda code: {"code": code, "template": "games/_card_faraway.html"},
    move_label=_label,
)
ENGINE = LastTokenEngine()


@contextmanager
def registered_third_game() -> Iterator[LastTokenEngine]:
    engines.register(ENGINE)
    presentation.register(NAME, BUILDER)
    try:
        yield ENGINE
    finally:
        presentation.unregister(NAME)
        engines.unregister(NAME)

"""A third game, made for one test: "Last token", the simplest whole game the contract allows
(docs/engine-contract.md). Players take one or two tokens from a pile in turn; whoever takes
the last token wins. It has options (the pile's size; a tally), no hidden cards and no rounds.

The tally is a trivial vote, so the vote path runs on a game that is not Gulliver: with
``tally`` = N, every Nth take that leaves tokens opens a one-ballot vote, the next player
saying whether they agree with the count, before their own turn. A ballot changes nothing but
the log; a silent seat agrees; a tallied take may be disputed (bots hold back for the window
after a person's take).

``registered_third_game()`` puts it, with its presentation and a bot module, into the site's
registries for the length of a test, which proves every page asks the registries rather than
naming a game (docs/architecture.md, "Adding a game")."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

from games import bots, engines, presentation
from games.engines.base import Engine, IllegalMove, Option, Reason, check_seat, copy_json, reason
from games.presentation.common import GameBuilder, attach, table_common

NAME = "lasttoken"


class LastTokenEngine(Engine):
    name = NAME
    title = "Last Token"
    min_players = 2
    max_players = 3
    rules_version = 1
    reason_codes = frozenset({"no_seat", "match_over", "not_your_turn", "not_offered"})
    summary = "Take one or two tokens a turn; whoever takes the last one wins."
    score_help = "tokens taken by the end"
    table_phrases = (("last_one", "The last one is mine"),)
    options = (
        Option("pile", "Tokens in the pile", "int", minimum=3, maximum=30),
        Option(
            "tally",
            "Tally every so many takes",
            "int",
            help="The next player agrees to the count first.",
            minimum=1,
            maximum=9,
        ),
    )

    def new_game(self, num_players: int, seed: int | str, options: dict | None = None) -> dict:
        n = self.check_players(num_players)
        pile = int((options or {}).get("pile", 7))
        tally = int((options or {}).get("tally", 0))
        events = [{"type": "deal", "seat": None, "pile": pile}]
        return {
            "n": n,
            "pile": pile,
            "turn": 0,
            "taken": [0] * n,
            "winner": None,
            "tally": tally,
            "takes": 0,
            "ballot": None,  # the seat whose tally is awaited, before its own turn
            "ev": events,
        }

    def awaiting(self, state: dict) -> list[int]:
        if state["winner"] is not None:
            return []
        return [state["turn"] if state.get("ballot") is None else state["ballot"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict[str, Any]]:
        if state["winner"] is not None or seat not in self.awaiting(state):
            return []
        if state.get("ballot") is not None:
            return [{"type": "tally", "agree": True}, {"type": "tally", "agree": False}]
        return [{"type": "take", "count": k} for k in (1, 2) if k <= state["pile"]]

    def explain(self, state: dict, seat: int, move: object) -> Reason | None:
        check_seat(state["n"], seat)
        if state["winner"] is not None:
            return reason("match_over")
        if seat not in self.awaiting(state):
            return reason("not_your_turn", seat=self.awaiting(state)[0])
        if move not in self.legal_moves(state, seat):
            return reason("not_offered")
        return None

    def apply(self, state: dict, seat: int, move: dict[str, Any]) -> dict:
        why = self.explain(state, seat, move)
        if why is not None:
            raise IllegalMove(why)
        new = copy_json(state)
        if move["type"] == "tally":
            new["ballot"] = None
            new["ev"] = [{"type": "tally", "seat": seat, "agree": move["agree"]}]
            return new
        new["pile"] -= move["count"]
        new["taken"][seat] += move["count"]
        new["takes"] = state.get("takes", 0) + 1
        new["ev"] = [{"type": "take", "seat": seat, "count": move["count"]}]
        if new["pile"] == 0:
            new["winner"] = seat
        else:
            new["turn"] = (seat + 1) % state["n"]
            if self._tallied(state):
                new["ballot"] = new["turn"]
        return new

    def vote_open(self, state: dict, seat: int) -> bool:
        return state["winner"] is None and state.get("ballot") == seat

    def silent_ballot(self, state: dict, seat: int) -> dict[str, Any]:
        return {"type": "tally", "agree": True}

    def move_disputable(self, state: dict, move: dict[str, Any]) -> bool:
        return move.get("type") == "take" and self._tallied(state)

    def _tallied(self, state: dict) -> bool:
        """Whether the take made in ``state`` is tallied (every ``tally``-th take)."""
        tally = state.get("tally", 0)
        return bool(tally) and (state.get("takes", 0) + 1) % tally == 0

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
    if move["type"] == "tally":
        return ("agree", "Agree") if move["agree"] else ("disagree", "Disagree")
    count = move["count"]
    return str(count), f"Take {count} token{'s' if count > 1 else ''}"


def _event_line(event: dict[str, Any], names: list[str]) -> str:
    if event["type"] == "deal":
        return f"The pile holds {event['pile']} tokens."
    if event["type"] == "tally":
        return f"{names[event['seat']]} {'agreed to' if event['agree'] else 'disputed'} the count."
    return f"{names[event['seat']]} took {event['count']}."


def _greedy_move(view: dict[str, Any], moves: Sequence[dict[str, Any]], rng: Any) -> dict:
    """Last Token's bot: takes the most it may (it agrees to every count: bots vote with the
    table, as ``games.bots.playable_moves`` would have it for Gulliver)."""
    return max(moves, key=lambda m: (m.get("agree", False), m.get("count", 0)))


BUILDER = GameBuilder(
    table=_table,
    event_line=_event_line,
    board_template="games/_hand.html",  # no cards to lay out: the moves sit in the bar
    face=lambda code: {"code": code, "template": "games/_card_faraway.html"},
    move_label=_label,
)
ENGINE = LastTokenEngine()
BOTS = SimpleNamespace(greedy_move=_greedy_move)


@contextmanager
def registered_third_game() -> Iterator[LastTokenEngine]:
    engines.register(ENGINE)
    presentation.register(NAME, BUILDER)
    bots.GAME_BOTS[NAME] = BOTS
    try:
        yield ENGINE
    finally:
        del bots.GAME_BOTS[NAME]
        presentation.unregister(NAME)
        engines.unregister(NAME)

"""Resigning, for every game alike (docs/leaving.md): the entry, when it ends a match, and the
standings it leaves. Pure like the engines, so the record verifier applies the same rules.

A resignation is a logged entry ``(seat, RESIGN)`` in the hash chain like any move. The engine
never sees it: the position does not change (``games.engines.replay.step``), the greedy bot
plays the seat's turns from then on, and the person ranks below everyone still playing.

- The match ends at once when at most one seat is left playing, or no person is
  (``ends_match``): the seats still playing then share first place, since a position
  part-way through a game is not a result.
- Otherwise play goes on, and when the game ends the seats still playing keep the order the
  game gives them among themselves.
- Either way the resigners have lost and rank last, the earlier resigner lower.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .results import Standing, standings

RESIGN: dict = {"type": "resign"}


def is_resignation(seat: int | None, move: Any) -> bool:
    """Whether the entry ``(seat, move)`` is a resignation (a seat's, exactly ``RESIGN``)."""
    return seat is not None and move == RESIGN


def resigned_order(plies: Mapping[int, int | None]) -> list[int]:
    """The seats that resigned, in the order they did, from each seat's resignation ply
    (``None``: not resigned)."""
    return sorted((s for s, ply in plies.items() if ply is not None), key=lambda s: plies[s])


def ends_match(*, num_players: int, resigned: Collection[int], people: Collection[int]) -> bool:
    """Whether the resignations in ``resigned`` end a match at once: at most one seat is left
    playing, or no person is (``people``: the seats people hold, resigned or not)."""
    playing = [seat for seat in range(num_players) if seat not in resigned]
    return len(playing) <= 1 or not any(seat in people for seat in playing)


def resigned_standings(
    outcome: dict[str, Any], num_players: int, resigned: Sequence[int], *, game_over: bool
) -> list[Standing]:
    """Each seat's standing, by seat, once a match with resignations is over.

    ``outcome`` is the engine's at the end, ``resigned`` the seats that resigned in the order
    they did, ``game_over`` whether the game itself ended (else the resignations ended it).
    Without resignations this is ``standings(outcome, num_players)`` unchanged.

    The seats still playing rank first: by the game's own ranks when the game ended, all
    equal when resignations ended it. Those ranked first have won (one seat) or share the win
    (``"drawn"``, several); the rest have lost. The resigners follow, all lost: the last to
    resign just below the seats still playing, the first to resign last of all.
    """
    if not resigned:
        return standings(outcome, num_players)
    scores = outcome["scores"]
    if len(scores) != num_players or len(set(resigned)) != len(resigned):
        raise ValueError(f"These resignations do not fit a table of {num_players}.")
    playing = [seat for seat in range(num_players) if seat not in resigned]
    game_rank = {seat: 1 for seat in playing}
    if game_over:
        by_game = standings(outcome, num_players)
        game_rank = {seat: by_game[seat].rank for seat in playing}
    rank = {s: 1 + sum(1 for o in playing if game_rank[o] < game_rank[s]) for s in playing}
    leaders = [seat for seat in playing if rank[seat] == 1]
    top = "won" if len(leaders) == 1 else "drawn"
    table: list[Standing | None] = [None] * num_players
    for seat in playing:
        table[seat] = Standing(top if rank[seat] == 1 else "lost", int(scores[seat]), rank[seat])
    for place, seat in enumerate(reversed(resigned), start=len(playing) + 1):
        table[seat] = Standing("lost", int(scores[seat]), place)
    return [standing for standing in table if standing is not None]


def resigned_outcome(outcome: dict[str, Any], table: Sequence[Standing]) -> dict[str, Any]:
    """The outcome a match with resignations ends with: the winners are the seats ranked first
    that did not lose (``resigned_standings``), a draw when they are several, the engine's
    scores as they stood."""
    winners = [seat for seat, s in enumerate(table) if s.rank == 1 and s.result != "lost"]
    return {"winners": winners, "draw": len(winners) > 1, "scores": list(outcome["scores"])}

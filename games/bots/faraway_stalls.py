"""Stalled Faraway Tree positions: when nobody has done anything but recycle the discards.

Late in a match every hand may be down to a card or two. A seat can then be stuck holding the
card a rival needs: any progress of its own would force it to throw that card away. Waiting is
its best move. If the rival's search cannot see that only the pack will get it out (the pack
must run out and the discards be shuffled back before the missing copies come round), both
seats take a card from the discards and throw one back, turn after turn, until the 2,000-turn
safety net calls the match a draw (docs/rulings.md). Two searching bots did this in about one
game in twelve (docs/bots.md): the rollouts are far too short to see the safety net, and the
evaluation rates the seat ahead as almost sure to win, whatever it does.

So the search treats a stall as what it is. Once the last ``STALL_ROUNDS`` rounds of turns
were all *recycling turns* (a draw from the discards, then a discard: no pack, no story card,
no Penalty), a draw that would keep the stall going scores at most a draw's share of the win
(1/players) in every deal. A seat that expects to win therefore breaks the stall when another
move keeps its hopes above a draw, and a seat that is behind chooses as before. The rule reads
the public move log only: who drew from where, and what was laid or thrown.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engines.faraway_cards import STORY_CODE

from .common import History, Move, View

# Rounds of nothing but recycling turns (every seat's turn, twice) before a position counts
# as stalled. Greedy mirror games never recycle for more than 2 turns in a row.
STALL_ROUNDS = 2


def recycling_streak(history: History) -> int:
    """How many turns in a row, counting back from the latest, were recycling turns."""
    streak = 0
    turn: list[Move] = []  # the turn being read, in reverse order of its moves
    for _seat, move in reversed(history):
        turn.append(move)
        if move.get("type") != "draw":
            continue
        # ``turn`` now runs from this draw to the end of its turn (reversed).
        if len(turn) != 2 or move.get("source") != "discard" or turn[0].get("type") != "discard":
            break
        streak += 1
        turn = []
    return streak


def stalled(history: History, num_players: int) -> bool:
    return recycling_streak(history) >= STALL_ROUNDS * num_players


def ceilings(view: View, moves: Sequence[Move], history: History) -> list[float] | None:
    """The most each of ``moves`` may score in the search (``None``: no limit on any).

    In a stalled position a draw from the discards that does not bring the seat's next story
    card (which it would lay at once, moving on) keeps the stall: at most a draw's share."""
    num_players = len(view["hand_counts"])
    if not moves or moves[0].get("type") != "draw" or not stalled(history, num_players):
        return None
    height = len(view["rows"][view["seat"]])
    need = STORY_CODE.get(height + 1)  # None once the row is finished: nothing brings it
    draw_share = 1.0 / num_players
    limits = []
    for move in moves:
        keeps = move.get("source") == "discard" and all(
            view["discards"][i] != need for i in move["positions"]
        )
        limits.append(draw_share if keeps else 1.0)
    return limits if draw_share in limits else None

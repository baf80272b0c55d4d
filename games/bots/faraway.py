"""Faraway Tree know-how for the bots: the greedy policy and the search's evaluation.

Everything here reads a *view* (``engine.view(state, seat)``): what a person in that seat sees.
The strong bot also calls ``evaluate`` on determinized states (its own guesses), where looking
at every hand is looking at its own guess, not at the real hidden cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

# Every fact of the game comes from the engine (issue 22): the pack, the cards' numbers and
# penalty lengths from its card data, who a Penalty hits and the seats' order from its rules.
from games.engines.faraway import opponents_left_of, penalty_victim
from games.engines.faraway_cards import (
    PACK_COUNTS,
    PENALTY_NUMBER,
    PENALTY_TURNS,
    STORY_CODES,
    STORY_NUMBER,
    WINNING_NUMBER,
)

from . import faraway_eval, faraway_stalls
from .common import History, Move, View
from .search import Sampler

# Hand-tuned weights of the one-move heuristic (see docs/bots.md). A card's worth falls with its
# distance above the next story card the seat needs; a run starting at that card is worth more,
# since it will be laid turn after turn without drawing.
NEED_VALUE = 60.0
STEP_DROP = 7.0
FLOOR_VALUE = 4.0
RUN_BONUS = 25.0
DUPLICATE_SHARE = 0.15
DEAD_VALUE = -2.0
FEED_NEXT = 30.0
FEED_OTHER = 12.0
FEED_PENALTY = 25.0
PLAY_NOW = 40.0  # the next story card, drawn, is laid at once: progress, not just a holding
PACK_EDGE = 0.5  # on a tie, draw blind: it shows nothing and keeps the pack moving


class Obs:
    """The facts of a view the heuristic reads, in a compact form (the greedy policy runs
    thousands of times per strong decision, inside rollouts)."""

    __slots__ = ("aside", "discards", "hand", "heights", "n", "pens", "seat")

    def __init__(
        self,
        seat: int,
        hand: Sequence[str],
        heights: Sequence[int],
        discards: Sequence[str],
        pens: Sequence[tuple[str, int] | None],
        aside: Sequence[str],
    ) -> None:
        self.seat = seat
        self.hand = tuple(hand)
        self.heights = tuple(heights)
        self.discards = tuple(discards)  # top first, the three drawable cards
        self.pens = tuple(pens)
        self.aside = tuple(aside)
        self.n = len(self.heights)

    @classmethod
    def of_view(cls, view: View) -> Obs:
        return cls(
            view["seat"],
            view["hand"],
            [len(row) for row in view["rows"]],
            view["discards"],
            [None if p is None else (p["card"], p["turns_left"]) for p in view["penalties"]],
            view.get("aside", ()),
        )


def is_penalty(card: str) -> bool:
    return card in PENALTY_NUMBER


# Penalty worths by position: (seat, heights, who is serving a Penalty) -> worth of P2..P8.
# Rollouts meet the same few positions again and again; the cache is cleared when it grows.
_PENALTY_TABLES: dict[tuple, tuple[float, ...]] = {}
_PENALTY_TABLES_MAX = 50_000


def _penalty_table(obs: Obs) -> tuple[float, ...]:
    key = (obs.seat, obs.heights, tuple(p is not None for p in obs.pens))
    table = _PENALTY_TABLES.get(key)
    if table is not None:
        return table
    others = opponents_left_of(obs.seat, obs.n)
    leader = max(obs.heights[o] for o in others)
    worths = []
    for k in range(WINNING_NUMBER):  # every Penalty number is below the winning one
        best = 1.0
        for other in others:
            h = obs.heights[other]
            if h == k:
                # Busy serving another Penalty, it may still be there when that one is served.
                busy = obs.pens[other] is not None
                value = 15.0 if busy else 50.0 + (10.0 if h == leader else 0.0)
            elif h < k:
                value = max(1.0, 22.0 - 6.0 * (k - h - 1))
            else:
                value = 1.0
            best = max(best, value)
        worths.append(best)
    if len(_PENALTY_TABLES) >= _PENALTY_TABLES_MAX:
        _PENALTY_TABLES.clear()
    table = _PENALTY_TABLES[key] = tuple(worths)
    return table


def penalty_worth(obs: Obs, card: str) -> float:
    """How much holding this Penalty is worth: a lot if it can hit someone now or soon."""
    return _penalty_table(obs)[PENALTY_NUMBER[card]]


def hand_value(obs: Obs, hand: Sequence[str]) -> float:
    """The worth of holding ``hand`` for the observing seat."""
    need = obs.heights[obs.seat] + 1
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    run_top = need
    while run_top <= WINNING_NUMBER and STORY_CODES[run_top - 1] in counts:
        run_top += 1
    value = 0.0
    for card, count in counts.items():
        if card[0] == "P":
            # A second copy of the same Penalty (only P8) cannot hit the same seat at once.
            value += penalty_worth(obs, card) * (1 + DUPLICATE_SHARE * (count - 1))
            continue
        number = STORY_NUMBER[card]
        if number < need:
            value += DEAD_VALUE * count
            continue
        worth = max(FLOOR_VALUE, NEED_VALUE - STEP_DROP * (number - need))
        if number < run_top:
            worth += RUN_BONUS
        value += worth * (1 + DUPLICATE_SHARE * (count - 1))
    return value


def unseen_cards(obs: Obs) -> dict[str, int]:
    """Cards this seat cannot see: the pack minus its hand, every row, the visible discards and
    the Penalties lying on seats or put aside. (Cards buried in the discard pile count as
    unseen too: they come back when the pack is reshuffled.)"""
    unseen = dict(PACK_COUNTS)
    for card in obs.hand:
        unseen[card] -= 1
    for h in obs.heights:
        for card in STORY_CODES[:h]:
            unseen[card] -= 1
    for card in obs.discards:
        unseen[card] -= 1
    for pen in obs.pens:
        if pen is not None:
            unseen[pen[0]] -= 1
    for card in obs.aside:
        unseen[card] -= 1
    return {card: count for card, count in unseen.items() if count > 0}


def _story_worth(number: int, need: int) -> float:
    return max(FLOOR_VALUE, NEED_VALUE - STEP_DROP * (number - need))


def add_gain(obs: Obs, counts: dict[str, int], run_top: int, card: str) -> float:
    """``hand_value(hand + [card]) - hand_value(hand)``, without recounting the hand (this is
    the inner loop of every draw decision, in rollouts too)."""
    held = counts.get(card, 0)
    if card[0] == "P":
        worth = penalty_worth(obs, card)
        return worth if not held else worth * DUPLICATE_SHARE
    need = obs.heights[obs.seat] + 1
    number = STORY_NUMBER[card]
    if number < need:
        return DEAD_VALUE
    worth = _story_worth(number, need)
    if held:
        return (worth + (RUN_BONUS if number < run_top else 0.0)) * DUPLICATE_SHARE
    if number != run_top:
        return worth
    # The card extends the run, and every held card just above it joins the run too.
    gain = worth + RUN_BONUS
    nxt = number + 1
    while nxt <= WINNING_NUMBER and STORY_CODES[nxt - 1] in counts:
        gain += RUN_BONUS * (1 + DUPLICATE_SHARE * (counts[STORY_CODES[nxt - 1]] - 1))
        nxt += 1
    return gain


def hand_counts(obs: Obs) -> tuple[dict[str, int], int]:
    """The hand as counts, and the first story card above the run held from the next one."""
    counts: dict[str, int] = {}
    for card in obs.hand:
        counts[card] = counts.get(card, 0) + 1
    run_top = obs.heights[obs.seat] + 1
    while run_top <= WINNING_NUMBER and STORY_CODES[run_top - 1] in counts:
        run_top += 1
    return counts, run_top


def draw_gains(obs: Obs, moves: Sequence[Move]) -> list[float]:
    """What each draw adds to the hand's worth by the end of the turn. A turn ends with a
    discard, so a drawn card only helps by pushing out the weakest card held (or by being
    laid at once); the pack counts as its average unseen card. Valuing a draw as if the hand
    could grow made greedy bots swap the same middling discards back and forth for ever,
    never touching the pack that held the card they both needed."""
    counts, run_top = hand_counts(obs)
    height = obs.heights[obs.seat]
    need = STORY_CODES[height] if height < WINNING_NUMBER else None
    holds_need = need is not None and need in counts
    base = hand_value(obs, obs.hand)
    # Worth counts what holding a card denies the seats after us, as the discard will.
    weakest = min((keep_value(obs, c, base) for c in counts), default=0.0)

    def gain(card: str) -> float:
        value = add_gain(obs, counts, run_top, card) + feed_cost(obs, card)
        if card == need and not holds_need:
            value += PLAY_NOW
        return max(value, weakest) - weakest

    gains = []
    pack_gain = None
    for move in moves:
        if move.get("source") == "discard":
            drawn = [obs.discards[i] for i in move["positions"]]
            values = sorted((gain(c) for c in drawn), reverse=True)
            # Of two cards drawn into an empty hand, one is laid or thrown: the better counts.
            gains.append(values[0] + (values[1] if need in drawn and len(values) > 1 else 0.0))
            continue
        if pack_gain is None:
            unseen = unseen_cards(obs)
            total = sum(unseen.values())
            pack_gain = sum(c * gain(k) for k, c in unseen.items()) / total if total else 0.0
        # Two cards from the pack: the better of two is worth about one and a half cards.
        gains.append(pack_gain * (1.5 if move.get("count", 1) == 2 else 1.0) + PACK_EDGE)
    return gains


def next_seats(obs: Obs) -> list[int]:
    """Opponents in the order they will draw next, penalised seats (who skip turns) last."""
    order = opponents_left_of(obs.seat, obs.n)
    return [o for o in order if obs.pens[o] is None] + [o for o in order if obs.pens[o]]


def feed_cost(obs: Obs, card: str) -> float:
    """What throwing ``card`` on the discards gives away to the seats drawing after us."""
    if card[0] == "P":
        # Thrown where the next players can pick it up and hit us with it.
        return FEED_PENALTY if obs.heights[obs.seat] == PENALTY_NUMBER[card] else 0.0
    number = STORY_NUMBER[card]
    cost = 0.0
    for rank, other in enumerate(next_seats(obs)):
        if obs.heights[other] + 1 == number:
            cost = max(cost, FEED_NEXT if rank == 0 else FEED_OTHER)
    return cost


def keep_value(obs: Obs, card: str, base: float) -> float:
    rest = list(obs.hand)
    rest.remove(card)
    return base - hand_value(obs, rest) + feed_cost(obs, card)


def victim_score(obs: Obs, move: Move) -> float:
    card = move["card"]
    victim = penalty_victim(PENALTY_NUMBER[card], obs.seat, obs.heights, obs.pens)
    if victim is None:
        return -math.inf
    h = obs.heights[victim]
    return 10.0 * h + 5.0 * PENALTY_TURNS[card] + (20.0 if h == max(obs.heights) else 0.0)


def greedy_move(view: View, moves: Sequence[Move], rng: random.Random) -> Move:
    """One-move heuristic: take what you need, lay it, hit the leader, throw dead cards first,
    keep the cards you will need soon and do not throw the next seat what it needs."""
    return greedy_obs(Obs.of_view(view), moves, rng)


def greedy_obs(obs: Obs, moves: Sequence[Move], rng: random.Random) -> Move:
    kind = moves[0]["type"]
    if kind == "draw":
        return _best(moves, draw_gains(obs, moves), rng)
    for move in moves:
        if move["type"] == "play":
            return move
    penalties = [m for m in moves if m["type"] == "penalty"]
    if penalties:
        return max(penalties, key=lambda m: victim_score(obs, m))
    discards = [m for m in moves if m["type"] == "discard"]
    if discards:
        base = hand_value(obs, obs.hand)
        return _best(discards, [-keep_value(obs, m["card"], base) for m in discards], rng)
    return rng.choice(list(moves))


def _best(moves: Sequence[Move], scores: Sequence[float], rng: random.Random) -> Move:
    """The best-scoring move; ties broken by the seeded RNG so no seat order is favoured."""
    top = max(scores)
    tied = [m for m, s in zip(moves, scores, strict=True) if s >= top - 1e-9]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


# --- The strong bot's evaluation of a (determinized) position ---------------------------------

# Progress of a seat, in story cards: laid cards count fully, a run in hand starting at the
# next card most of the way, a missed turn costs most of a card. The softmax temperature turns
# the gaps into win chances.
RUN_CREDIT = 0.6
NEAR_CREDIT = 0.15
MISSED_TURN_COST = 0.7
SHARPNESS = 0.8


def progress(height: int, hand: Sequence[str], penalty: tuple[str, int] | None) -> float:
    need = height + 1
    held = {STORY_NUMBER[c] for c in hand if c[0] != "P"}
    run = 0
    while need + run in held:
        run += 1
    near = sum(1 for c in held if need + run < c <= need + run + 2)
    missed = penalty[1] if penalty else 0
    return height + RUN_CREDIT * run + NEAR_CREDIT * near - MISSED_TURN_COST * missed


def win_chances(progresses: Sequence[float]) -> list[float]:
    top = max(progresses)
    weights = [math.exp((p - top) / SHARPNESS) for p in progresses]
    total = sum(weights)
    return [w / total for w in weights]


class FarawaySearch:
    """The Faraway Tree as the strong bot's search sees it (see ``search.Knowledge``).

    The search runs only on states it dealt itself (``sample_state``), so reading their fields
    directly is reading its own guesses; ``obs_of_state`` does so because building a full view
    per rollout step would cost more than the step. A unit test holds it equal to the view.
    """

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players

    def ended(self, engine: Any, state: Any) -> bool:
        return engine.is_over(state)

    def rewards(self, engine: Any, state: Any) -> list[float]:
        n = self.num_players
        if engine.is_over(state):
            winners = engine.outcome(state)["winners"]
            if not winners:
                return [1.0 / n] * n
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
        return win_chances(
            [progress(state.rows[s], state.hands[s], state.pens[s]) for s in range(n)]
        )

    def sampler(self, engine: Any, view: View, history: History) -> Sampler | None:
        """How determinizations are dealt: ``None`` is the engine's ``sample_state(view)``."""
        return None

    def rollout_depth(self, num_players: int) -> int:
        # About two rounds of turns (draw, play, discard each): far enough to see a needed
        # card arrive or a Penalty land, short enough to spend the budget on more deals.
        return 6 * num_players

    def policy(
        self, engine: Any, state: Any, seat: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        return greedy_obs(obs_of_state(state, seat), moves, rng)


def obs_of_state(state: Any, seat: int) -> Obs:
    """``Obs.of_view(engine.view(state, seat))`` without building the view (see above)."""
    discards = state.discards
    return Obs(
        seat,
        state.hands[seat],
        state.rows,
        discards[-1:-4:-1],
        state.pens,
        state.aside,
    )


class FarawayStrong(FarawaySearch):
    """The strong bot's knowledge of this game: the baseline's, refined (docs/bots.md)."""

    # Rollouts are scored by the learned evaluation (games/bots/faraway_eval.py), which predicts
    # the winner of greedy play much better than ``progress``'s softmax (held-out log loss 0.504
    # against 0.575 at 2 seats). Rollouts stay at 6 moves a seat: 3 (more deals in the time)
    # did worse in a screening run against the baseline.
    ROLLOUT_MOVES_PER_SEAT = 6

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players)
        self.weights = faraway_eval.WEIGHTS[min(max(num_players, 2), 4)]

    def rewards(self, engine: Any, state: Any) -> list[float]:
        if engine.is_over(state):
            return super().rewards(engine, state)
        return faraway_eval.win_shares(state, self.weights)

    def rollout_depth(self, num_players: int) -> int:
        return self.ROLLOUT_MOVES_PER_SEAT * num_players

    def ceilings(self, view: View, moves: Sequence[Move], history: History) -> list[float] | None:
        """A stalled position caps the draws that keep the stall at a draw's share
        (games/bots/faraway_stalls.py)."""
        return faraway_stalls.ceilings(view, moves, history)

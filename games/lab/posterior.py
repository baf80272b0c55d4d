"""Gulliver's Travels deals drawn from the whole posterior by Markov chain Monte Carlo: a lab
yardstick for the strong bot's inference, never offered on the site.

The strong bot weighs a small pool of the engine's determinizations by what the round's log
reveals (``games.bots.gulliver_inference``, importance resampling). Whether that pool is good
enough, or whether sampling the same evidence exactly would win more, is what the ``posterior``
player measures. It deals from the same evidence (``RoundLog.weight``: draws and passes as
facts, plays through the opponent model) with a Metropolis chain: a step swaps one hidden card
of a rival's hand with another hidden card (in another rival's hand or the stack), and is
accepted with the ratio of the two deals' weights. Swaps are symmetric, so the chain's deals
follow the posterior; the weights are noisy (each draws a few of the rival's histories), which
a pseudo-marginal chain allows: a deal keeps the weight it was accepted with.

It reads only the seat's view and the public log, as a bot does, but the chain runs before the
search starts, outside its time budget: it is a ceiling for what inference can add to the
search, not a player to meet (ms/decision shows what it costs).
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.common import View
from games.bots.gulliver_inference import InferredDeals, RoundLog, restacked

# Steps before the first deal kept, steps between deals kept, deals kept per decision.
BURN_IN = 400
THIN = 4
DEALS = 300
# Deals of the engine tried for a start the evidence does not rule out.
START_TRIES = 500


class PosteriorDeals:
    """A sampler (``search.Sampler``) cycling through deals drawn from the posterior."""

    def __init__(self, engine: Any, view: View, log: RoundLog, rng: random.Random) -> None:
        self.deals = posterior_deals(engine, view, log, rng)
        self.fallback = None if self.deals else InferredDeals(engine, view, log)
        self.next = 0

    def __call__(self, rng: random.Random) -> Any:
        if self.fallback is not None:
            return self.fallback(rng)
        chosen = self.deals[self.next % len(self.deals)]
        self.next += 1
        return restacked(chosen, rng)


def posterior_deals(engine: Any, view: View, log: RoundLog, rng: random.Random) -> list[Any]:
    """``DEALS`` states from the chain, or none when no start the evidence allows was found
    (the caller then falls back to the strong bot's own weighted pool)."""
    rivals = list(log.events or {})
    seat = view["seat"]
    start = None
    for _ in range(START_TRIES):
        state = engine.sample_state(view, rng)
        weights = {r: log.weight(r, state.hands[r], rng) for r in rivals}
        if all(w > 0.0 for w in weights.values()):
            start = state
            break
    if start is None:
        return []
    hands = [list(h) for h in start.hands]
    stack = list(start.stack[start.sp :])
    revealed = [len(r) for r in start.revealed]
    # Hidden places: (hand index or None for the stack, position). A rival's revealed cards
    # (taken back after a challenge) are known to every seat, so they never move.
    places = [
        (other, i)
        for other in range(len(hands))
        if other != seat
        for i in range(revealed[other], len(hands[other]))
    ]
    places += [(None, i) for i in range(len(stack))]
    informed = set(weights)  # the rivals whose moves this round weigh their hands
    movable = [p for p in places if p[0] in informed]
    if not movable or len(places) < 2:
        return [start]

    def card_at(place: tuple[int | None, int]) -> str:
        owner, i = place
        return stack[i] if owner is None else hands[owner][i]

    def put(place: tuple[int | None, int], card: str) -> None:
        owner, i = place
        if owner is None:
            stack[i] = card
        else:
            hands[owner][i] = card

    kept: list[Any] = []
    steps = BURN_IN + THIN * DEALS
    for step in range(1, steps + 1):
        a = movable[rng.randrange(len(movable))]
        b = places[rng.randrange(len(places))]
        card_a, card_b = card_at(a), card_at(b)
        if a[0] != b[0] and card_a != card_b:
            put(a, card_b)
            put(b, card_a)
            touched = {a[0], b[0]} & informed
            proposed = {r: log.weight(r, hands[r], rng) for r in touched}
            old = 1.0
            new = 1.0
            for r in touched:
                old *= weights[r]
                new *= proposed[r]
            if new >= old or rng.random() * old < new:
                weights.update(proposed)
            else:
                put(a, card_a)
                put(b, card_b)
        if step > BURN_IN and (step - BURN_IN) % THIN == 0:
            dealt = start.clone()
            dealt.hands = tuple(tuple(h) for h in hands)
            dealt.stack = (*start.stack[: start.sp], *stack)
            kept.append(dealt)
    return kept

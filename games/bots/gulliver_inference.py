"""What Gulliver's Travels play reveals about the hands, and deals that respect it.

The rules let a player draw (or pass, once the stack is empty) only when holding no card that
could be laid, so every draw says "none of these cards was in that hand then". A player who lays
a card that does not take the sentence, when some card would have taken it as a trick, very
likely held no such card (twenty points are not given away lightly). These facts are read from
the seat's own view and the public move log alone (``witnessed``), replaying the round's
sentence as every player at the table saw it.

A deal of the unseen cards (``engine.sample_state``) is then weighted by how well each rival's
hand agrees with the facts about it (``hand_weight``) and kept by rejection, so deals come with
probability in proportion to that weight; when a few tries find nothing, card swaps between the
rivals' hands and the stack (Metropolis steps) finish the job. The weight of one fact: a hand of
``k`` cards, at most ``n`` of them drawn since the fact (the draws since, less the cards laid
since that the fact rules out), of which ``m`` are cards the fact rules out, is as likely as the
``C(k - m, k - n)`` ways of choosing which of its other cards it held already, relative to a hand
without any (``C(k, k - n)``); more than ``n`` is impossible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engines import gulliver_words as words

from .common import History, View

# A rival laying a card that leaves the sentence open, when one would have taken it: held to be
# a fact this often (the rest of the weight allows for a player who did not see the trick).
TRICK_SEEN = 0.95
# Rejection tries for one deal before the Metropolis steps take over, and their number.
TRIES = 24
SWAPS = 60

_ADJECTIVE_LEAD = words.NEXT_BY_CARD[words.START][min(words.ADJECTIVES)]


@dataclass
class Fact:
    """At some moment the seat held none of ``cards``; ``new`` bounds how many cards of its
    hand now could have come since (draws since, less the ruled-out cards laid since)."""

    cards: frozenset[str]
    new: int
    soft: bool  # from a trick left on the table (a likely fact), not from a draw or a pass


class Sentence:
    """The round's sentence as the whole table sees it, stepped like the engine's ``_lay``."""

    def __init__(self) -> None:
        self.cards: tuple[str, ...] = ()
        self.dfa = words.START
        self.pdfa: int | None = None  # its state had an adjective been put in front
        self.starter: int | None = None

    def clear(self) -> None:
        self.cards, self.dfa, self.pdfa, self.starter = (), words.START, None, None

    def playable(self, seat: int) -> frozenset[str]:
        table = words.NEXT_BY_CARD[self.dfa] if self.cards else words.LEAD_BY_CARD
        cards = set(table)
        if self.pdfa is not None and seat != self.starter:
            cards |= words.ADJECTIVES
        return frozenset(cards)

    def trick_takers(self, seat: int) -> frozenset[str]:
        if len(self.cards) + 1 < words.TRICK_LENGTH:
            return frozenset()
        cards = {c for c, nxt in words.NEXT_BY_CARD[self.dfa].items() if words.ACCEPTING[nxt]}
        if self.pdfa is not None and seat != self.starter and words.ACCEPTING[self.pdfa]:
            cards |= words.ADJECTIVES
        return frozenset(cards)

    def lay(self, seat: int, card: str, front: bool) -> bool:
        """Lay ``card``; whether it took the sentence as a trick."""
        if front:
            if self.pdfa is None:
                raise ValueError("a prepend the sentence does not allow")
            self.cards, self.dfa, self.pdfa = (card, *self.cards), self.pdfa, None
        elif self.cards:
            self.dfa = words.NEXT_BY_CARD[self.dfa][card]
            if self.pdfa is not None:
                self.pdfa = words.NEXT_BY_CARD[self.pdfa].get(card)
            self.cards = (*self.cards, card)
        else:
            self.cards, self.dfa = (card,), words.LEAD_BY_CARD[card]
            self.pdfa = words.NEXT_BY_CARD[_ADJECTIVE_LEAD].get(card)
            self.starter = seat
        if words.ACCEPTING[self.dfa] and len(self.cards) >= words.TRICK_LENGTH:
            self.clear()
            return True
        return False


def witnessed(view: View, history: History) -> dict[int, list[Fact]]:
    """The facts about each rival's hand that this round's public log shows ``view``'s seat.

    Empty when there are none, or when the log cannot be followed without doubt (a challenge
    this round takes cards back: those rounds are left to the plain deal)."""
    start = 0
    for i, (_, move) in enumerate(history):
        if move.get("type") == "next_round":
            start = i + 1
    me = view["seat"]
    sentence = Sentence()
    # Per rival: [cards, draws since, ruled-out cards laid since, soft] for each fact so far.
    open_facts: dict[int, list[list[Any]]] = {}
    try:
        for seat, move in history[start:]:
            kind = move.get("type")
            if kind in ("challenge", "vote") or seat is None:
                return {}
            facts = open_facts.setdefault(seat, [])
            if kind in ("draw", "pass"):
                facts.append([sentence.playable(seat), 0, 0, False])
                if kind == "draw":
                    for fact in facts:
                        fact[1] += 1
                continue
            if kind not in ("play", "prepend"):
                return {}
            card = move["card"]
            for fact in facts:
                if card in fact[0]:
                    fact[2] += 1
            takers = sentence.trick_takers(seat)
            if not sentence.lay(seat, card, kind == "prepend") and takers:
                facts.append([takers, 0, 0, True])
    except (KeyError, ValueError):
        return {}
    if sentence.cards != tuple(view["sentence"]):
        return {}
    out: dict[int, list[Fact]] = {}
    for seat, facts in open_facts.items():
        if seat == me:
            continue
        kept = [Fact(cards, drawn - laid, soft) for cards, drawn, laid, soft in facts]
        kept = [f for f in kept if f.new < view["hand_counts"][seat]]
        if kept:
            out[seat] = kept
    return out


def hand_weight(hand: Sequence[str], facts: Sequence[Fact]) -> float:
    """How likely ``hand`` is under ``facts``, relative to a hand that breaks none (at most 1)."""
    k = len(hand)
    weight = 1.0
    for fact in facts:
        m = sum(1 for card in hand if card in fact.cards)
        if m == 0:
            continue
        new = max(0, min(k, fact.new))
        w = 0.0 if m > new else math.comb(k - m, k - new) / math.comb(k, k - new)
        if fact.soft:
            w = 1.0 - TRICK_SEEN + TRICK_SEEN * w
        weight *= w
        if weight == 0.0:
            break
    return weight


class InferredDeals:
    """A sampler (``search.Sampler``) of deals weighted by what ``facts`` reveal."""

    def __init__(self, engine: Any, view: View, facts: dict[int, list[Fact]]) -> None:
        self.engine = engine
        self.view = view
        self.facts = facts
        # The first cards of a hand are those known to be there (taken back after a challenge).
        self.fixed = {seat: len(view["revealed"][seat]) for seat in facts}

    def weights(self, hands: Sequence[Sequence[str]]) -> dict[int, float]:
        return {seat: hand_weight(hands[seat], f) for seat, f in self.facts.items()}

    def __call__(self, rng: random.Random) -> Any:
        best, best_weight = None, -1.0
        for _ in range(TRIES):
            state = self.engine.sample_state(self.view, rng)
            weight = math.prod(self.weights(state.hands).values())
            if weight >= 1.0 or rng.random() < weight:
                return state
            if weight > best_weight:
                best, best_weight = state, weight
        return self._swap(best, rng)

    def _swap(self, state: Any, rng: random.Random) -> Any:
        """Metropolis steps over card swaps between a rival's hand and any other unseen place
        (another rival's hand or the stack): the deals' own distribution, weighted."""
        hands = [list(h) for h in state.hands]
        stack = list(state.stack)
        rivals = list(self.facts)
        weights = self.weights(hands)
        places = [(seat, i) for seat in rivals for i in range(self.fixed[seat], len(hands[seat]))]
        others = [s for s in range(len(hands)) if s != self.view["seat"] and s not in self.facts]
        places += [(seat, i) for seat in others for i in range(len(hands[seat]))]
        places += [(None, i) for i in range(state.sp, len(stack))]
        if len(places) < 2:
            return state
        for _ in range(SWAPS):
            seat, i = places[rng.randrange(len(places))]
            if seat not in self.facts:
                continue
            other, j = places[rng.randrange(len(places))]
            if other == seat:
                continue
            held = hands[other] if other is not None else stack
            a, b = hands[seat][i], held[j]
            if a == b:
                continue
            hands[seat][i], held[j] = b, a
            proposal = dict(weights)
            for s in {seat, other} & set(self.facts):
                proposal[s] = hand_weight(hands[s], self.facts[s])
            old, new = math.prod(weights.values()), math.prod(proposal.values())
            if new >= old or (old > 0.0 and rng.random() < new / old):
                weights = proposal
            else:
                hands[seat][i], held[j] = a, b
        dealt = type(state).__new__(type(state))
        for name in type(state).__slots__:
            setattr(dealt, name, getattr(state, name))
        dealt.hands = tuple(tuple(h) for h in hands)
        dealt.stack = tuple(stack)
        dealt.legal = None
        return dealt


def inferred_sampler(engine: Any, view: View, history: History) -> InferredDeals | None:
    """Deals for ``view`` that respect what the round's log revealed; ``None`` if it revealed
    nothing (then the plain ``engine.sample_state`` is exact)."""
    facts = witnessed(view, history)
    return InferredDeals(engine, view, facts) if facts else None

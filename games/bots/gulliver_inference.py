"""What Gulliver's Travels play reveals about the rivals' hands, and deals that respect it.

Everything here is read from the deciding seat's own view and the round's public move log
(``RoundLog``), replaying the sentence as the whole table saw it. Two kinds of evidence:

- **Draws and passes are facts.** The rules let a player draw (or pass, the stack empty) only
  when holding no card that could be laid, so the hand *before* each draw held none of the cards
  that fitted then. A rival's hand at any earlier moment is its hand now, plus the cards it has
  laid since, less the cards it has drawn since; which of its cards came from which draw is
  not known, so it is chosen at random among the cards an earlier fact points at (each draw
  brought one of the cards held just after it).
- **Plays are evidence, weighed by an opponent model.** A rival who lays a card chooses among
  the cards it could lay. The model: with probability ``alpha`` it plays like the greedy bot
  (takes a trick when it can, does not leave one to the next player, sheds the hard words), and
  otherwise any playable card alike. ``alpha`` is not assumed: each rival's evidence is
  averaged over ``ALPHAS`` (a uniform prior), so a rival who plays unlike greedy is soon read as
  one whose choices say little. Against greedy the evidence is strong; against a person it is
  what their play supports.

A deal (``InferredDeals``) starts from a pool of the engine's own determinizations
(``engine.sample_state``, consistent with the view), weighs each by the evidence about every
rival's hand (``RoundLog.weight``), and draws from the pool in proportion to the weights
(importance resampling), with the stack reshuffled each time (nothing in the log tells its order
apart). The pool grows until its effective size is large enough or it reaches ``POOL_MAX``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engines import gulliver_words as words
from games.engines.gulliver import lay_moves

from .common import History, View
from .gulliver import GulliverSearch, Obs, play_score, unseen_cards
from .search import Sampler

# The opponent model's chance of a greedy choice, averaged over these (uniform prior).
ALPHAS = (0.0, 0.5, 0.9, 0.99)
# Deals weighed per decision: first POOL_MIN, then more until the effective pool size
# (sum w)^2 / sum w^2 reaches POOL_EFFECTIVE, at most POOL_MAX.
POOL_MIN = 32
POOL_EFFECTIVE = 8.0
POOL_MAX = 96
# Histories of a rival's hand (which card each draw brought) drawn for one weight.
PATHS = 2


class Sentence:
    """The round's sentence as the whole table sees it, stepped by the engine's own rules
    (``gulliver_words.lay``, ``is_trick``, ``may_prepend``; ``gulliver.lay_moves``)."""

    def __init__(self) -> None:
        self.clear()
        self.gone: tuple[str, ...] = ()  # cards of the tricks taken this round

    def clear(self) -> None:
        self.cards: tuple[str, ...] = ()
        self.dfa = words.START
        self.pdfa: int | None = None  # its state had an adjective been put in front
        self.starter: int | None = None
        self.prepended = False

    def _table(self) -> dict[str, int]:
        """The cards that may go at the end now, each with the automaton's state after it."""
        return words.end_table(self.dfa, not self.cards)

    def moves_for(self, seat: int, hand: Sequence[str]) -> list[dict[str, Any]]:
        """The plays and prepends ``hand`` would allow ``seat`` now (the engine's order)."""
        return lay_moves(hand, self._table(), words.may_prepend(self.pdfa, seat, self.starter))

    def playable(self, seat: int) -> frozenset[str]:
        cards = set(self._table())
        if words.may_prepend(self.pdfa, seat, self.starter):
            cards |= words.ADJECTIVES
        return frozenset(cards)

    def lay(self, seat: int, card: str, front: bool) -> bool:
        """Lay ``card``; whether it took the sentence as a trick. A card the sentence does not
        allow raises ``KeyError`` (an end card) or ``ValueError`` (a prepend)."""
        if front and not words.may_prepend(self.pdfa, seat, self.starter):
            raise ValueError("a prepend the sentence does not allow")
        self.dfa, self.pdfa = words.lay(self.dfa, self.pdfa, not self.cards, card, front)
        if front:
            self.cards = (card, *self.cards)
            self.prepended = True
        elif self.cards:
            self.cards = (*self.cards, card)
        else:
            self.cards = (card,)
            self.starter = seat
        if words.is_trick(len(self.cards), self.dfa):
            self.gone = (*self.gone, *self.cards)
            self.clear()
            return True
        return False


@dataclass(frozen=True)
class Stuck:
    """The rival drew (or passed): its hand just before held none of ``cards``."""

    cards: frozenset[str]
    drew: bool


@dataclass(frozen=True)
class Choice:
    """The rival laid ``move`` with the table as it stood then (for the opponent model)."""

    move: dict[str, str]
    sentence: tuple[str, ...]
    dfa: int
    pdfa: int | None
    starter: int | None
    prepended: bool
    gone: tuple[str, ...]
    hand_counts: tuple[int, ...]


class RoundLog:
    """The current round's public log, read for evidence about each rival's hand."""

    def __init__(self, view: View, history: History) -> None:
        self.seat = view["seat"]
        self.n = len(view["hand_counts"])
        # Per rival, its moves this round in order: a Stuck or a Choice (``None``: unreadable).
        self.events: dict[int, list[Stuck | Choice]] | None = self._read(view, history)
        self._greedy: dict[tuple, tuple[int, int, int]] = {}
        self._latest_fact: dict[tuple[int, int], dict[str, int]] = {}

    def _read(self, view: View, history: History) -> dict[int, list[Stuck | Choice]] | None:
        start = 0
        for i, (_, move) in enumerate(history):
            if move.get("type") == "next_round":
                start = i + 1
        steps = list(history[start:])
        # Hand counts along the round, worked back from the view's (each play took a card from
        # its player's hand and each draw added one).
        counts = list(view["hand_counts"])
        before: list[tuple[int, ...]] = [()] * len(steps)
        for i in range(len(steps) - 1, -1, -1):
            seat, move = steps[i]
            kind = move.get("type")
            if seat is None or kind in ("challenge", "vote"):
                return None  # a round with a challenge takes cards back: not followed
            if kind in ("play", "prepend"):
                counts[seat] += 1
            elif kind == "draw":
                counts[seat] -= 1
            before[i] = tuple(counts)
        events: dict[int, list[Stuck | Choice]] = {}
        sentence = Sentence()
        try:
            for i, (seat, move) in enumerate(steps):
                kind = move["type"]
                mine = seat == self.seat
                if kind in ("draw", "pass"):
                    if not mine:
                        stuck = Stuck(sentence.playable(seat), kind == "draw")
                        events.setdefault(seat, []).append(stuck)
                    continue
                if kind not in ("play", "prepend"):
                    return None
                if not mine:
                    choice = Choice(
                        {"type": kind, "card": move["card"]},
                        sentence.cards,
                        sentence.dfa,
                        sentence.pdfa,
                        sentence.starter,
                        sentence.prepended,
                        sentence.gone,
                        before[i],
                    )
                    events.setdefault(seat, []).append(choice)
                sentence.lay(seat, move["card"], kind == "prepend")
        except (KeyError, ValueError):
            return None
        if sentence.cards != tuple(view["sentence"]) or min(counts) < 0:
            return None
        return events

    @property
    def informative(self) -> bool:
        return bool(self.events)

    def weight(self, seat: int, hand: Sequence[str], rng: random.Random) -> float:
        """How well ``hand`` (the rival ``seat``'s now) explains its moves this round.

        Walking the rival's moves back from now gives its hand at every moment: a card it laid
        goes back in, and the card a draw brought comes out. Which card that was is not known,
        so a few such histories are drawn (``PATHS``) and their weights averaged. When none of
        them explains the moves, the weight is that of the latest-deadline-first history, which
        explains them whenever any history does, so the true hand is never ruled out. A history is
        impossible when a hand before a draw or a pass held a card that fitted then; a possible
        one weighs the opponent model's chance of the choices the rival made (averaged over
        ``ALPHAS``), times the chance of the draws it assumes, relative to the way it was drawn
        (importance sampling; the hand sizes are public, so every ``hand`` shares the rest)."""
        events = (self.events or {}).get(seat)
        if not events:
            return 1.0
        total = 0.0
        for _ in range(PATHS):
            total += self._history_weight(seat, events, hand, rng, latest_first=False)
        if total == 0.0:  # no history drawn explains the moves: does any history at all?
            return self._history_weight(seat, events, hand, rng, latest_first=True)
        return total / PATHS

    def _history_weight(
        self,
        seat: int,
        events: list[Stuck | Choice],
        hand: Sequence[str],
        rng: random.Random,
        *,
        latest_first: bool,
    ) -> float:
        held = list(hand)
        fits: list[tuple[int, int, int]] = []  # (in greedy's choice, its size, options)
        factor = 1.0
        for index in range(len(events) - 1, -1, -1):
            event = events[index]
            if isinstance(event, Choice):
                held.append(event.move["card"])
                fits.append(self._greedy_fit(seat, index, event, held))
                continue
            fitting = [i for i, card in enumerate(held) if card in event.cards]
            if not event.drew:
                if fitting:
                    return 0.0
                continue
            if len(fitting) > 1 or not held:
                return 0.0
            if fitting:  # the card that fitted then must be the one this draw brought
                factor /= len(held)
                held.pop(fitting[0])
                continue
            # Otherwise any card may have come now. A card that fitted at an earlier draw or
            # pass must have come after it (a suspect): one of those is taken, at random, or
            # with ``latest_first`` the one whose fact is latest (latest deadline first, which
            # finds a history whenever there is one).
            latest = self._latest_fact.get((seat, index))
            if latest is None:
                latest = {}
                for t, e in enumerate(events[:index]):
                    if isinstance(e, Stuck):
                        for card in e.cards:
                            latest[card] = t
                self._latest_fact[(seat, index)] = latest
            suspects = [i for i, card in enumerate(held) if card in latest]
            if suspects:
                factor *= len(suspects) / len(held)
                if latest_first:
                    held.pop(max(suspects, key=lambda i: latest[held[i]]))
                else:
                    held.pop(suspects[rng.randrange(len(suspects))])
            else:
                held.pop(rng.randrange(len(held)))
        if not fits:
            return factor
        likelihood = 0.0
        for alpha in ALPHAS:
            p = 1.0
            for hit, ties, options in fits:
                p *= alpha * (hit / ties) + (1.0 - alpha) / options
            likelihood += p
        return factor * likelihood / len(ALPHAS)

    def _greedy_fit(
        self, seat: int, index: int, choice: Choice, held: Sequence[str]
    ) -> tuple[int, int, int]:
        """(1 if the move laid is among greedy's best, how many tie for best, how many moves
        there were), for ``held`` the rival's hand just before it laid it; cached per hand."""
        key = (seat, index, tuple(sorted(held)))
        cached = self._greedy.get(key)
        if cached is not None:
            return cached
        board = Sentence()
        board.cards, board.dfa, board.pdfa = choice.sentence, choice.dfa, choice.pdfa
        board.starter, board.prepended = choice.starter, choice.prepended
        moves = board.moves_for(seat, held)
        obs = Obs(
            seat,
            held,
            choice.hand_counts,
            choice.sentence,
            choice.prepended,
            choice.starter,
            choice.gone,
            [[] for _ in range(self.n)],
        )
        unseen = unseen_cards(obs)
        scores = [play_score(obs, m, unseen) for m in moves]
        top = max(scores) if scores else 0.0
        best = [m for m, s in zip(moves, scores, strict=True) if s >= top - 1e-9]
        result = (int(choice.move in best), max(1, len(best)), max(1, len(moves)))
        self._greedy[key] = result
        return result


class InferredDeals:
    """A sampler (``search.Sampler``) of deals in proportion to what the round's log reveals."""

    def __init__(self, engine: Any, view: View, log: RoundLog) -> None:
        self.engine = engine
        self.view = view
        self.log = log
        self.rivals = list(log.events or {})
        self.pool: list[Any] = []
        self.weights: list[float] = []
        self.cumulative: list[float] = []

    def _grow(self, rng: random.Random) -> None:
        while len(self.pool) < POOL_MAX:
            state = self.engine.sample_state(self.view, rng)
            w = 1.0
            for seat in self.rivals:
                w *= self.log.weight(seat, state.hands[seat], rng)
                if w == 0.0:
                    break
            self.pool.append(state)
            self.weights.append(w)
            if len(self.pool) >= POOL_MIN:
                total = sum(self.weights)
                square = sum(x * x for x in self.weights)
                if total > 0.0 and total * total / square >= POOL_EFFECTIVE:
                    break
        if sum(self.weights) == 0.0:  # nothing explains the log (a misread): weigh alike
            self.weights = [1.0] * len(self.pool)
        running = 0.0
        self.cumulative = []
        for w in self.weights:
            running += w
            self.cumulative.append(running)

    def __call__(self, rng: random.Random) -> Any:
        if not self.pool:
            self._grow(rng)
        pick = rng.random() * self.cumulative[-1]
        lo, hi = 0, len(self.cumulative) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cumulative[mid] < pick:
                lo = mid + 1
            else:
                hi = mid
        return restacked(self.pool[lo], rng)


def restacked(state: Any, rng: random.Random) -> Any:
    """``state`` with the undealt stack in a fresh random order and a fresh seed for later
    shuffles: nothing in a view or the log tells the stack's order apart."""
    dealt = state.clone()
    rest = list(state.stack[state.sp :])
    rng.shuffle(rest)
    dealt.stack = (*state.stack[: state.sp], *rest)
    dealt.seed = rng.getrandbits(64)
    return dealt


def inferred_sampler(engine: Any, view: View, history: History) -> InferredDeals | None:
    """Deals for ``view`` weighed by what the round's log revealed; ``None`` when it revealed
    nothing about any rival (then the plain ``engine.sample_state`` is exact)."""
    log = RoundLog(view, history)
    return InferredDeals(engine, view, log) if log.informative else None


class GulliverStrong(GulliverSearch):
    """The strong bot's knowledge of Gulliver's Travels: the baseline's search and evaluation,
    with deals weighed by what the round's log revealed (docs/bots.md)."""

    def sampler(self, engine: Any, view: View, history: History) -> Sampler | None:
        return inferred_sampler(engine, view, history)

"""The Faraway Tree card game, played exactly as docs/rulings.md rules it (the engine contract
is docs/engine-contract.md).

Speed matters here (bots search by self-play), so the state is a small ``__slots__`` object that
is immutable by convention: ``apply`` makes a shallow copy and replaces only the fields a move
changes, every field is a tuple or a scalar, and legal moves are computed once per state and
cached on it. A state holds only the events of the step that made it, in a fresh list, so no
state's size grows with the match and a branch can never see a sibling's events.

Events (``seat`` is the seat concerned, ``None`` for table events):
- ``deal`` {dealer}; ``hand`` {seat, cards (private)} once per seat; ``turn_up`` {card}
- ``draw`` {seat, source: "pack", count, cards (private)} or {seat, source: "discard",
  positions, cards (public)}; ``no_draw`` {seat}: nothing could be drawn, straight to step 2
- ``play`` {seat, card}; ``win`` {seat}
- ``penalty`` {seat: attacker, card, victim, on: victim's highest story card, turns}
- ``discard`` {seat, card}
- ``miss`` {seat, card, turns_left}; ``aside`` {seat, card}: the Penalty is put aside
- ``reshuffle`` {count: cards shuffled into the new pack, up: the card turned up}
- ``turn_cap`` {turns}: the match ends as a draw
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .base import (
    BASE_REASON_CODES,
    Engine,
    IllegalMove,
    Move,
    Reason,
    check_seat,
    copy_json,
    reason,
    shuffled,
)
from .faraway_cards import (
    HAND_SIZE,
    PACK,
    PACK_COUNTS,
    PENALTY_NUMBER,
    PENALTY_TURNS,
    STORY_CODE,
    STORY_NUMBER,
    TURN_CAP,
    WINNING_NUMBER,
)

DRAW, PLAY, OVER = 0, 1, 2
PHASE_NAMES = ("draw", "play", "over")
MIN_PLAYERS, MAX_PLAYERS = 2, 4

_PAIRS = ((0, 1), (0, 2), (1, 2))

# Compact internal actions, parallel to the cached move dicts.
_A_PACK, _A_DISC, _A_PLAY, _A_PEN, _A_DISCARD = range(5)


# -- rules the bots share (pure functions of plain values, fast enough for their rollouts) -----

# ``_LEFT_OF[n][seat]``: the other seats, nearest to the left first. Built once for every table
# size, so the rule below walks a ready tuple instead of doing modular arithmetic per seat.
_LEFT_OF: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple((seat + k) % n for k in range(1, n)) for seat in range(n))
    for n in range(MAX_PLAYERS + 1)
)


def opponents_left_of(seat: int, n: int) -> tuple[int, ...]:
    """The seats other than ``seat`` at a table of ``n``, nearest to its left first
    (docs/rulings.md: "to the left" is ``seat + 1``, wrapping round): the order in which a
    Penalty card looks for its victim. A shared tuple: do not change it."""
    return _LEFT_OF[n][seat]


def penalty_victim(
    number: int, attacker: int, heights: Sequence[int], penalised: Sequence[object]
) -> int | None:
    """The seat a Penalty card bearing ``number`` played by ``attacker`` lands on, or ``None``.

    docs/rulings.md: the nearest opponent to the attacker's left whose highest story card bears
    the Penalty's number and who carries no unserved Penalty (so a P8 can never land on a P8).
    ``heights[s]`` is seat ``s``'s highest story card (0 for none); ``penalised[s]`` is truthy
    while seat ``s`` carries an unserved Penalty (a bool, or the engine's ``(card, turns_left)``
    / ``None``, taken as they are so neither the engine nor a rollout builds a list per call).
    The engine's legal moves, ``apply`` and the view's ``penalty_victims`` all use this.
    """
    for v in _LEFT_OF[len(heights)][attacker]:
        if heights[v] == number and not penalised[v]:
            return v
    return None


class FarawayState:
    """One position. Treat as immutable: the engine never changes a state it has returned.

    ``pack`` and ``discards`` keep their top card at the END of the tuple (drawing is a slice);
    ``rows[s]`` is the highest story card seat ``s`` has laid (0 for none), since a row is
    always 1..highest; ``pens[s]`` is ``None`` or ``(card, turns_left)``. ``known[s]`` (sorted)
    is what the whole table knows seat ``s`` holds: the cards it took from the discards in view
    of all and has not laid since. A lower bound: a laid card that could be a known one is taken
    to be one. ``events`` belong to the step that made this state.
    """

    __slots__ = (
        "_acts",
        "_legal",
        "aside",
        "dealer",
        "discards",
        "events",
        "hands",
        "known",
        "n",
        "pack",
        "pen_done",
        "pens",
        "phase",
        "reshuffles",
        "rows",
        "seed",
        "story_done",
        "turn",
        "turns",
        "winner",
    )

    def clone(self) -> FarawayState:
        new = object.__new__(FarawayState)
        new.n = self.n
        new.seed = self.seed
        new.dealer = self.dealer
        new.hands = self.hands
        new.rows = self.rows
        new.pack = self.pack
        new.discards = self.discards
        new.pens = self.pens
        new.aside = self.aside
        new.turn = self.turn
        new.phase = self.phase
        new.story_done = self.story_done
        new.pen_done = self.pen_done
        new.turns = self.turns
        new.reshuffles = self.reshuffles
        new.winner = self.winner
        new.known = self.known
        new.events = []
        new._legal = None
        new._acts = None
        return new

    def emit(self, event: dict[str, Any]) -> None:
        """Record an event of the step making this (fresh, not yet returned) state."""
        self.events.append(event)

    def __repr__(self) -> str:
        return (
            f"<FarawayState n={self.n} turn={self.turn} phase={PHASE_NAMES[self.phase]}"
            f" rows={self.rows} turns={self.turns}>"
        )


def _remove(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _add(hand: tuple[str, ...], cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(hand + tuple(cards)))


def _copy_move(move: Move) -> Move:
    copied = dict(move)
    if "positions" in copied:
        copied["positions"] = list(copied["positions"])
    return copied


def _replace(items: tuple, i: int, value: object) -> tuple:
    return (*items[:i], value, *items[i + 1 :])


def _draw_choices(hand_empty: bool, npack: int, ndisc: int) -> tuple[list[Move], list[tuple]]:
    """Draw moves and their actions. Never takes the last discard; an empty hand draws two from
    one source, falling back to one card only when neither source can supply two."""
    moves: list[Move] = []
    acts: list[tuple] = []
    if hand_empty and (npack >= 2 or ndisc >= 3):
        if npack >= 2:
            moves.append({"type": "draw", "source": "pack", "count": 2})
            acts.append((_A_PACK, 2))
        if ndisc >= 3:
            for pair in _PAIRS:
                moves.append({"type": "draw", "source": "discard", "positions": list(pair)})
                acts.append((_A_DISC, pair))
        return moves, acts
    if npack >= 1:
        moves.append({"type": "draw", "source": "pack"})
        acts.append((_A_PACK, 1))
    if ndisc >= 2:
        for i in range(min(3, ndisc)):
            moves.append({"type": "draw", "source": "discard", "positions": [i]})
            acts.append((_A_DISC, (i,)))
    return moves, acts


def _penalty_victims(state: FarawayState, seat: int) -> dict[str, int]:
    """Each distinct Penalty card in ``seat``'s hand that would hit someone now, with its victim,
    as if it were ``seat``'s turn (``penalty_victim``, the rule ``apply`` follows)."""
    victims: dict[str, int] = {}
    for card in state.hands[seat]:
        if card[0] == "P" and card not in victims:
            v = penalty_victim(PENALTY_NUMBER[card], seat, state.rows, state.pens)
            if v is not None:
                victims[card] = v
    return victims


def _compute_legal(state: FarawayState) -> None:
    if state.phase == DRAW:
        moves, acts = _draw_choices(
            not state.hands[state.turn], len(state.pack), len(state.discards)
        )
        state._legal, state._acts = moves, acts
        return
    moves = []
    acts = []
    t = state.turn
    hand = state.hands[t]
    high = state.rows[t]
    must_play = False
    if not state.story_done:
        nxt = STORY_CODE[high + 1]
        if nxt in hand:
            must_play = True
            moves.append({"type": "play", "card": nxt})
            acts.append((_A_PLAY, nxt))
    if not state.pen_done:
        last = None
        for card in hand:
            if card[0] == "P" and card != last:
                last = card
                v = penalty_victim(PENALTY_NUMBER[card], t, state.rows, state.pens)
                if v is not None:
                    moves.append({"type": "penalty", "card": card})
                    acts.append((_A_PEN, card, v))
    if not must_play and hand:
        dead = False
        for card in hand:
            if card[0] != "P" and STORY_NUMBER[card] <= high:
                dead = True
                break
        last = None
        for card in hand:
            if card != last:
                last = card
                if dead and card[0] != "P" and STORY_NUMBER[card] > high:
                    continue
                moves.append({"type": "discard", "card": card})
                acts.append((_A_DISCARD, card))
    state._legal, state._acts = moves, acts


def _reshuffle(state: FarawayState) -> None:
    count = len(state.discards)
    state.reshuffles += 1
    new_pack = shuffled(state.discards, state.seed, "reshuffle", state.reshuffles)
    up = new_pack[0]
    state.discards = (up,)
    state.pack = tuple(reversed(new_pack[1:]))
    state.emit({"type": "reshuffle", "seat": None, "count": count, "up": up})


def _start_turn(state: FarawayState, seat: int) -> None:
    """Hand the turn to ``seat`` or the next seat not missing a turn, skipping the missed ones.

    A seat with no drawable card goes straight to step 2 (event ``no_draw``); one that then has
    nothing in hand has nothing to do, so its turn ends at once.
    """
    n = state.n
    while True:
        pens = state.pens
        while pens[seat] is not None:
            card, left = pens[seat]
            left -= 1
            state.emit({"type": "miss", "seat": seat, "card": card, "turns_left": left})
            if left:
                pens = _replace(pens, seat, (card, left))
            else:
                pens = _replace(pens, seat, None)
                state.aside = (*state.aside, card)
                state.emit({"type": "aside", "seat": seat, "card": card})
            state.pens = pens
            seat = (seat + 1) % n
        state.turn = seat
        state.phase = DRAW
        state.story_done = False
        state.pen_done = False
        hand_empty = not state.hands[seat]
        if state.pack or len(state.discards) >= 2:
            return
        state.emit({"type": "no_draw", "seat": seat})
        state.phase = PLAY
        if not hand_empty:
            return
        if _finish_turn(state):
            return
        seat = state.turn  # _finish_turn leaves the next seat here without starting it


def _finish_turn(state: FarawayState) -> bool:
    """End the current turn: reshuffle if the pack is empty, count it, check the turn cap.
    Returns True when the game ended; otherwise leaves the next seat in ``state.turn``."""
    if not state.pack:
        _reshuffle(state)
    state.turns += 1
    if state.turns >= TURN_CAP:
        state.phase = OVER
        state.emit({"type": "turn_cap", "seat": None, "turns": state.turns})
        return True
    state.turn = (state.turn + 1) % state.n
    return False


def _end_turn(state: FarawayState) -> None:
    if not _finish_turn(state):
        _start_turn(state, state.turn)


class FarawayEngine(Engine):
    name = "faraway"
    title = "The Faraway Tree"
    short_title = "Faraway"
    table_phrases = (
        ("nice_story", "What a story!"),
        ("nearly_done", "Nearly there!"),
        ("land_ahead", "A new land ahead"),
    )
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    rules_version = 1
    reason_codes = BASE_REASON_CODES | {
        "game_over",
        "not_your_turn",
        "move_not_dict",
        "unknown_move_type",
        "draw_first",
        "already_drawn",
        "draw_source",
        "empty_hand_draws_two",
        "last_discard",
        "draw_impossible",
        "names_one_card",
        "not_held",
        "one_story_card",
        "penalty_is_a_penalty_move",
        "next_story_card",
        "not_a_penalty",
        "one_penalty_card",
        "no_penalty_victim",
        "play_next_story_first",
        "discard_dead_card",
        "pack_empty",
    }
    summary = (
        "A race to climb the story from the Enchanted Wood to the Land of Birthdays: lay your"
        " story cards 1 to 9 in order, and hold others back with penalties."
    )
    score_help = "story cards in the row at the end, 0 to 9 (the first to lay a 9 wins)"

    # -- setting up -------------------------------------------------------------------------

    def new_game(
        self, num_players: int, seed: int | str, options: dict | None = None
    ) -> FarawayState:
        n = self.check_players(num_players)
        if type(seed) not in (int, str):
            raise ValueError(f"A seed is a whole number or a string, not {seed!r}.")
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise ValueError("Options must be a dict.")
        unknown = sorted(set(options) - {"deck", "dealer"})
        if unknown:
            raise ValueError(f"Unknown option(s) for the Faraway Tree: {', '.join(unknown)}.")
        dealer = options.get("dealer", 0)
        if type(dealer) is not int or not 0 <= dealer < n:
            raise ValueError(f"The dealer must be a seat from 0 to {n - 1}, not {dealer!r}.")
        if "deck" in options:
            deck = options["deck"]
            if (
                not isinstance(deck, list | tuple)
                or not all(isinstance(c, str) for c in deck)
                or Counter(deck) != PACK_COUNTS
            ):
                raise ValueError("The deck must be an ordering of exactly the 44 Faraway cards.")
            order = list(deck)
        else:
            order = shuffled(PACK, seed, "deal")

        hands: list[list[str]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(HAND_SIZE):
            for k in range(1, n + 1):
                hands[(dealer + k) % n].append(order[pos])
                pos += 1
        up = order[pos]
        rest = order[pos + 1 :]

        state = object.__new__(FarawayState)
        state.n = n
        state.seed = seed
        state.dealer = dealer
        state.hands = tuple(tuple(sorted(h)) for h in hands)
        state.rows = (0,) * n
        state.pack = tuple(reversed(rest))
        state.discards = (up,)
        state.pens = (None,) * n
        state.aside = ()
        state.turn = (dealer + 1) % n
        state.phase = DRAW
        state.story_done = False
        state.pen_done = False
        state.turns = 0
        state.reshuffles = 0
        state.winner = None
        state.known = ((),) * n
        state.events = []
        state._legal = None
        state._acts = None
        state.emit({"type": "deal", "seat": None, "dealer": dealer})
        for s in range(n):
            state.emit(
                {"type": "hand", "seat": s, "cards": list(state.hands[s]), "private": ["cards"]}
            )
        state.emit({"type": "turn_up", "seat": None, "card": up})
        return state

    # -- asking -----------------------------------------------------------------------------

    def awaiting(self, state: FarawayState) -> list[int]:
        return [] if state.phase == OVER else [state.turn]

    def lesson_pack(self, num_players: int) -> tuple[str, ...]:
        self.check_players(num_players)
        return PACK

    def legal_moves(self, state: FarawayState, seat: int) -> list[Move]:
        if seat != state.turn or state.phase == OVER:
            return []
        if state._legal is None:
            _compute_legal(state)
        # Copies: the cached dicts are what ``apply`` matches against, so a caller editing a
        # returned move must not be able to change which moves this state accepts.
        return [_copy_move(m) for m in state._legal]

    def is_over(self, state: FarawayState) -> bool:
        return state.phase == OVER

    def outcome(self, state: FarawayState) -> dict[str, Any]:
        over = state.phase == OVER
        return {
            "winners": [] if state.winner is None else [state.winner],
            "draw": over and state.winner is None,
            "scores": list(state.rows),
        }

    def events(self, state: FarawayState) -> list[dict[str, Any]]:
        return copy_json(state.events)

    # -- moving -----------------------------------------------------------------------------

    def apply(self, state: FarawayState, seat: int, move: Move) -> FarawayState:
        # ``type`` check: True == 1, but a bool seat would end up in the log and the hash
        if seat != state.turn or type(seat) is not int or state.phase == OVER:
            raise IllegalMove(self.explain(state, seat, move))
        legal = state._legal
        if legal is None:
            _compute_legal(state)
            legal = state._legal
        try:
            i = legal.index(move)
        except ValueError:
            raise IllegalMove(self.explain(state, seat, move)) from None
        act = state._acts[i]
        new = state.clone()
        kind = act[0]
        t = seat
        if kind == _A_PACK:
            k = act[1]
            pack = state.pack
            cards = list(reversed(pack[-k:]))
            new.pack = pack[:-k]
            new.hands = _replace(state.hands, t, _add(state.hands[t], cards))
            new.phase = PLAY
            new.emit(
                {
                    "type": "draw",
                    "seat": t,
                    "source": "pack",
                    "count": k,
                    "cards": cards,
                    "private": ["cards"],
                }
            )
        elif kind == _A_DISC:
            positions = act[1]
            disc = state.discards
            top = len(disc) - 1
            cards = [disc[top - p] for p in positions]
            if len(positions) == 1:
                j = top - positions[0]
                new.discards = disc[:j] + disc[j + 1 :]
            else:
                drop = {top - p for p in positions}
                new.discards = tuple(c for j, c in enumerate(disc) if j not in drop)
            new.hands = _replace(state.hands, t, _add(state.hands[t], cards))
            new.known = _replace(state.known, t, _add(state.known[t], cards))
            new.phase = PLAY
            new.emit(
                {
                    "type": "draw",
                    "seat": t,
                    "source": "discard",
                    "positions": list(positions),
                    "cards": cards,
                }
            )
        elif kind == _A_PLAY:
            card = act[1]
            hand = _remove(state.hands[t], card)
            new.hands = _replace(state.hands, t, hand)
            number = state.rows[t] + 1
            new.rows = _replace(state.rows, t, number)
            known = state.known[t]
            if known and card in known:  # the table knew of one: it knows one fewer now
                new.known = _replace(state.known, t, _remove(known, card))
            new.story_done = True
            new.emit({"type": "play", "seat": t, "card": card})
            if number == WINNING_NUMBER:
                new.winner = t
                new.phase = OVER
                new.turns += 1
                new.emit({"type": "win", "seat": t})
                return new
            if not hand:
                _end_turn(new)
        elif kind == _A_PEN:
            card, victim = act[1], act[2]
            hand = _remove(state.hands[t], card)
            new.hands = _replace(state.hands, t, hand)
            turns = PENALTY_TURNS[card]
            new.pens = _replace(state.pens, victim, (card, turns))
            known = state.known[t]
            if known and card in known:
                new.known = _replace(state.known, t, _remove(known, card))
            new.pen_done = True
            new.emit(
                {
                    "type": "penalty",
                    "seat": t,
                    "card": card,
                    "victim": victim,
                    "on": STORY_CODE[state.rows[victim]],
                    "turns": turns,
                }
            )
            if not hand:
                _end_turn(new)
        else:  # discard
            card = act[1]
            new.hands = _replace(state.hands, t, _remove(state.hands[t], card))
            new.discards = (*state.discards, card)
            known = state.known[t]
            if known and card in known:
                new.known = _replace(state.known, t, _remove(known, card))
            new.emit({"type": "discard", "seat": t, "card": card})
            _end_turn(new)
        return new

    def explain(self, state: FarawayState, seat: int, move: object) -> Reason | None:
        """Why ``seat`` may not make ``move`` now (a ``Reason``); ``None`` when it may."""
        if state.phase == OVER:
            return reason("game_over")
        if type(seat) is not int or not 0 <= seat < state.n:
            return reason("no_seat", given=seat)
        if seat == state.turn:
            if state._legal is None:
                _compute_legal(state)
            if move in state._legal:
                return None
        if seat != state.turn:
            return reason("not_your_turn", seat=state.turn)
        if not isinstance(move, dict):
            return reason("move_not_dict")
        kind = move.get("type")
        if kind not in ("draw", "play", "penalty", "discard"):
            return reason("unknown_move_type", given=kind)
        hand = state.hands[state.turn]
        if state.phase == DRAW and kind != "draw":
            return reason("draw_first")
        if state.phase == PLAY and kind == "draw":
            return reason("already_drawn")
        if kind == "draw":
            source = move.get("source")
            if source not in ("pack", "discard"):
                return reason("draw_source")
            if not hand:
                return reason("empty_hand_draws_two")
            if source == "discard" and len(state.discards) < 2:
                return reason("last_discard")
            return reason("draw_impossible")
        card = move.get("card")
        if set(move) != {"type", "card"} or not isinstance(card, str):
            return reason("names_one_card", type=kind)
        if card not in hand:
            return reason("not_held", given=card)
        high = state.rows[state.turn]
        if kind == "play":
            if state.story_done:
                return reason("one_story_card")
            if card not in STORY_NUMBER:
                return reason("penalty_is_a_penalty_move")
            return reason("next_story_card", next=high + 1, card=card)
        if kind == "penalty":
            if card not in PENALTY_NUMBER:
                return reason("not_a_penalty", card=card)
            if state.pen_done:
                return reason("one_penalty_card")
            return reason("no_penalty_victim", card=card, height=PENALTY_NUMBER[card])
        if not state.story_done and STORY_CODE[high + 1] in hand:
            return reason("play_next_story_first", next=high + 1)
        return reason("discard_dead_card")

    def refusals(self, state: FarawayState, seat: int) -> dict[str, list[Reason]]:
        """Why each card in ``seat``'s hand, the pack and each shown discard offers no move now
        (``Engine.refusals``): a card's reasons are ``explain``'s for laying or playing it, and
        after the draw for discarding it too."""
        if state.phase == OVER or seat != state.turn or type(seat) is not int:
            return {}
        legal = self.legal_moves(state, seat)
        used = {m.get("card") for m in legal}
        reasons: dict[str, list[Reason]] = {}
        for card in dict.fromkeys(state.hands[seat]):
            if card in used:
                continue
            tried = [{"type": "penalty" if card in PENALTY_NUMBER else "play", "card": card}]
            if state.phase == PLAY:
                tried.append({"type": "discard", "card": card})
            said: list[Reason] = []
            for move in tried:
                why = self.explain(state, seat, move)
                if why is not None and why not in said:
                    said.append(why)
            reasons[card] = said
        draws = [m for m in legal if m.get("type") == "draw"]
        if not any(m["source"] == "pack" for m in draws):
            why = (
                reason("pack_empty")
                if state.phase == DRAW and not state.pack
                else self.explain(state, seat, {"type": "draw", "source": "pack"})
            )
            reasons["pack"] = [why] if why is not None else []
        for i in range(min(3, len(state.discards))):
            move = {"type": "draw", "source": "discard", "positions": [i]}
            if move not in draws:
                why = self.explain(state, seat, move)
                reasons[f"discard:{i}"] = [why] if why is not None else []
        return reasons

    # -- seeing -----------------------------------------------------------------------------

    def view(self, state: FarawayState, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            check_seat(state.n, seat)
        over = state.phase == OVER
        disc = state.discards
        view: dict[str, Any] = {
            "game": self.name,
            "seat": seat,
            "num_players": state.n,
            "dealer": state.dealer,
            "hand": [] if seat is None else list(state.hands[seat]),
            "hand_counts": [len(h) for h in state.hands],
            "rows": [[STORY_CODE[i] for i in range(1, h + 1)] for h in state.rows],
            "row_next": [None if over else STORY_CODE.get(h + 1) for h in state.rows],
            "discards": list(reversed(disc[-3:])),
            "discard_count": len(disc),
            # Every card in the pile went there face up and only public draws took any away, so
            # the whole pile is public (a player who watched could list it); top first.
            "discard_pile": list(reversed(disc)),
            "known_cards": [list(k) for k in state.known],
            "pack_count": len(state.pack),
            "penalties": [
                None if p is None else {"card": p[0], "turns_left": p[1]} for p in state.pens
            ],
            "penalty_victims": {} if seat is None or over else _penalty_victims(state, seat),
            "aside": list(state.aside),
            "turn": None if over else state.turn,
            "phase": PHASE_NAMES[state.phase],
            "story_played": state.story_done,
            "penalty_played": state.pen_done,
            "turns_played": state.turns,
            "reshuffles": state.reshuffles,
            "awaiting": self.awaiting(state),
            "legal_moves": [] if seat is None else self.legal_moves(state, seat),
            "events": self.redact(state.events, seat),
            "over": over,
            "outcome": self.outcome(state) if over else None,
        }
        if over:
            view["hands"] = [list(h) for h in state.hands]
        return view

    # -- storing ----------------------------------------------------------------------------

    def dump(self, state: FarawayState) -> dict[str, Any]:
        return {
            "game": self.name,
            "rules_version": self.rules_version,
            "num_players": state.n,
            "seed": state.seed,
            "dealer": state.dealer,
            "hands": [list(h) for h in state.hands],
            "rows": list(state.rows),
            "pack": list(reversed(state.pack)),  # top first
            "discards": list(reversed(state.discards)),  # top first
            "penalties": [
                None if p is None else {"card": p[0], "turns_left": p[1]} for p in state.pens
            ],
            "aside": list(state.aside),
            "turn": state.turn,
            "phase": PHASE_NAMES[state.phase],
            "story_played": state.story_done,
            "penalty_played": state.pen_done,
            "turns_played": state.turns,
            "reshuffles": state.reshuffles,
            "winner": state.winner,
            "known_cards": [list(k) for k in state.known],
        }

    def load(self, data: dict[str, Any]) -> FarawayState:
        if not isinstance(data, dict) or data.get("game", self.name) != self.name:
            raise ValueError("This is not a Faraway Tree state.")
        if data.get("rules_version") != self.rules_version:
            raise ValueError(
                f"State has rules_version {data.get('rules_version')!r};"
                f" this engine plays version {self.rules_version}."
            )
        try:
            state = object.__new__(FarawayState)
            state.n = self.check_players(data["num_players"])
            state.seed = data["seed"]
            state.dealer = data["dealer"]
            state.hands = tuple(tuple(sorted(h)) for h in data["hands"])
            state.rows = tuple(int(h) for h in data["rows"])
            state.pack = tuple(reversed(data["pack"]))
            state.discards = tuple(reversed(data["discards"]))
            state.pens = tuple(
                None if p is None else (p["card"], int(p["turns_left"])) for p in data["penalties"]
            )
            state.aside = tuple(data["aside"])
            state.turn = data["turn"]
            state.phase = PHASE_NAMES.index(data["phase"])
            state.story_done = bool(data["story_played"])
            state.pen_done = bool(data["penalty_played"])
            state.turns = int(data["turns_played"])
            state.reshuffles = int(data["reshuffles"])
            state.winner = data["winner"]
            # Optional, so a position written by hand may leave it out: nothing known is the
            # lower bound it always is. An ``"events"`` key (older dumps had one) is ignored.
            known = data.get("known_cards")
            state.known = (
                ((),) * state.n if known is None else tuple(tuple(sorted(k)) for k in known)
            )
            state.events = []
            state._legal = None
            state._acts = None
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"Malformed Faraway Tree state: {exc}") from exc
        n = state.n
        if not (
            len(state.hands) == len(state.rows) == len(state.pens) == len(state.known) == n
            and all(0 <= h <= WINNING_NUMBER for h in state.rows)
            and type(state.turn) is int
            and 0 <= state.turn < n
            and type(state.dealer) is int
            and 0 <= state.dealer < n
        ):
            raise ValueError("Malformed Faraway Tree state: seats, rows or turn out of range.")
        if Counter(self._all_cards(state)) != PACK_COUNTS:
            raise ValueError("Malformed Faraway Tree state: the cards do not make up the pack.")
        if any(Counter(k) - Counter(h) for k, h in zip(state.known, state.hands, strict=True)):
            raise ValueError("Malformed Faraway Tree state: a known card is not in its hand.")
        return state

    @staticmethod
    def _all_cards(state: FarawayState) -> list[str]:
        """Every card in the state (hands, rows, pack, discards, penalties, aside): always 44."""
        cards: list[str] = []
        for h in state.hands:
            cards.extend(h)
        for high in state.rows:
            cards.extend(STORY_CODE[i] for i in range(1, high + 1))
        cards.extend(state.pack)
        cards.extend(state.discards)
        cards.extend(p[0] for p in state.pens if p is not None)
        cards.extend(state.aside)
        return cards

    # -- for the bots -----------------------------------------------------------------------

    def sample_state(self, view: dict[str, Any], rng: random.Random) -> FarawayState:
        """A full state consistent with everything ``view`` shows: the whole discard pile and
        the cards each seat is known to hold stay where they are, and every card that seat
        cannot see (the rest of other hands, the pack) is dealt at random from the cards it has
        not seen. The seed is drawn from ``rng``, so later reshuffles in a search differ between
        samples as they should. Never reads hidden state."""
        seat = view["seat"]
        n = len(view["hand_counts"])
        known = [
            list(view["hand"]) if s == seat else list(k) for s, k in enumerate(view["known_cards"])
        ]
        unseen = Counter(PACK_COUNTS)
        seen: list[str] = [c for k in known for c in k]
        for row in view["rows"]:
            seen.extend(row)
        seen.extend(view["discard_pile"])
        seen.extend(p["card"] for p in view["penalties"] if p is not None)
        seen.extend(view["aside"])
        unseen.subtract(Counter(seen))
        if any(v < 0 for v in unseen.values()):
            raise ValueError("The view shows more of some card than the pack holds.")
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        pos = 0
        hands = []
        for s in range(n):
            k = view["hand_counts"][s] - len(known[s])
            if k < 0:
                raise ValueError("A seat is known to hold more cards than it has.")
            hands.append(tuple(sorted(known[s] + pool[pos : pos + k])))
            pos += k
        pack = pool[pos:]
        if len(pack) != view["pack_count"]:
            raise ValueError("The view's counts do not add up to the pack.")

        state = object.__new__(FarawayState)
        state.n = n
        state.seed = rng.getrandbits(63)
        state.dealer = view["dealer"]
        state.hands = tuple(hands)
        state.rows = tuple(len(r) for r in view["rows"])
        state.pack = tuple(pack)
        state.discards = tuple(reversed(view["discard_pile"]))
        state.pens = tuple(
            None if p is None else (p["card"], p["turns_left"]) for p in view["penalties"]
        )
        state.aside = tuple(view["aside"])
        state.phase = PHASE_NAMES.index(view["phase"])
        state.turn = view["turn"] if view["turn"] is not None else 0
        state.story_done = view["story_played"]
        state.pen_done = view["penalty_played"]
        state.turns = view["turns_played"]
        state.reshuffles = view["reshuffles"]
        outcome = view.get("outcome") or {}
        winners = outcome.get("winners") or []
        state.winner = winners[0] if winners else None
        state.known = tuple(tuple(k) for k in view["known_cards"])
        state.events = []
        state._legal = None
        state._acts = None
        return state


ENGINE = FarawayEngine()

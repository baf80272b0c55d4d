"""Gulliver's Travels: the rule engine (see docs/engine-contract.md and docs/rulings.md).

Speed matters (the strong bot spends its thinking time here), so a state is a ``__slots__``
object treated as immutable: ``apply`` makes a shallow copy and replaces only the fields a
move changes, all of them tuples or scalars. The sentence is carried as the id of a
precompiled grammar automaton state (see ``gulliver_words``), together with the state of
"an adjective + the sentence" so a prepend is checked by one lookup. A state holds only the
events of the step that made it, in a fresh list, so its size never grows with the match.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from . import gulliver_words as W
from .base import (
    BASE_REASON_CODES,
    PRIVATE,
    Engine,
    IllegalMove,
    Option,
    Reason,
    check_seat,
    copy_json,
    reason,
    shuffled,
)

HAND_SIZE = 4
DEFAULT_TARGET = 250
MAX_ROUNDS = 100
POINTS_PER_TRICK = 20
POINTS_FOR_GOING_OUT = 20
PENALTY_PER_CARD = 5
OPTION_KEYS = frozenset({"deck", "dealer", "target", "challenges"})
MOVE_TYPES = ("play", "prepend", "draw", "pass", "challenge", "vote")

_DRAW: dict[str, Any] = {"type": "draw"}
_PASS: dict[str, Any] = {"type": "pass"}
_CHALLENGE: dict[str, Any] = {"type": "challenge"}
_VOTES: tuple[dict[str, Any], ...] = (
    {"type": "vote", "accept": True},
    {"type": "vote", "accept": False},
)
_CHALLENGE_ONLY = (_CHALLENGE,)
_NONE: tuple[dict[str, Any], ...] = ()


class GulliverState:
    """One moment of a match. Never mutate one that another piece of code may hold."""

    __slots__ = (
        "chal",
        "challenge",
        "dealer",
        "dfa",
        "draw",
        "events",
        "hands",
        "last",
        "legal",
        "minus",
        "n",
        "out",
        "over",
        "passes",
        "pdfa",
        "plus",
        "prepended",
        "revealed",
        "rnd",
        "rover",
        "seed",
        "sentence",
        "sp",
        "stack",
        "starter",
        "taken",
        "target",
        "tricks",
        "turn",
        "winners",
    )

    n: int
    seed: int | str
    target: int
    chal: bool
    rnd: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    stack: tuple[str, ...]  # the centre stack is stack[sp:], its top first
    sp: int
    sentence: tuple[str, ...]
    dfa: int
    pdfa: int | None  # state of an adjective + sentence; None when a prepend is impossible
    prepended: bool
    starter: int | None
    turn: int
    passes: int
    out: int | None  # who first emptied their hand this round
    tricks: tuple[int, ...]
    taken: tuple[tuple[int, tuple[str, ...]], ...]
    plus: tuple[int, ...]
    minus: tuple[int, ...]
    rover: bool
    over: bool
    winners: tuple[int, ...]
    draw: bool
    challenge: tuple | None  # (owner, card, kind, challenger, votes)
    last: tuple | None  # the card that may still be challenged: (owner, card, kind)
    revealed: tuple[tuple[str, ...], ...]  # cards publicly known to be in a hand
    events: list[dict[str, Any]]  # those of the step that made this state
    legal: tuple[dict[str, Any], ...] | None  # the turn seat's moves, computed on demand

    def clone(self) -> GulliverState:
        """A copy to change (fields are tuples and numbers; the step's events start empty)."""
        return _copy(self)


def _copy(s: GulliverState) -> GulliverState:
    t = GulliverState.__new__(GulliverState)
    t.n = s.n
    t.seed = s.seed
    t.target = s.target
    t.chal = s.chal
    t.rnd = s.rnd
    t.dealer = s.dealer
    t.hands = s.hands
    t.stack = s.stack
    t.sp = s.sp
    t.sentence = s.sentence
    t.dfa = s.dfa
    t.pdfa = s.pdfa
    t.prepended = s.prepended
    t.starter = s.starter
    t.turn = s.turn
    t.passes = s.passes
    t.out = s.out
    t.tricks = s.tricks
    t.taken = s.taken
    t.plus = s.plus
    t.minus = s.minus
    t.rover = s.rover
    t.over = s.over
    t.winners = s.winners
    t.draw = s.draw
    t.challenge = s.challenge
    t.last = s.last
    t.revealed = s.revealed
    t.events = []
    t.legal = None
    return t


def _log(t: GulliverState, event: dict[str, Any]) -> None:
    """Record an event of the step making ``t`` (a fresh state nobody else holds yet)."""
    t.events.append(event)


# -- rules the bots share (pure functions of plain values, fast enough for their rollouts) -----


def next_holder(holding: Sequence[object], seat: int) -> int | None:
    """Who moves after ``seat`` (docs/rulings.md: empty hands are skipped): the next seat to
    its left that still holds cards, ``seat`` itself when nobody else does, ``None`` when no
    one does. ``holding[s]`` is truthy while seat ``s`` holds cards: its hand, or its hand
    size, taken as they are so neither the engine nor a rollout builds a list per call."""
    n = len(holding)
    for k in range(1, n + 1):
        s = (seat + k) % n
        if holding[s]:
            return s
    return None


def round_gain(tricks: int, went_out: bool) -> int:
    """What a seat adds to its plus column at the end of a round (docs/rulings.md, Scoring):
    ``POINTS_PER_TRICK`` per trick taken, and ``POINTS_FOR_GOING_OUT`` for the seat that
    emptied its hand first."""
    return POINTS_PER_TRICK * tricks + (POINTS_FOR_GOING_OUT if went_out else 0)


def round_loss(held: int) -> int:
    """What a seat adds to its minus column at the end of a round: ``PENALTY_PER_CARD`` per
    card still in its hand."""
    return PENALTY_PER_CARD * held


def round_points(tricks: int, went_out: bool, held: int) -> int:
    """A seat's round score, its standing's change: ``round_gain`` less ``round_loss`` (what
    a bot's evaluation asks of a round stopped at any moment: "if it ended now")."""
    return round_gain(tricks, went_out) - round_loss(held)


def lay_moves(hand: Sequence[str], table: Mapping[str, int], prepend: bool) -> list[dict[str, Any]]:
    """The plays and prepends ``hand`` allows, in the engine's order: each distinct card that
    fits the end (``table``, ``gulliver_words.end_table``), in hand order, then, when
    ``prepend`` (``gulliver_words.may_prepend``), each distinct adjective it holds."""
    distinct = dict.fromkeys(hand)
    moves = [{"type": "play", "card": c} for c in distinct if c in table]
    if prepend:
        moves.extend({"type": "prepend", "card": c} for c in distinct if c in W.ADJECTIVES)
    return moves


def _sentence_states(sentence: Sequence[str], prepended: bool) -> tuple[int, int | None]:
    dfa = W.run(sentence, prepended)
    pdfa = None
    if sentence and not prepended:
        p = W.with_prepend(sentence)
        pdfa = None if p == W.DEAD else p
    return dfa, pdfa


def _remove(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _replace(items: tuple, i: int, value: object) -> tuple:
    return (*items[:i], value, *items[i + 1 :])


def _check_int(value: object, what: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{what} must be a whole number, not {value!r}.")
    return value


def _challenge_dict(ch: tuple | None) -> dict[str, Any] | None:
    if ch is None:
        return None
    return {"seat": ch[0], "card": ch[1], "kind": ch[2], "challenger": ch[3], "votes": list(ch[4])}


def _last_dict(last: tuple | None) -> dict[str, Any] | None:
    return None if last is None else {"seat": last[0], "card": last[1], "kind": last[2]}


def _public_state(src: dict[str, Any], *, last: dict[str, Any] | None) -> GulliverState:
    """A state holding the fields a dump and a seat's view spell alike (everything public);
    ``load`` and ``sample_state`` each add the rest (hands, stack, seed, scores) their own way."""
    s = GulliverState.__new__(GulliverState)
    s.n = src["num_players"]
    s.target = src["target"]
    s.chal = src["challenges"]
    s.rnd = src["round"]
    s.dealer = src["dealer"]
    s.sp = 0
    s.sentence = tuple(src["sentence"])
    s.prepended = src["prepended"]
    s.dfa, s.pdfa = _sentence_states(s.sentence, s.prepended)
    s.starter = src["starter"]
    s.turn = src["turn"]
    s.passes = src["passes"]
    s.out = src["out"]
    s.tricks = tuple(src["tricks"])
    s.taken = tuple((x["seat"], tuple(x["cards"])) for x in src["taken"])
    s.rover = src["round_over"]
    s.over = src["over"]
    ch = src["challenge"]
    s.challenge = (
        None
        if ch is None
        else (ch["seat"], ch["card"], ch["kind"], ch["challenger"], tuple(ch["votes"]))
    )
    s.last = None if last is None else (last["seat"], last["card"], last["kind"])
    s.revealed = tuple(tuple(r) for r in src["revealed"])
    s.events = []
    s.legal = None
    return s


class GulliverEngine(Engine):
    name = "gulliver"
    title = "Gulliver's Travels"
    short_title = "Gulliver"
    table_phrases = (
        ("fair_winds", "Fair winds"),
        ("land_ho", "Land ho!"),
        ("next_round", "On to the next round"),
    )
    min_players = 2
    max_players = 8
    rules_version = 1
    reason_codes = (
        BASE_REASON_CODES
        | W.REASON_CODES
        | {
            "move_shape",
            "unknown_move",
            "move_takes_field",
            "move_takes_nothing",
            "vote_accept_bool",
            "match_over",
            "round_over",
            "round_in_play",
            "no_challenge_to_vote",
            "already_voted",
            "vote_in_progress",
            "challenges_off",
            "nothing_to_challenge",
            "own_card_challenge",
            "not_your_turn_to_play",
            "must_play_fitting",
            "stack_empty_pass",
            "pass_only_when_stack_empty",
            "no_such_card",
            "not_held",
            "cannot_play_now",
            "prepend_not_adjective",
            "prepend_no_sentence",
            "prepend_used",
            "prepend_own_sentence",
            "prepend_dead_end",
            "vote_first",
        }
    )
    has_rounds = True
    summary = (
        "Every card is a word and the table builds sentences together: add words to the"
        " sentence, and complete one of seven words or more to take it."
    )
    score_help = "the final standing: points won less penalties (it can be below zero)"
    options = (
        Option(
            "target",
            "Winning score",
            "int",
            help=f"{DEFAULT_TARGET} in the printed rules.",
            minimum=20,
            maximum=1000,
        ),
        Option("challenges", "Allow challenges", "bool", help="A vote on each card."),
    )

    # ------------------------------------------------------------ setting up

    def new_game(
        self, num_players: int, seed: int | str, options: dict | None = None
    ) -> GulliverState:
        n = self.check_players(num_players)
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise ValueError("options must be a dict.")
        unknown = set(options) - OPTION_KEYS
        if unknown:
            raise ValueError(
                f"Unknown Gulliver option(s): {', '.join(sorted(map(str, unknown)))}; "
                f"known: {', '.join(sorted(OPTION_KEYS))}."
            )
        if type(seed) not in (int, str):
            raise ValueError(f"seed must be an int or a str, not {seed!r}.")
        dealer = _check_int(options.get("dealer", 0), "dealer")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}, not {dealer}.")
        target = _check_int(options.get("target", DEFAULT_TARGET), "target")
        if target < 1:
            raise ValueError(f"target must be at least 1, not {target}.")
        challenges = options.get("challenges", False)
        if type(challenges) is not bool:
            raise ValueError(f"challenges must be true or false, not {challenges!r}.")
        pack = W.pack_for(n)
        if "deck" in options:
            deck = options["deck"]
            if not isinstance(deck, (list, tuple)) or not all(isinstance(c, str) for c in deck):
                raise ValueError("deck must be a list of card codes.")
            if sorted(deck) != sorted(pack):
                raise ValueError(
                    f"deck must be a permutation of the {len(pack)}-card pack for {n} players."
                )
            order = list(deck)
        else:
            order = shuffled(pack, seed, "round", 1)

        s = GulliverState.__new__(GulliverState)
        s.n = n
        s.seed = seed
        s.target = target
        s.chal = challenges
        s.rnd = 1
        s.dealer = dealer
        s.plus = (0,) * n
        s.minus = (0,) * n
        s.over = False
        s.winners = ()
        s.draw = False
        s.events = []
        self._deal(s, order)
        return s

    def _deal(self, s: GulliverState, order: list[str]) -> None:
        n = s.n
        hands: list[list[str]] = [[] for _ in range(n)]
        i = 0
        for _ in range(HAND_SIZE):
            for k in range(1, n + 1):
                hands[(s.dealer + k) % n].append(order[i])
                i += 1
        s.hands = tuple(tuple(h) for h in hands)
        s.stack = tuple(order[i:])
        s.sp = 0
        s.sentence = ()
        s.dfa = W.START
        s.pdfa = None
        s.prepended = False
        s.starter = None
        s.turn = s.dealer
        s.passes = 0
        s.out = None
        s.tricks = (0,) * n
        s.taken = ()
        s.rover = False
        s.challenge = None
        s.last = None
        s.revealed = ((),) * n
        s.legal = None
        _log(
            s,
            {
                "type": "deal",
                "seat": None,
                "round": s.rnd,
                "dealer": s.dealer,
                "hand_counts": [len(h) for h in s.hands],
                "stack_count": len(s.stack),
            },
        )

    def next_round(self, state: GulliverState) -> GulliverState:
        """Deal the next round (the server's seatless ``next_round`` entry)."""
        if not state.rover:
            raise IllegalMove(reason("match_over" if state.over else "round_in_play"))
        t = _copy(state)
        t.rnd = state.rnd + 1
        t.dealer = (state.dealer + 1) % state.n
        self._deal(t, shuffled(W.pack_for(state.n), state.seed, "round", t.rnd))
        return t

    # ------------------------------------------------------------ asking

    def awaiting(self, state: GulliverState) -> list[int]:
        if state.over or state.rover:
            return []
        ch = state.challenge
        if ch is not None:
            return [s for s, v in enumerate(ch[4]) if v is None]
        return [state.turn]

    def round_over(self, state: GulliverState) -> bool:
        return state.rover

    def vote_open(self, state: GulliverState, seat: int) -> bool:
        """A challenge is being voted on and ``seat`` has not voted (docs/rulings.md)."""
        return self._legal(state, seat) is _VOTES

    def silent_ballot(self, state: GulliverState, seat: int) -> dict[str, Any]:
        """A vote left unanswered counts as accepting the card (docs/rulings.md)."""
        return dict(_VOTES[0])

    def move_disputable(self, state: GulliverState, move: dict[str, Any]) -> bool:
        """A laid card may be challenged in a match that allows challenges."""
        return state.chal and move.get("type") in ("play", "prepend")

    def is_over(self, state: GulliverState) -> bool:
        return state.over

    def outcome(self, state: GulliverState) -> dict[str, Any]:
        return {
            "winners": list(state.winners),
            "draw": state.draw,
            "scores": [p - m for p, m in zip(state.plus, state.minus, strict=True)],
        }

    def events(self, state: GulliverState) -> list[dict[str, Any]]:
        return copy_json(state.events)

    def _turn_moves(self, s: GulliverState) -> tuple[dict[str, Any], ...]:
        seat = s.turn
        moves = lay_moves(
            s.hands[seat],
            W.end_table(s.dfa, not s.sentence),
            W.may_prepend(s.pdfa, seat, s.starter),
        )
        if not moves:
            moves.append(_DRAW if s.sp < len(s.stack) else _PASS)
        if s.last is not None and s.last[0] != seat:
            moves.append(_CHALLENGE)
        return tuple(moves)

    def _legal(self, s: GulliverState, seat: object) -> tuple[dict[str, Any], ...]:
        if s.over or s.rover:
            return _NONE
        ch = s.challenge
        if ch is not None:
            if type(seat) is int and 0 <= seat < s.n and ch[4][seat] is None:
                return _VOTES
            return _NONE
        if seat == s.turn and type(seat) is int:
            legal = s.legal
            if legal is None:
                legal = s.legal = self._turn_moves(s)
            return legal
        if s.last is not None and type(seat) is int and 0 <= seat < s.n and seat != s.last[0]:
            return _CHALLENGE_ONLY
        return _NONE

    def lesson_pack(self, num_players: int) -> tuple[str, ...]:
        self.check_players(num_players)
        return W.pack_for(num_players)

    def legal_moves(self, state: GulliverState, seat: int) -> list[dict[str, Any]]:
        # Fresh dicts, so a caller that edits a move cannot corrupt the cached list.
        return [dict(m) for m in self._legal(state, seat)]

    # ------------------------------------------------------------ moving

    def apply(self, state: GulliverState, seat: int, move: dict[str, Any]) -> GulliverState:
        check_seat(state.n, seat)
        for m in self._legal(state, seat):
            if m == move:
                break
        else:
            raise IllegalMove(self.explain(state, seat, move))
        kind = m["type"]
        if kind == "play":
            return self._lay(state, seat, m["card"], False)
        if kind == "prepend":
            return self._lay(state, seat, m["card"], True)
        if kind == "draw":
            return self._draw(state, seat)
        if kind == "pass":
            return self._pass(state, seat)
        if kind == "challenge":
            return self._challenge(state, seat)
        return self._vote(state, seat, m["accept"])

    def _lay(self, s: GulliverState, seat: int, card: str, front: bool) -> GulliverState:
        t = _copy(s)
        hand = _remove(s.hands[seat], card)
        t.hands = _replace(s.hands, seat, hand)
        if card in s.revealed[seat]:
            t.revealed = _replace(s.revealed, seat, _remove(s.revealed[seat], card))
        dfa, t.pdfa = W.lay(s.dfa, s.pdfa, not s.sentence, card, front)
        if front:
            sentence = (card, *s.sentence)
            t.prepended = True
        elif s.sentence:
            sentence = (*s.sentence, card)
        else:
            sentence = (card,)
            t.starter = seat
        t.passes = 0
        kind = "prepend" if front else "play"
        complete = W.ACCEPTING[dfa]
        _log(t, {"type": kind, "seat": seat, "card": card, "complete": complete})
        # ``complete and``: the trick rule is asked only of the rare complete sentence.
        if complete and W.is_trick(len(sentence), dfa):
            t.tricks = _replace(s.tricks, seat, s.tricks[seat] + 1)
            t.taken = (*s.taken, (seat, sentence))
            t.sentence = ()
            t.dfa = W.START
            t.pdfa = None
            t.prepended = False
            t.starter = None
            t.last = None
            _log(t, {"type": "trick", "seat": seat, "cards": list(sentence)})
            if not hand and s.out is None:
                t.out = seat
                _log(t, {"type": "out", "seat": seat})
            if t.out is not None:
                self._end_round(t, "trick")
            else:
                t.turn = (seat + 1) % s.n  # nobody is out, so every hand still holds cards
            return t
        t.sentence = sentence
        t.dfa = dfa
        if not hand and s.out is None:
            t.out = seat
            _log(t, {"type": "out", "seat": seat})
        t.last = (seat, card, kind) if s.chal else None
        nxt = next_holder(t.hands, seat)
        if nxt is None:
            self._end_round(t, "no_cards")
        else:
            t.turn = nxt
        return t

    def _draw(self, s: GulliverState, seat: int) -> GulliverState:
        t = _copy(s)
        card = s.stack[s.sp]
        t.sp = s.sp + 1
        t.hands = _replace(s.hands, seat, (*s.hands[seat], card))
        t.passes = 0
        t.last = None
        _log(t, {"type": "draw", "seat": seat, "source": "stack", "card": card, PRIVATE: ["card"]})
        t.turn = next_holder(t.hands, seat)  # type: ignore[assignment]
        return t

    def _pass(self, s: GulliverState, seat: int) -> GulliverState:
        t = _copy(s)
        t.passes = s.passes + 1
        t.last = None
        _log(t, {"type": "pass", "seat": seat})
        if t.passes >= sum(1 for h in s.hands if h):
            self._end_round(t, "all_passed")
        else:
            t.turn = next_holder(s.hands, seat)  # type: ignore[assignment]
        return t

    def _challenge(self, s: GulliverState, seat: int) -> GulliverState:
        t = _copy(s)
        owner, card, kind = s.last  # type: ignore[misc]
        t.challenge = (owner, card, kind, seat, (None,) * s.n)
        _log(t, {"type": "challenge", "seat": seat, "target": owner, "card": card})
        return t

    def _vote(self, s: GulliverState, seat: int, accept: bool) -> GulliverState:
        t = _copy(s)
        owner, card, kind, challenger, votes = s.challenge  # type: ignore[misc]
        votes = _replace(votes, seat, bool(accept))
        _log(t, {"type": "vote", "seat": seat, "accept": bool(accept)})
        if None in votes:
            t.challenge = (owner, card, kind, challenger, votes)
            return t
        ayes = sum(1 for v in votes if v)
        stands = 2 * ayes > s.n  # a strict majority; a tie rejects
        t.challenge = None
        t.last = None
        _log(
            t,
            {
                "type": "challenge_result",
                "seat": owner,
                "card": card,
                "challenger": challenger,
                "stands": stands,
                "for": ayes,
                "against": s.n - ayes,
            },
        )
        if not stands:
            # Taken back as if never played; the turn stays with the next player.
            sentence = s.sentence[1:] if kind == "prepend" else s.sentence[:-1]
            prepended = s.prepended and kind != "prepend"
            t.sentence = sentence
            t.prepended = prepended
            t.dfa, t.pdfa = _sentence_states(sentence, prepended)
            if not sentence:
                t.starter = None
            if s.out == owner and not s.hands[owner]:
                t.out = None
            t.hands = _replace(s.hands, owner, (*s.hands[owner], card))
            t.revealed = _replace(s.revealed, owner, (*s.revealed[owner], card))
            t.passes = 0
        return t

    def _end_round(self, t: GulliverState, reason: str) -> None:
        n = t.n
        held = [len(h) for h in t.hands]
        gained = [round_gain(t.tricks[s], s == t.out) for s in range(n)]
        lost = [round_loss(h) for h in held]
        t.plus = tuple(p + g for p, g in zip(t.plus, gained, strict=True))
        t.minus = tuple(m + x for m, x in zip(t.minus, lost, strict=True))
        standing = [p - m for p, m in zip(t.plus, t.minus, strict=True)]
        t.challenge = None
        t.last = None
        t.legal = None
        _log(
            t,
            {
                "type": "round_end",
                "seat": None,
                "round": t.rnd,
                "reason": reason,
                "out": t.out,
                "held": held,
                "tricks": list(t.tricks),
                "gained": gained,
                "lost": lost,
                "scores": standing,
            },
        )
        best = max(standing)
        top = [s for s in range(n) if standing[s] == best]
        if best >= t.target and len(top) == 1:
            self._finish(t, top, False, standing)
        elif t.rnd >= MAX_ROUNDS:
            self._finish(t, top, len(top) > 1, standing)
        else:
            t.rover = True

    def _finish(self, t: GulliverState, winners: list[int], draw: bool, scores: list[int]) -> None:
        t.over = True
        t.rover = False
        t.winners = tuple(winners)
        t.draw = draw
        _log(
            t,
            {"type": "end", "seat": None, "winners": winners, "draw": draw, "scores": scores},
        )

    # ------------------------------------------------------------ explaining refusals

    def explain(self, state: GulliverState, seat: int, move: object) -> Reason | None:
        """Why ``move`` is not allowed for ``seat`` now (a ``Reason``; ``None`` if it is)."""
        s = state
        if type(seat) is not int or not 0 <= seat < s.n:
            return reason("no_seat", given=seat)
        if any(m == move for m in self._legal(s, seat)):
            return None
        if not isinstance(move, dict) or "type" not in move:
            return reason("move_shape")
        kind = move["type"]
        if kind not in MOVE_TYPES:
            return reason("unknown_move", given=kind)
        wanted = {"play": {"card"}, "prepend": {"card"}, "vote": {"accept"}}.get(kind, set())
        if set(move) - {"type"} != wanted:
            if wanted:
                return reason("move_takes_field", type=kind, field=min(wanted))
            return reason("move_takes_nothing", type=kind)
        if kind == "vote" and type(move["accept"]) is not bool:
            return reason("vote_accept_bool")
        if s.over:
            return reason("match_over")
        if s.rover:
            return reason("round_over")
        ch = s.challenge
        if kind == "vote":
            if ch is None:
                return reason("no_challenge_to_vote")
            return reason("already_voted")
        if ch is not None:
            return reason("vote_in_progress", seats=self.awaiting(s))
        if kind == "challenge":
            if not s.chal:
                return reason("challenges_off")
            if s.last is None:
                return reason("nothing_to_challenge")
            return reason("own_card_challenge")
        if seat != s.turn:
            return reason("not_your_turn_to_play", seat=s.turn)
        hand = s.hands[seat]
        fitting = [m["card"] for m in self._legal(s, seat) if m["type"] in ("play", "prepend")]
        if kind in ("draw", "pass"):
            if fitting:
                return reason("must_play_fitting", card=fitting[0])
            if kind == "draw":
                return reason("stack_empty_pass")
            return reason("pass_only_when_stack_empty")
        card = move["card"]
        if not isinstance(card, str) or card not in W.CLASS_OF:
            return reason("no_such_card", given=card)
        if card not in hand:
            return reason("not_held", given=card)
        if kind == "play":
            return W.refusal(s.sentence, card, s.prepended) or reason("cannot_play_now")
        if W.CLASS_OF[card] != W.PREPEND_CLASS:
            return reason("prepend_not_adjective", card=card)
        if not s.sentence:
            return reason("prepend_no_sentence")
        if s.prepended:
            return reason("prepend_used")
        if seat == s.starter:
            return reason("prepend_own_sentence")
        return reason("prepend_dead_end", card=card, first=s.sentence[0])

    def refusals(self, state: GulliverState, seat: int) -> dict[str, list[Reason]]:
        """Why each card in ``seat``'s hand may not be laid now (``Engine.refusals``): the
        grammar referee's reason for playing it, and for an adjective the reason it may not go
        in front either."""
        s = state
        if s.over or s.rover or type(seat) is not int or not 0 <= seat < s.n:
            return {}
        if s.challenge is not None:
            if s.challenge[4][seat] is not None:
                return {}
            return {card: [reason("vote_first")] for card in s.hands[seat]}
        if seat != s.turn:
            return {}
        fits = {m.get("card") for m in self._legal(s, seat)}
        reasons: dict[str, list[Reason]] = {}
        for card in dict.fromkeys(s.hands[seat]):
            if card in fits:
                continue
            tried = [{"type": "play", "card": card}]
            if W.CLASS_OF[card] == W.PREPEND_CLASS and s.sentence:
                tried.append({"type": "prepend", "card": card})
            said: list[Reason] = []
            for move in tried:
                why = self.explain(s, seat, move)
                if why is not None and why not in said:
                    said.append(why)
            reasons[card] = said
        return reasons

    # ------------------------------------------------------------ seeing

    def view(self, state: GulliverState, seat: int | None) -> dict[str, Any]:
        s = state
        if seat is not None:
            check_seat(s.n, seat)
        hand = list(s.hands[seat]) if seat is not None else []
        playable: list[str] = []
        prependable: list[str] = []
        if seat is not None:
            table = W.end_table(s.dfa, not s.sentence)
            playable = [c for c in dict.fromkeys(hand) if c in table]
            if W.may_prepend(s.pdfa, seat, s.starter):
                prependable = [c for c in dict.fromkeys(hand) if c in W.ADJECTIVES]
        out: dict[str, Any] = {
            "game": self.name,
            "num_players": s.n,
            "seat": seat,
            "hand": hand,
            "hand_counts": [len(h) for h in s.hands],
            "awaiting": self.awaiting(s),
            "legal_moves": self.legal_moves(s, seat) if seat is not None else [],
            "events": self.redact(s.events, seat),
            "over": s.over,
            "outcome": self.outcome(s) if s.over else None,
            "sentence": list(s.sentence),
            "prepended": s.prepended,
            "complete": bool(s.sentence) and W.ACCEPTING[s.dfa],
            "starter": s.starter,
            "turn": s.turn,
            "stack_count": len(s.stack) - s.sp,
            "tricks": list(s.tricks),
            "taken": [{"seat": w, "cards": list(c)} for w, c in s.taken],
            "scores": [
                {"plus": p, "minus": m, "standing": p - m}
                for p, m in zip(s.plus, s.minus, strict=True)
            ],
            "round": s.rnd,
            "round_over": s.rover,
            "dealer": s.dealer,
            "target": s.target,
            "challenges": s.chal,
            "challenge": _challenge_dict(s.challenge),
            "last_play": _last_dict(s.last),
            "passes": s.passes,
            "out": s.out,
            "revealed": [list(r) for r in s.revealed],
            "playable": playable,
            "prependable": prependable,
        }
        if s.over:
            out["hands"] = [list(h) for h in s.hands]
        return out

    # ------------------------------------------------------------ storing

    def dump(self, state: GulliverState) -> dict[str, Any]:
        s = state
        return {
            "game": self.name,
            "rules_version": self.rules_version,
            "num_players": s.n,
            "seed": s.seed,
            "target": s.target,
            "challenges": s.chal,
            "round": s.rnd,
            "dealer": s.dealer,
            "hands": [list(h) for h in s.hands],
            "stack": list(s.stack[s.sp :]),
            "sentence": list(s.sentence),
            "prepended": s.prepended,
            "starter": s.starter,
            "turn": s.turn,
            "passes": s.passes,
            "out": s.out,
            "tricks": list(s.tricks),
            "taken": [{"seat": w, "cards": list(c)} for w, c in s.taken],
            "plus": list(s.plus),
            "minus": list(s.minus),
            "round_over": s.rover,
            "over": s.over,
            "winners": list(s.winners),
            "draw": s.draw,
            "challenge": _challenge_dict(s.challenge),
            "last": _last_dict(s.last),
            "revealed": [list(r) for r in s.revealed],
        }

    def load(self, data: dict[str, Any]) -> GulliverState:
        if data.get("game", self.name) != self.name:
            raise ValueError(f"Not a Gulliver state: {data.get('game')!r}.")
        if data.get("rules_version") != self.rules_version:
            raise ValueError(
                f"State has rules_version {data.get('rules_version')!r};"
                f" this engine plays version {self.rules_version}."
            )
        s = _public_state(data, last=data["last"])
        s.seed = data["seed"]
        s.hands = tuple(tuple(h) for h in data["hands"])
        s.stack = tuple(data["stack"])
        s.plus = tuple(data["plus"])
        s.minus = tuple(data["minus"])
        s.winners = tuple(data["winners"])
        s.draw = data["draw"]
        return s

    # ------------------------------------------------------------ for the bots

    def sample_state(self, view: dict[str, Any], rng: random.Random) -> GulliverState:
        """A full state consistent with ``view``: the cards that seat cannot see (other hands,
        the stack order) are dealt at random from those it has not seen; future shuffles come
        from a seed drawn from ``rng``."""
        n = view["num_players"]
        seat = view["seat"]
        s = _public_state(view, last=view["last_play"])
        s.seed = rng.getrandbits(64)
        s.plus = tuple(x["plus"] for x in view["scores"])
        s.minus = tuple(x["minus"] for x in view["scores"])
        outcome = view["outcome"] or {"winners": [], "draw": False}
        s.winners = tuple(outcome["winners"])
        s.draw = outcome["draw"]

        counts = view["hand_counts"]
        unseen = list(W.pack_for(n))
        seen = list(s.sentence) + [c for _, cards in s.taken for c in cards]
        if "hands" in view:
            hands = [list(h) for h in view["hands"]]
        else:
            hands = [list(view["hand"] if i == seat else s.revealed[i]) for i in range(n)]
        for h in hands:
            seen.extend(h)
        for c in seen:
            unseen.remove(c)
        rng.shuffle(unseen)
        for i in range(n):
            need = counts[i] - len(hands[i])
            hands[i].extend(unseen[:need])
            del unseen[:need]
        if len(unseen) != view["stack_count"]:
            raise ValueError("The view does not add up to a whole pack.")
        s.hands = tuple(tuple(h) for h in hands)
        s.stack = tuple(unseen)
        return s


ENGINE = GulliverEngine()

"""What both rule engines share: the error type, seeded shuffles, hashing, event redaction.

The contract every engine keeps is ``docs/engine-contract.md``; the rules themselves are
``docs/rulings.md``. Nothing here (or anywhere under ``games/engines``) may import Django,
Celery, a database driver, read a clock or use the global ``random`` module: engines are pure
functions of their arguments, so a match replays exactly from its seed and move log.
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

JSON = Any
Move = dict[str, Any]


# The seed of every lesson's game (``Engine.new_game_from_pack``): a string, where a match's
# seed is always a whole number, so no lesson's game can be taken for a match's.
LESSON_SEED = "lesson"


# Why a move is refused, language-free (docs/engine-contract.md, "Reasons"): a JSON-able dict
# ``{"code": ..., **facts}``. The code is stable, one per distinct refusal; the facts are what
# its words need (card codes, seat numbers, a forged value as ``given``). The site words it in
# the reader's language (``games.presentation.reasons``); an engine never words anything.
Reason = dict[str, Any]

# The reasons every engine may give: through this module's helpers, or ``not_offered`` (the
# move is none of those on offer: a game may say no more).
BASE_REASON_CODES = frozenset({"no_seat", "no_votes", "no_rounds", "not_offered"})


def reason(code: str, **facts: Any) -> Reason:
    """A refusal's reason: its ``code`` and the ``facts`` its words need."""
    return {"code": code, **facts}


class IllegalMove(Exception):
    """A move that is not one of ``legal_moves(state, seat)``. ``reason`` says why, language-free
    (``Reason``); the message is that reason as JSON, for logs and records, never for a player."""

    def __init__(self, why: Reason) -> None:
        super().__init__(json.dumps(why, sort_keys=True, ensure_ascii=False, default=repr))
        self.reason = why


def seeded_rng(seed: int | str, *salt: object) -> random.Random:
    """A private RNG for one shuffle. String seeds hash with SHA-512, so this is stable across
    processes and Python runs (unlike ``hash()``); ``salt`` separates e.g. reshuffle 1 from 2."""
    key = "|".join([str(seed), *(str(s) for s in salt)])
    return random.Random(key)


def shuffled(items: Iterable[str], seed: int | str, *salt: object) -> list[str]:
    """A new list with ``items`` in the order the seed (and salt) decree."""
    out = list(items)
    seeded_rng(seed, *salt).shuffle(out)
    return out


def canonical_json(data: JSON) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def same_json(a: object, b: object) -> bool:
    """``a == b`` as JSON sees it: Python's ``False == 0`` and ``1 == 1.0`` are not equal here,
    so a move spelled with the wrong types never passes for a legal one."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)  # type: ignore[attr-defined,index]
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same_json, a, b))  # type: ignore[arg-type]
    return a == b


def digest(data: JSON) -> str:
    """Stable SHA-256 hex digest of a JSON-able value."""
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


# An event may carry ``"private": [field, ...]``: those fields are seen only by the event's own
# seat (``event["seat"]``); everyone else gets ``None`` in their copy. The marker itself is kept
# in ``events(state)`` (what the server stores with the move) and dropped by redaction.
PRIVATE = "private"


def copy_json(value: JSON) -> JSON:
    """A copy of a JSON-shaped value (dicts, lists, scalars) that shares nothing mutable with it;
    much cheaper than ``copy.deepcopy`` for the small event dicts engines hand out."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [copy_json(v) for v in value]
    return value


def redact_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``event`` as ``seat`` (``None``: a spectator) may see it. May return ``event`` itself
    when nothing in it is private; :meth:`Engine.redact` hands out copies."""
    hidden = event.get(PRIVATE)
    if not hidden:
        return event
    out = {k: v for k, v in event.items() if k != PRIVATE}
    if seat is None or seat != event.get("seat"):
        for field in hidden:
            if field in out:
                out[field] = None
    return out


def redact_events(events: Sequence[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    return [redact_event(e, seat) for e in events]


def check_seat(num_players: int, seat: object) -> None:
    if type(seat) is not int or not 0 <= seat < num_players:
        raise IllegalMove(reason("no_seat", given=seat))


def match_legal(legal: Sequence[Move], move: object, why: Reason) -> Move:
    """Return ``move`` if it equals one of ``legal``; otherwise raise ``IllegalMove(why)``."""
    if isinstance(move, dict):
        for candidate in legal:
            if candidate == move:
                return candidate
    raise IllegalMove(why)


@dataclass(frozen=True)
class Option:
    """One option a table's creator may set for a game (``new_game``'s ``options[name]``), as
    the new-match form offers it: a whole number within bounds, or a yes/no. An int left empty
    is not passed (the engine's default holds); a bool is always passed."""

    name: str
    label: str
    kind: Literal["int", "bool"]
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None


class Engine(ABC):
    """The contract in ``docs/engine-contract.md``. Subclasses hold no per-match data.

    A state carries only the events of the step (``new_game``, ``apply`` or ``next_round``)
    that made it; the server keeps each step's events with its move, so neither ``dump`` nor a
    view grows with the length of the match.
    """

    name: str
    title: str  # the game's display name
    short_title: str = ""  # a short name for tight places ("Faraway rules"); the title if ""
    min_players: int
    max_players: int
    rules_version: int
    # Whether a match deals several rounds: the server then calls ``next_round`` whenever
    # ``round_over`` (a worker deals; the sweep finds a round left undealt).
    has_rounds: bool = False
    # One line on the home page: what the game is about.
    summary: str = ""
    # What a seat's final score (``outcome``'s ``scores``) counts, for pages that show scores
    # (a profile's average score): one phrase, read beside the figure.
    score_help: str = ""
    # What a table's creator may choose (the new-match form offers these, per game).
    options: tuple[Option, ...] = ()
    # Options that fix hidden cards (a stacked pack, for tests and studies): a record of a
    # running match withholds them with the seed (docs/records.md).
    secret_options: frozenset[str] = frozenset({"deck"})
    # The game's own table phrases as (key, words), said after the six every game shares
    # (``games.phrases``); keys distinct from those. Words only: no hidden information.
    table_phrases: tuple[tuple[str, str], ...] = ()
    # Every reason code ``explain``, ``refusals`` and ``IllegalMove`` may give (docs/
    # engine-contract.md, "Reasons"): the site words each one.
    reason_codes: frozenset[str] = BASE_REASON_CODES

    @abstractmethod
    def new_game(self, num_players: int, seed: int, options: dict | None = None) -> Any: ...

    @abstractmethod
    def awaiting(self, state: Any) -> list[int]: ...

    @abstractmethod
    def legal_moves(self, state: Any, seat: int) -> list[Move]: ...

    @abstractmethod
    def apply(self, state: Any, seat: int, move: Move) -> Any: ...

    @abstractmethod
    def explain(self, state: Any, seat: int, move: object) -> Reason | None:
        """Why ``seat`` may not make ``move`` now, as a language-free ``Reason``; ``None`` when
        it may. ``apply`` raises ``IllegalMove`` with exactly this reason."""

    def refusals(self, state: Any, seat: int) -> dict[str, list[Reason]]:
        """Why each thing ``seat`` may click on its table offers no move now, as the reasons
        ``explain`` gives (distinct, in order): keyed by a card code in its hand, ``"pack"``,
        or ``"discard:<i>"`` (the ``i``-th of the discards its view shows). Only while
        ``seat`` is awaited for a move of its turn (the table words "not your turn" itself);
        only facts its ``view`` shows. A game without such reasons keeps this default, ``{}``."""
        return {}

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def events(self, state: Any) -> list[dict[str, Any]]:
        """A copy of the events of the step that made ``state``, unredacted (the ``private``
        markers kept); ``[]`` for a state from ``load`` or ``sample_state``."""

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def outcome(self, state: Any) -> dict[str, Any]: ...

    @abstractmethod
    def dump(self, state: Any) -> dict[str, Any]: ...

    @abstractmethod
    def load(self, data: dict[str, Any]) -> Any: ...

    @abstractmethod
    def sample_state(self, view: dict[str, Any], rng: random.Random) -> Any:
        """A full state consistent with everything ``view`` shows, the cards its seat cannot
        see dealt at random by ``rng`` (a determinization, for the bots' search)."""

    # Lessons (issue 34, docs/lessons.md): a lesson deals a pack order it chose. Only the
    # lessons' runner (games/lessons/base.py) calls these; the match services never do, and a
    # lesson's seed is a string, never a match's whole-number seed.

    def lesson_pack(self, num_players: int) -> tuple[str, ...]:
        """Every card a table of ``num_players`` is dealt from, in the pack's printed order:
        a lesson names its hands and the cards after them, and the rest follow in this order."""
        raise NotImplementedError(f"{self.title} has no lessons.")

    def new_game_from_pack(
        self, num_players: int, pack: Sequence[str], options: dict | None = None
    ) -> Any:
        """A lesson's game: ``pack`` dealt in the order given (the whole pack, its first card
        dealt first), reshuffles from the fixed seed ``LESSON_SEED``. For lessons only: the
        match services deal with ``new_game`` from the match's own seed and never call this.
        ``options`` may not hold a ``deck`` of its own (``ValueError``)."""
        options = dict(options or {})
        if "deck" in options:
            raise ValueError("A lesson's pack order is the pack argument, not a 'deck' option.")
        return self.new_game(num_players, LESSON_SEED, {**options, "deck": list(pack)})

    def round_over(self, state: Any) -> bool:
        """True while the match waits for the server's seatless ``next_round`` step."""
        return False

    # A vote (docs/engine-contract.md, "Votes"): a game may ask seats for ballots (Gulliver's
    # challenge). The server asks these three, never the moves' own words: a vote's deadline
    # runs from the move that opened it and closes it with the silent seats' ballots, and bots
    # hold back for a window after a person's move that can be disputed. A game without votes
    # keeps these defaults.

    def vote_open(self, state: Any, seat: int) -> bool:
        """Whether ``seat`` is awaited for a ballot in ``state`` (rather than for a move)."""
        return False

    def silent_ballot(self, state: Any, seat: int) -> Move:
        """The ballot a deadline casts for ``seat`` when the vote it is awaited for runs out;
        asked only while ``vote_open(state, seat)``, and one of ``legal_moves(state, seat)``."""
        raise IllegalMove(reason("no_votes", title=self.title))

    def move_disputable(self, state: Any, move: Move) -> bool:
        """Whether ``move``, made in ``state`` (the position before it), may open a vote that
        other seats decide: bots then wait a short window before answering a person's move."""
        return False

    def next_round(self, state: Any) -> Any:
        raise IllegalMove(reason("no_rounds", title=self.title))

    def redact(self, events: Sequence[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
        """``events`` as ``seat`` (``None``: a spectator) may see them: fresh copies, each
        private field of another seat's event set to ``None`` and the markers dropped. The one
        redaction function, for views and for stored history alike."""
        return copy_json(redact_events(events, seat))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("short_title") and "title" in cls.__dict__:
            cls.short_title = cls.title

    def state_hash(self, state: Any) -> str:
        return digest(self.dump(state))

    def check_players(self, num_players: object) -> int:
        if type(num_players) is not int or not (
            self.min_players <= num_players <= self.max_players
        ):
            raise ValueError(
                f"{self.name} is for {self.min_players} to {self.max_players} players,"
                f" not {num_players!r}."
            )
        return num_players

"""A match's replay: the table as it stood after any entry of its log, and the log in words.

A frame is rebuilt with the one replay fold (``games.engines.replay.step``) from the nearest
checkpoint at or before it (``Move.checkpoint``, every ``Move.CHECKPOINT_EVERY`` plies), so it
costs one query and at most ``CHECKPOINT_EVERY - 1`` engine steps at any ply of any match.

Who sees what is a *perspective*: a seat ("as Ann saw it": that seat's ``engine.view`` at that
moment, its log redacted for it), ``public`` (a spectator's view) or ``all`` (every hand shown,
the log unredacted). While a match runs a participant may replay it only as their own seat
(or as the public saw it) and anyone else only publicly; ``all`` and every seat open up once it
is over (``replay_perspectives``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engines import get_engine, replay
from games.engines.base import PRIVATE
from games.models import Match, Move, Seat
from games.presentation import LogEntry, log_lines, table_build
from games.selectors.table import seat_names

ALL = "all"
PUBLIC = "public"


@dataclass(frozen=True)
class Perspective:
    """Whose eyes a replay looks through: ``key`` goes in the URL (``?as=``)."""

    key: str
    label: str
    seat: int | None = None  # the seat whose view it is; None for ``all`` and ``public``


@dataclass
class ReplayEntry:
    """One logged entry in words, for the move list: ``text`` its lines, ``query`` the query
    string of its frame (finished here: a long list renders fast)."""

    ply: int
    seat: int | None
    who: str
    lines: list[str]
    query: str = ""
    mark: Any = None  # the post-game analysis' judgement of this move, once there is one

    @property
    def text(self) -> str:
        return " ".join(self.lines)


@dataclass
class ReplayTurn:
    """Consecutive entries by one seat (a Faraway draw and the card laid after it)."""

    who: str
    entries: list[ReplayEntry] = field(default_factory=list)

    @property
    def first_ply(self) -> int:
        return self.entries[0].ply


@dataclass
class ReplayRound:
    number: int
    first_ply: int  # the entry that dealt it (0 for the first round: the start of the match)
    turns: list[ReplayTurn] = field(default_factory=list)


@dataclass
class ReplayFrame:
    ply: int
    last_ply: int
    perspective: Perspective
    view: dict[str, Any]
    table: dict[str, Any]
    lines: list[str]  # the events of entry ``ply`` in words (the deal's at ply 0)
    who: str  # who made entry ``ply`` ("" for the deal or a server entry)
    hands: list[dict[str, Any]]  # perspective ``all``: every seat's hand
    round: int | None
    hand_title: str  # the hand shown under the board ("Ann's hand"), "" when none is

    @property
    def at_start(self) -> bool:
        return self.ply == 0

    @property
    def at_end(self) -> bool:
        return self.ply >= self.last_ply

    @property
    def prev_ply(self) -> int:
        return max(self.ply - 1, 0)

    @property
    def next_ply(self) -> int:
        return min(self.ply + 1, self.last_ply)


def replay_perspectives(
    *, match: Match, seats: Sequence[Seat], viewer: Seat | None
) -> list[Perspective]:
    """The perspectives this viewer may choose, the default first."""
    names = seat_names(match, seats)
    public = Perspective(PUBLIC, "As a spectator saw it")
    as_seat = [Perspective(str(i), f"As {name} saw it", i) for i, name in enumerate(names)]
    if match.status == Match.Status.FINISHED:
        return [Perspective(ALL, "All hands shown"), *as_seat, public]
    if viewer is not None:
        return [as_seat[viewer.index], public]
    return [public]


def replay_frame(
    *, match: Match, seats: Sequence[Seat], ply: int, perspective: Perspective
) -> ReplayFrame:
    """The table after entry ``ply`` (0: the deal) through ``perspective``, read-only.

    One query: the checkpoint row at or before ``ply`` and the few rows after it.
    """
    engine = get_engine(match.game)
    base = ply - ply % Move.CHECKPOINT_EVERY
    rows = list(
        Move.objects.filter(match_id=match.pk, ply__gte=max(base, 1), ply__lte=ply)
        .order_by("ply")
        .values_list("ply", "seat", "payload", "events", "auto", "checkpoint")
    )
    if len(rows) != ply - max(base, 1) + 1:
        raise ValueError(f"Match {match.pk} has no entry {ply}.")
    if base > 0:
        state = engine.load(rows[0][5])
        to_fold = rows[1:]
    else:
        state = engine.new_game(match.num_players, match.seed, match.options)
        to_fold = rows
    for _, seat, payload, *_ in to_fold:
        state = replay.step(engine, state, seat, payload)
    names = seat_names(match, seats)
    if ply == 0:
        mover, logged, auto = None, match.start_events, ""
    else:
        _, mover, _, logged, auto, _ = rows[-1]
    entry = LogEntry(seat=mover, events=_seen(engine, logged, perspective), auto=auto)
    view = engine.view(state, perspective.seat)
    # A state loaded from a checkpoint has no events: the view gets the entry's, as logged.
    view["events"] = engine.redact(logged, perspective.seat)
    table = table_build(match.game, view=view, names=names, log=[entry], interactive=False)
    for player in table["players"]:  # a replay has no "you": it names every seat
        player["label"] = player["name"]
    hands = []
    if perspective.key == ALL:
        for index, name in enumerate(names):
            own = table_build(
                match.game, view=engine.view(state, index), names=names, log=[], interactive=False
            )
            hands.append({"index": index, "name": name, "faces": [s.face for s in own["hand"]]})
    return ReplayFrame(
        ply=ply,
        last_ply=match.ply,
        perspective=perspective,
        view=view,
        table=table,
        lines=log_lines(match.game, [entry], names),
        who="" if entry.seat is None else names[entry.seat],
        hands=hands,
        round=view.get("round"),
        hand_title="" if perspective.seat is None else f"{names[perspective.seat]}\u2019s hand",
    )


def replay_rounds(
    *, match: Match, seats: Sequence[Seat], perspective: Perspective
) -> list[ReplayRound]:
    """The whole log in words for ``perspective``, by round (one for The Faraway Tree) and by
    turn: one query over the match's entries."""
    engine = get_engine(match.game)
    names = seat_names(match, seats)
    rows = (
        Move.objects.filter(match_id=match.pk)
        .order_by("ply")
        .values_list("ply", "seat", "events", "auto")
    )
    deal = LogEntry(seat=None, events=_seen(engine, match.start_events, perspective))
    first = _entry(match, 0, deal, names, perspective)
    rounds = [ReplayRound(1, 0, [ReplayTurn("The deal", [first])])]
    for ply, seat, events, auto in rows.iterator():
        entry = LogEntry(seat=seat, events=_seen(engine, events, perspective), auto=auto)
        words = _entry(match, ply, entry, names, perspective)
        if seat is None:  # the server deals the next round
            rounds.append(ReplayRound(len(rounds) + 1, ply, [ReplayTurn("The deal", [words])]))
            continue
        turns = rounds[-1].turns
        if turns[-1].entries[-1].seat != seat:
            turns.append(ReplayTurn(words.who))
        turns[-1].entries.append(words)
    return rounds


def _entry(
    match: Match, ply: int, entry: LogEntry, names: list[str], perspective: Perspective
) -> ReplayEntry:
    who = "" if entry.seat is None else names[entry.seat]
    lines = log_lines(match.game, [entry], names)
    return ReplayEntry(ply, entry.seat, who, lines, f"?ply={ply}&as={perspective.key}")


def _seen(engine: Any, events: list[dict[str, Any]], perspective: Perspective) -> list[dict]:
    """``events`` as the perspective may see them: redacted for its seat (or for a spectator),
    or, with every hand shown, whole (the markers dropped)."""
    if perspective.key == ALL:
        return [{k: v for k, v in event.items() if k != PRIVATE} for event in events]
    return engine.redact(events, perspective.seat)

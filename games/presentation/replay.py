"""The replay in words: the perspectives' labels, a frame's table, lines and hands, and the
move list by round and turn (docs/replays.md). From ``games.selectors.replay``'s data only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from games.logs import LogEntry
from games.presentation import hand_faces, log_lines, table_build
from games.presentation.names import seat_names
from games.presentation.phrases import phrase_line

if TYPE_CHECKING:
    from games.selectors.phrases import SaidPhrase
    from games.selectors.replay import Perspective, ReplayData

ALL = "all"
PUBLIC = "public"


@dataclass(frozen=True)
class PerspectiveChoice:
    """A perspective with its label ("As Ann saw it"); ``key`` goes in the URL (``?as=``)."""

    key: str
    label: str
    seat: int | None = None


def perspective_choices(
    perspectives: Sequence[Perspective], names: list[str]
) -> list[PerspectiveChoice]:
    return [PerspectiveChoice(p.key, perspective_label(p, names), p.seat) for p in perspectives]


def perspective_label(perspective: Perspective, names: list[str]) -> str:
    if perspective.key == ALL:
        return _("All hands shown")
    if perspective.seat is None:
        return _("As a spectator saw it")
    return _("As %(name)s saw it") % {"name": names[perspective.seat]}


@dataclass
class ReplayEntry:
    """One logged entry in words, for the move list: ``text`` its lines, ``query`` the query
    string of its frame (finished here: a long list renders fast)."""

    ply: int
    seat: int | None
    who: str
    lines: list[str]
    query: str = ""
    move: int | None = None  # its number among the players' moves; None for a deal
    mark: Any = None  # the post-game analysis' judgement of this move, once there is one
    said: list[str] = field(default_factory=list)  # table phrases said after it, in words

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


@dataclass(frozen=True)
class ReplayHand:
    index: int
    name: str
    faces: list[dict[str, Any]]


@dataclass
class ReplayFrame:
    ply: int  # the log entry shown (the URL's ``?ply=``): moves and deals alike
    last_ply: int
    move: int  # the players' moves made by then (deals are not moves: docs/replays.md)
    moves: int  # the players' moves of the whole match so far, as history counts them
    is_deal: bool  # entry ``ply`` is a deal (the first, or a later round's)
    perspective: PerspectiveChoice
    view: dict[str, Any]
    table: dict[str, Any]
    lines: list[str]  # the events of entry ``ply`` in words (the deal's at ply 0)
    who: str  # who made entry ``ply`` ("" for the deal or a server entry)
    hands: list[ReplayHand]  # perspective ``all``: every seat's hand, from its own view
    round: int | None
    hand_title: str  # the hand shown under the board ("Ann's hand"), "" when none is

    @property
    def at_start(self) -> bool:
        return self.ply == 0

    @property
    def title(self) -> str:
        """What entry ``ply`` is: "The deal", "The deal of round 3", "Move 57: ann"."""
        if self.ply == 0 or (self.is_deal and not self.round):
            return _("The deal")
        if self.is_deal:
            return _("The deal of round %(round)s") % {"round": self.round}
        if self.who:
            return _("Move %(move)s: %(name)s") % {"move": self.move, "name": self.who}
        return _("Move %(move)s") % {"move": self.move}

    @property
    def position(self) -> str:
        """Where the frame stands, counted in moves as history counts them: "Move 57 of 180
        · round 3", "The deal of round 3, after move 56 of 180", "The deal, before move 1
        of 180"."""
        counts = {"move": self.move, "moves": self.moves, "round": self.round}
        if self.ply == 0:
            if not self.moves:
                return _("The deal, no moves yet")
            return _("The deal, before move 1 of %(moves)s") % counts
        if self.is_deal:
            return _("%(title)s, after move %(move)s of %(moves)s") % {
                **counts,
                "title": self.title,
            }
        if self.round:
            return _("Move %(move)s of %(moves)s \u00b7 round %(round)s") % counts
        return _("Move %(move)s of %(moves)s") % counts

    @property
    def at_end(self) -> bool:
        return self.ply >= self.last_ply

    @property
    def prev_ply(self) -> int:
        return max(self.ply - 1, 0)

    @property
    def next_ply(self) -> int:
        return min(self.ply + 1, self.last_ply)


def replay_frame_words(data: ReplayData) -> ReplayFrame:
    """A frame (``games.selectors.replay.replay_frame``) as the replay page shows it: the
    table read-only, naming every seat (a replay has no "you")."""
    game = data.match.game
    names = seat_names(data.match.num_players, data.seats)
    table = table_build(game, view=data.view, names=names, log=[data.entry], interactive=False)
    for player in table["players"]:
        player["label"] = player["name"]
    seat = data.perspective.seat
    # At the last move the board itself shows what every seat held at the end ("Held at the
    # end", "Cards held at the end"): the "Every hand" section would show each hand twice.
    on_the_board = all(player.get("final_hand") is not None for player in table["players"])
    return ReplayFrame(
        ply=data.ply,
        last_ply=data.match.ply,
        move=data.move,
        moves=data.match.moves,
        is_deal=data.entry.seat is None,
        perspective=PerspectiveChoice(
            data.perspective.key, perspective_label(data.perspective, names), seat
        ),
        view=data.view,
        table=table,
        lines=log_lines(game, [data.entry], names),
        who="" if data.entry.seat is None else names[data.entry.seat],
        hands=[]
        if on_the_board
        else [
            ReplayHand(index, names[index], hand_faces(game, view))
            for index, view in enumerate(data.seat_views)
        ],
        round=data.view.get("round"),
        hand_title="" if seat is None else _("%(name)s\u2019s hand") % {"name": names[seat]},
    )


def replay_rounds(
    *,
    game: str,
    names: list[str],
    perspective: Perspective,
    log: Iterable[tuple[int, LogEntry]],
    phrases: Sequence[SaidPhrase] = (),
) -> list[ReplayRound]:
    """The whole log (``games.selectors.replay.replay_log``) in words, by round (a new one at
    each seatless deal after the first) and by turn, each move numbered among the players'
    moves (deals are not numbered: they are no one's move); each of ``phrases`` (the table
    phrases the viewer may see, docs/phrases.md) after the entry of the ply it was said at."""
    said: dict[int, list[str]] = {}
    for phrase in phrases:
        said.setdefault(phrase.ply, []).append(phrase_line(game, phrase, names))
    rounds: list[ReplayRound] = []
    moves = 0  # each entry but a deal is a move (``games.selectors.facts.moves_made``)
    for ply, entry in log:
        who = "" if entry.seat is None else names[entry.seat]
        lines = log_lines(game, [entry], names)
        words = ReplayEntry(ply, entry.seat, who, lines, f"?ply={ply}&as={perspective.key}")
        words.said = said.get(ply, [])
        if entry.seat is not None:
            moves += 1
            words.move = moves
        if entry.seat is None:  # the deal, and the server dealing each next round
            rounds.append(ReplayRound(len(rounds) + 1, ply, [ReplayTurn(_("The deal"), [words])]))
            continue
        turns = rounds[-1].turns
        if turns[-1].entries[-1].seat != entry.seat:
            turns.append(ReplayTurn(who))
        turns[-1].entries.append(words)
    return rounds

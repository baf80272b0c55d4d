"""The Faraway Tree's lessons (docs/lessons.md): each a deal, the learner's steps and the
other seat's replies, played through the real engine by ``games.lessons.base``."""

from __future__ import annotations

from .base import Lesson, Step, gettext_noop


def _draw(position: int | None = None) -> dict:
    if position is None:
        return {"type": "draw", "source": "pack"}
    return {"type": "draw", "source": "discard", "positions": [position]}


def _play(card: str) -> dict:
    return {"type": "play", "card": card}


def _discard(card: str) -> dict:
    return {"type": "discard", "card": card}


def _penalty(card: str) -> dict:
    return {"type": "penalty", "card": card}


DRAW = Lesson(
    game="faraway",
    slug="draw",
    title=gettext_noop("Draw a card"),
    hands=(("3", "4", "5", "6", "7", "8"), ("3", "4", "5", "6", "7", "P5")),
    then=("2", "1", "9"),
    script=((1, _draw()), (1, _discard("9"))),
    target=5,
    steps=(
        Step(
            say=gettext_noop(
                "Every turn starts with a draw. The last card face up always stays there,"
                " so take the top card of the pack."
            ),
            move=_draw(),
            done=gettext_noop("You drew a 1: the Enchanted Wood, where the climb begins."),
            shows=({"type": "draw", "seat": 0, "cards": ["1"]},),
            hint=gettext_noop("Take the top card of the pack."),
            wrong=_draw(0),
            clauses=("F3", "F4", "F11"),
        ),
        Step(
            say=gettext_noop("Lay your 1."),
            move=_play("1"),
            done=gettext_noop("Your climb has begun."),
            hint=gettext_noop("Lay the 1."),
            wrong=_play("3"),
            clauses=("F5",),
        ),
        Step(
            say=gettext_noop("End your turn by throwing one card away: the 8 is a long way off."),
            move=_discard("8"),
            done=gettext_noop("Now your opponent takes a turn."),
            hint=gettext_noop("Throw the 8 away."),
            wrong=_draw(),
            clauses=("F3",),
        ),
        Step(
            say=gettext_noop(
                "Three cards are face up now. You may take any of them instead of the pack:"
                " take the 2 at the bottom of the three."
            ),
            move=_draw(2),
            done=gettext_noop("The 2 is yours."),
            hint=gettext_noop("Take the 2 from the face-up cards."),
            wrong=_play("3"),
            clauses=("F4",),
        ),
        Step(
            say=gettext_noop("Lay it."),
            move=_play("2"),
            done=gettext_noop(
                "Well done: you can draw from the pack or the top three face-up cards."
            ),
            hint=gettext_noop("Lay the 2."),
            wrong=_play("3"),
            clauses=("F5",),
        ),
    ),
)

CLIMB = Lesson(
    game="faraway",
    slug="climb",
    title=gettext_noop("Climb 1 to 9"),
    hands=(("1", "2", "3", "6", "7", "8"), ("4", "5", "6", "7", "P2", "P3")),
    then=("9", "4", "5", "5"),
    script=((1, _draw()), (1, _discard("7"))),
    target=5,
    steps=(
        Step(
            say=gettext_noop("Draw from the pack."),
            move=_draw(),
            done=gettext_noop("You drew a 4."),
            shows=({"type": "draw", "seat": 0, "cards": ["4"]},),
            hint=gettext_noop("Take the top card of the pack."),
            wrong=_play("1"),
            clauses=("F3",),
        ),
        Step(
            say=gettext_noop("Story cards go down in order, 1 first. Lay your 1."),
            move=_play("1"),
            done=gettext_noop("One card a turn: the 2 waits for your next turn."),
            hint=gettext_noop("Your row starts with a 1."),
            wrong=_play("2"),
            clauses=("F5",),
        ),
        Step(
            say=gettext_noop("Throw the 8 away to end your turn."),
            move=_discard("8"),
            done=gettext_noop("Your opponent's turn."),
            hint=gettext_noop("Throw the 8 away."),
            wrong=_play("2"),
            clauses=("F6",),
        ),
        Step(
            say=gettext_noop("Draw from the pack."),
            move=_draw(),
            done=gettext_noop("You drew a 5."),
            shows=({"type": "draw", "seat": 0, "cards": ["5"]},),
            hint=gettext_noop("Take the top card of the pack."),
            wrong=_play("2"),
            clauses=("F3",),
        ),
        Step(
            say=gettext_noop("Lay your next card."),
            move=_play("2"),
            done=gettext_noop("1, then 2: you climb one card a turn."),
            hint=gettext_noop("After the 1 comes the 2."),
            wrong=_play("3"),
            clauses=("F5",),
        ),
    ),
)

DEAD = Lesson(
    game="faraway",
    slug="dead-cards",
    title=gettext_noop("Cards you cannot use"),
    hands=(("1", "1", "2", "P4", "7", "8"), ("4", "5", "6", "7", "P2", "P3")),
    then=("9", "3", "5", "6"),
    script=((1, _draw()), (1, _discard("7"))),
    target=6,
    steps=(
        Step(
            say=gettext_noop("Draw from the pack."),
            move=_draw(),
            done=gettext_noop("You drew a 3."),
            shows=({"type": "draw", "seat": 0, "cards": ["3"]},),
            hint=gettext_noop("Take the top card of the pack."),
            wrong=_play("1"),
            clauses=("F3",),
        ),
        Step(
            say=gettext_noop("Lay a 1."),
            move=_play("1"),
            done=gettext_noop("Your other 1 is no use now: your row has one."),
            hint=gettext_noop("Lay a 1."),
            wrong=_play("2"),
            clauses=("F5",),
        ),
        Step(
            say=gettext_noop(
                "A card whose number is already in your row must be thrown away first."
            ),
            move=_discard("1"),
            done=gettext_noop("Gone."),
            hint=gettext_noop("Throw away the 1 you cannot use."),
            wrong=_discard("8"),
            clauses=("F8",),
        ),
        Step(
            say=gettext_noop("Draw from the pack."),
            move=_draw(),
            done=gettext_noop("You drew a 6."),
            shows=({"type": "draw", "seat": 0, "cards": ["6"]},),
            hint=gettext_noop("Take the top card of the pack."),
            wrong=_discard("P4"),
            clauses=("F3",),
        ),
        Step(
            say=gettext_noop("Lay your 2."),
            move=_play("2"),
            done=gettext_noop("Your row reads 1, 2."),
            hint=gettext_noop("Lay the 2."),
            wrong=_play("3"),
            clauses=("F5",),
        ),
        Step(
            say=gettext_noop(
                "A Penalty card is never dead: keep it, or throw it away when you like."
                " Throw away the P4 now."
            ),
            move=_discard("P4"),
            done=gettext_noop("Throw away what you cannot use, and keep what you can."),
            hint=gettext_noop("Throw the P4 away."),
            wrong=_play("3"),
            clauses=("F9",),
        ),
    ),
)

PENALTY = Lesson(
    game="faraway",
    slug="penalties",
    title=gettext_noop("Penalty cards"),
    hands=(("3", "4", "5", "6", "P2", "9"), ("1", "2", "7", "8", "P8", "P7")),
    then=("8", "7", "6", "5", "4", "3"),
    prelude=(
        (0, _draw()),
        (0, _discard("9")),
        (1, _draw()),
        (1, _play("1")),
        (1, _discard("P7")),
        (0, _draw()),
        (0, _discard("7")),
        (1, _draw()),
        (1, _play("2")),
        (1, _discard("8")),
    ),
    target=4,
    steps=(
        Step(
            say=gettext_noop("Your opponent has climbed to 2. Draw first."),
            kind="draw",
            done=gettext_noop("Now look at your P2."),
            hint=gettext_noop("Your turn starts with a draw."),
            wrong=_penalty("P2"),
            clauses=("F3",),
        ),
        Step(
            say=gettext_noop(
                "A Penalty goes on an opponent whose highest card has its number. Play your"
                " P2 on their 2."
            ),
            move=_penalty("P2"),
            done=gettext_noop("They must miss a turn."),
            shows=({"type": "penalty", "victim": 1, "turns": 1},),
            hint=gettext_noop("Play the P2."),
            wrong=_play("3"),
            clauses=("F12", "F13", "F15"),
        ),
        Step(
            say=gettext_noop("Throw a card away to end your turn."),
            kind="discard",
            done=gettext_noop("Your opponent misses that turn."),
            shows=({"type": "miss", "seat": 1, "turns_left": 0}, {"type": "aside", "seat": 1}),
            hint=gettext_noop("Throw one card away."),
            wrong=_play("3"),
            clauses=("F3",),
        ),
        Step(
            say=gettext_noop("It is your turn again. Draw."),
            kind="draw",
            done=gettext_noop(
                "After the missed turn the P2 is put aside. Penalties slow others down."
            ),
            hint=gettext_noop("Your turn starts with a draw."),
            wrong=_discard("3"),
            clauses=("F15",),
        ),
    ),
)

NEAREST = Lesson(
    game="faraway",
    slug="whom-penalties-hit",
    title=gettext_noop("Whom a Penalty hits"),
    hands=(
        ("3", "4", "5", "6", "P2", "9"),
        ("1", "2", "7", "8", "P8", "P7"),
        ("1", "2", "7", "8", "P6", "P5"),
    ),
    then=("9", "3", "4", "5", "6", "3", "4", "5"),
    prelude=(
        (0, _draw()),
        (0, _discard("9")),
        (1, _draw()),
        (1, _play("1")),
        (1, _discard("P7")),
        (2, _draw()),
        (2, _play("1")),
        (2, _discard("P5")),
        (0, _draw()),
        (0, _discard("6")),
        (1, _draw()),
        (1, _play("2")),
        (1, _discard("8")),
        (2, _draw()),
        (2, _play("2")),
        (2, _discard("8")),
    ),
    target=3,
    steps=(
        Step(
            say=gettext_noop(
                "Three players, and both of the others have climbed to 2. Draw first."
            ),
            kind="draw",
            done=gettext_noop("You still hold your P2."),
            hint=gettext_noop("Your turn starts with a draw."),
            wrong=_penalty("P2"),
            clauses=("F3",),
        ),
        Step(
            say=gettext_noop(
                "When two players fit, a Penalty goes on the nearest one to your left. You do"
                " not choose: play the P2 and the game places it."
            ),
            move=_penalty("P2"),
            done=gettext_noop("It went on the player to your left."),
            shows=({"type": "penalty", "victim": 1, "turns": 1},),
            hint=gettext_noop("Play the P2."),
            wrong=_play("3"),
            clauses=("F13", "F14"),
        ),
        Step(
            say=gettext_noop("Throw a card away to end your turn."),
            kind="discard",
            done=gettext_noop("The player on your left misses a turn."),
            shows=({"type": "miss", "seat": 1, "turns_left": 0},),
            hint=gettext_noop("Throw one card away."),
            wrong=_play("3"),
            clauses=("F15",),
        ),
    ),
)

# The climb lessons: the learner holds 1 to 6 and lays one a turn, throwing away each card
# drawn, so after six turns the hand is empty; the opponent only draws and throws away.
_JUNK = ("P2", "P3", "P4", "P5", "P6", "P7")
_OTHER_JUNK = ("2", "3", "4", "5", "6", "2", "3", "4")


def _climb(turns: int) -> tuple[tuple[int, dict], ...]:
    """The learner's first ``turns`` turns (at most 8) and the opponent's after each."""
    moves: list[tuple[int, dict]] = []
    drawn = [*_JUNK, "P8", "P8"]
    for turn in range(turns):
        if turn < 6:
            moves += [(0, _draw()), (0, _play(str(turn + 1))), (0, _discard(drawn[turn]))]
        else:  # an empty hand draws two: the next story card and a Penalty to throw away
            two = {"type": "draw", "source": "pack", "count": 2}
            moves += [(0, two), (0, _play(str(turn + 1))), (0, _discard(drawn[turn]))]
        moves += [(1, _draw()), (1, _discard(_OTHER_JUNK[turn]))]
    return tuple(moves)


def _climb_pack() -> tuple[str, ...]:
    """The turned-up card, then the pack from the top, as ``_climb`` draws it."""
    cards = ["1"]
    for turn in range(6):
        cards += [_JUNK[turn], _OTHER_JUNK[turn]]
    cards += ["7", "P8", _OTHER_JUNK[6], "8", "P8", _OTHER_JUNK[7], "9", "2"]
    return tuple(cards)


_TWO = {"type": "draw", "source": "pack", "count": 2}

EMPTY = Lesson(
    game="faraway",
    slug="empty-hand",
    title=gettext_noop("An empty hand"),
    hands=(("1", "2", "3", "4", "5", "6"), ("7", "7", "8", "8", "9", "9")),
    then=_climb_pack(),
    prelude=_climb(6),
    target=3,
    steps=(
        Step(
            say=gettext_noop(
                "You have climbed to 6 and your hand is empty. An empty hand draws two cards:"
                " the top two of the pack, or two of the top three face-up cards, never one of"
                " each. Take two from the pack."
            ),
            move=_TWO,
            done=gettext_noop("Two cards: a 7 and a P8."),
            shows=({"type": "draw", "seat": 0, "count": 2, "cards": ["7", "P8"]},),
            hint=gettext_noop("Your hand is empty: take two cards."),
            wrong=_draw(),
            clauses=("F7",),
        ),
        Step(
            say=gettext_noop("Lay the 7."),
            move=_play("7"),
            done=gettext_noop("Up to the Saucepan Man."),
            hint=gettext_noop("Lay the 7."),
            wrong=_discard("P8"),
            clauses=("F5",),
        ),
        Step(
            say=gettext_noop("Throw away your last card."),
            kind="discard",
            done=gettext_noop("Your hand is empty again, so next turn you draw two again."),
            hint=gettext_noop("Throw the P8 away."),
            wrong=_penalty("P8"),
            clauses=("F7",),
        ),
    ),
)

WIN = Lesson(
    game="faraway",
    slug="winning",
    title=gettext_noop("Winning"),
    hands=(("1", "2", "3", "4", "5", "6"), ("7", "7", "8", "8", "9", "9")),
    then=_climb_pack(),
    prelude=_climb(8),
    ends="won",
    target=2,
    steps=(
        Step(
            say=gettext_noop("Your row runs from 1 to 8. Draw your two cards."),
            move=_TWO,
            done=gettext_noop("A 9!"),
            hint=gettext_noop("Your hand is empty: take two cards from the pack."),
            wrong=_draw(),
            clauses=("F7",),
        ),
        Step(
            say=gettext_noop("Lay the 9, the Land of Birthdays, and you win at once."),
            move=_play("9"),
            done=gettext_noop("You have climbed the Faraway Tree: the first to lay a 9 wins."),
            shows=({"type": "win", "seat": 0},),
            hint=gettext_noop("Lay the 9."),
            wrong=_discard("9"),
            clauses=("F17",),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (DRAW, CLIMB, DEAD, EMPTY, PENALTY, NEAREST, WIN)

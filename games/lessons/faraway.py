"""The Faraway Tree's lessons (docs/lessons.md): each a deal, the learner's steps and the
other seat's replies, played through the real engine by ``games.lessons.base``."""

from __future__ import annotations

from .base import Lesson, Step


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
    title="Draw a card",
    hands=(("3", "4", "5", "6", "7", "8"), ("3", "4", "5", "6", "7", "P5")),
    then=("2", "1", "9"),
    script=((1, _draw()), (1, _discard("9"))),
    target=5,
    steps=(
        Step(
            say="Every turn starts with a draw. The last card face up always stays there,"
            " so take the top card of the pack.",
            move=_draw(),
            done="You drew a 1: the Enchanted Wood, where the climb begins.",
            hint="Take the top card of the pack.",
            wrong=_draw(0),
            clauses=("F3", "F4", "F11"),
        ),
        Step(
            say="Lay your 1.",
            move=_play("1"),
            done="Your climb has begun.",
            hint="Lay the 1.",
            wrong=_play("3"),
            clauses=("F5",),
        ),
        Step(
            say="End your turn by throwing one card away: the 8 is a long way off.",
            move=_discard("8"),
            done="Now your opponent takes a turn.",
            hint="Throw the 8 away.",
            wrong=_draw(),
            clauses=("F3",),
        ),
        Step(
            say="Three cards are face up now. You may take any of them instead of the pack:"
            " take the 2 at the bottom of the three.",
            move=_draw(2),
            done="The 2 is yours.",
            hint="Take the 2 from the face-up cards.",
            wrong=_play("2"),
            clauses=("F4",),
        ),
        Step(
            say="Lay it.",
            move=_play("2"),
            done="Well done: you can draw from the pack or the top three face-up cards.",
            hint="Lay the 2.",
            wrong=_play("3"),
            clauses=("F5",),
        ),
    ),
)

CLIMB = Lesson(
    game="faraway",
    slug="climb",
    title="Climb 1 to 9",
    hands=(("1", "2", "3", "6", "7", "8"), ("4", "5", "6", "7", "P2", "P3")),
    then=("9", "4", "5", "5"),
    script=((1, _draw()), (1, _discard("7"))),
    target=5,
    steps=(
        Step(
            say="Draw from the pack.",
            move=_draw(),
            done="You drew a 4.",
            hint="Take the top card of the pack.",
            wrong=_play("1"),
            clauses=("F3",),
        ),
        Step(
            say="Story cards go down in order, 1 first. Lay your 1.",
            move=_play("1"),
            done="One card a turn: the 2 waits for your next turn.",
            hint="Your row starts with a 1.",
            wrong=_play("2"),
            clauses=("F5",),
        ),
        Step(
            say="Throw the 8 away to end your turn.",
            move=_discard("8"),
            done="Your opponent's turn.",
            hint="Throw the 8 away.",
            wrong=_play("2"),
            clauses=("F6",),
        ),
        Step(
            say="Draw from the pack.",
            move=_draw(),
            done="You drew a 5.",
            hint="Take the top card of the pack.",
            wrong=_play("2"),
            clauses=("F3",),
        ),
        Step(
            say="Lay your next card.",
            move=_play("2"),
            done="1, then 2: you climb one card a turn.",
            hint="After the 1 comes the 2.",
            wrong=_play("3"),
            clauses=("F5",),
        ),
    ),
)

DEAD = Lesson(
    game="faraway",
    slug="dead-cards",
    title="Cards you cannot use",
    hands=(("1", "1", "2", "P4", "7", "8"), ("4", "5", "6", "7", "P2", "P3")),
    then=("9", "3", "5", "6"),
    script=((1, _draw()), (1, _discard("7"))),
    target=6,
    steps=(
        Step(
            say="Draw from the pack.",
            move=_draw(),
            done="You drew a 3.",
            hint="Take the top card of the pack.",
            wrong=_play("1"),
            clauses=("F3",),
        ),
        Step(
            say="Lay a 1.",
            move=_play("1"),
            done="Your other 1 is no use now: your row has one.",
            hint="Lay a 1.",
            wrong=_play("2"),
            clauses=("F5",),
        ),
        Step(
            say="A card whose number is already in your row must be thrown away first.",
            move=_discard("1"),
            done="Gone.",
            hint="Throw away the 1 you cannot use.",
            wrong=_discard("8"),
            clauses=("F8",),
        ),
        Step(
            say="Draw from the pack.",
            move=_draw(),
            done="You drew a 6.",
            hint="Take the top card of the pack.",
            wrong=_discard("P4"),
            clauses=("F3",),
        ),
        Step(
            say="Lay your 2.",
            move=_play("2"),
            done="Your row reads 1, 2.",
            hint="Lay the 2.",
            wrong=_play("3"),
            clauses=("F5",),
        ),
        Step(
            say="A Penalty card is never dead: keep it, or throw it away when you like."
            " Throw away the P4 now.",
            move=_discard("P4"),
            done="Throw away what you cannot use, and keep what you can.",
            hint="Throw the P4 away.",
            wrong=_play("3"),
            clauses=("F9",),
        ),
    ),
)

PENALTY = Lesson(
    game="faraway",
    slug="penalties",
    title="Penalty cards",
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
            say="Your opponent has climbed to 2. Draw first.",
            kind="draw",
            done="Now look at your P2.",
            hint="Your turn starts with a draw.",
            wrong=_penalty("P2"),
            clauses=("F3",),
        ),
        Step(
            say="A Penalty goes on an opponent whose highest card has its number. Play your"
            " P2 on their 2.",
            move=_penalty("P2"),
            done="They must miss a turn.",
            hint="Play the P2.",
            wrong=_play("3"),
            clauses=("F12", "F13", "F15"),
        ),
        Step(
            say="Throw a card away to end your turn.",
            kind="discard",
            done="Your opponent misses that turn.",
            hint="Throw one card away.",
            wrong=_penalty("P2"),
            clauses=("F3",),
        ),
        Step(
            say="It is your turn again. Draw.",
            kind="draw",
            done="After the missed turn the P2 is put aside. Penalties slow others down.",
            hint="Your turn starts with a draw.",
            wrong=_discard("3"),
            clauses=("F15",),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (DRAW, CLIMB, DEAD, PENALTY)

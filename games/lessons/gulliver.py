"""Gulliver's Travels' lessons (docs/lessons.md), played through the real engine by
``games.lessons.base``."""

from __future__ import annotations

from .base import Lesson, Step


def _play(card: str) -> dict:
    return {"type": "play", "card": card}


def _prepend(card: str) -> dict:
    return {"type": "prepend", "card": card}


DRAW: dict = {"type": "draw"}

START = Lesson(
    game="gulliver",
    slug="start",
    title="Start a sentence",
    hands=(("Is", "Gulliver", "Happy", "Always"), ("Are", "And", "Spies", "Loves")),
    dealer=0,
    script=((1, _play("Loves")),),
    target=2,
    steps=(
        Step(
            say="You lead. A sentence starts with a name or a noun: play Gulliver.",
            move=_play("Gulliver"),
            done="Gulliver starts the sentence.",
            hint="Start with the noun, Gulliver.",
            wrong=_play("Is"),
            clauses=("G3",),
        ),
        Step(
            say="Each card carries the sentence on. Add a word that fits.",
            kind="play",
            done="Sentences grow one card at a time, left to right.",
            hint="Add a word that makes sense after the last one.",
            wrong=_play("Is"),
            clauses=("G4",),
        ),
    ),
)

BUILD = Lesson(
    game="gulliver",
    slug="build",
    title="Build the sentence",
    hands=(("Happy", "Is", "And", "Always"), ("King Little", "Astonished", "With", "Snoop")),
    dealer=1,
    script=((1, _play("King Little")), (1, _play("Astonished"))),
    target=2,
    steps=(
        Step(
            say="King Little leads. Each card must keep it a sentence someone could finish."
            " Add Is.",
            move=_play("Is"),
            done="King Little Is...",
            hint="Add Is.",
            wrong=_play("Happy"),
            clauses=("G4",),
        ),
        Step(
            say="King Little Is Astonished is a whole sentence, but only three cards: a trick"
            " takes seven, so it goes on. Add a card that fits.",
            kind="play",
            done="A sentence goes on until it is complete with seven cards or more.",
            hint="Find a card that carries the sentence on.",
            wrong=_play("Happy"),
            clauses=("G4", "G5"),
        ),
    ),
)

FRONT = Lesson(
    game="gulliver",
    slug="adjective-in-front",
    title="The adjective in front",
    hands=(("Terrified", "Is", "King Little", "Angry"), ("Gabby", "And", "With", "Sneak")),
    dealer=1,
    script=((1, _play("Gabby")), (1, _play("And"))),
    target=2,
    steps=(
        Step(
            say="Once in each sentence, an adjective may go in front of the first noun."
            " Put Terrified in front of Gabby.",
            move=_prepend("Terrified"),
            done="Terrified Gabby.",
            hint="Put Terrified in front.",
            wrong=_play("Terrified"),
            clauses=("G6",),
        ),
        Step(
            say="Now carry on at the end: King Little.",
            move=_play("King Little"),
            done="Only one adjective may go in front; every other card goes at the end.",
            hint="Add King Little at the end.",
            wrong=_prepend("Angry"),
            clauses=("G6", "G12"),
        ),
    ),
)

STUCK = Lesson(
    game="gulliver",
    slug="stuck",
    title="Drawing when stuck",
    hands=(("Is", "Singing", "Always", "Forever"), ("Spies", "Are", "With", "Loves")),
    then=("Sneak",),
    dealer=1,
    script=((1, _play("Spies")), (1, _play("Are"))),
    target=2,
    steps=(
        Step(
            say="None of your cards can follow Spies. When nothing fits, draw a card from the"
            " centre stack: that is your turn.",
            move=DRAW,
            done="You drew a card, and your turn is over.",
            hint="Nothing fits: draw.",
            wrong=_play("Is"),
            clauses=("G7",),
        ),
        Step(
            say="Spies Are... now a card of yours fits. Play it.",
            kind="play",
            done="When you can play, you must; when you cannot, you draw.",
            hint="Find the card that follows Are.",
            wrong=DRAW,
            clauses=("G4", "G7"),
        ),
    ),
)

TRICK = Lesson(
    game="gulliver",
    slug="seven-cards",
    title="The seven-card trick",
    hands=(
        ("Prince David", "Frightened", "Removes", "Princess Glory"),
        ("Is", "And", "Terrified", "Spies"),
    ),
    dealer=0,
    prelude=(
        (0, _play("Prince David")),
        (1, _play("Is")),
        (0, _play("Frightened")),
        (1, _play("And")),
    ),
    script=((1, _play("Terrified")),),
    ends="round",
    target=2,
    steps=(
        Step(
            say="Prince David Is Frightened And... Add Removes.",
            move=_play("Removes"),
            done="Six cards.",
            hint="Add Removes.",
            wrong=DRAW,
            clauses=("G4",),
        ),
        Step(
            say="A finished sentence of seven cards or more is a trick for whoever finishes"
            " it. Finish it with Princess Glory.",
            move=_play("Princess Glory"),
            done="Your trick! And your hand is empty: the round ends. You score 20 for the"
            " trick and 20 for going out first; your opponent loses 5 for each card left.",
            shows=(
                {"type": "trick", "seat": 0},
                {"type": "out", "seat": 0},
                {"type": "round_end", "gained": [40, 0], "lost": [0, 5]},
            ),
            hint="Play Princess Glory.",
            wrong=DRAW,
            clauses=("G5", "G10", "G14", "G15"),
        ),
    ),
)

MANY = Lesson(
    game="gulliver",
    slug="two-packs",
    title="Two packs for many players",
    hands=(
        ("Gulliver", "Spies", "Snoop", "Sneak"),
        ("Is", "With", "Loves", "Always"),
        ("Happy", "Removes", "Captures", "Forever"),
        ("And", "Rescues", "Fighting", "Sleeping"),
        ("Gulliver", "Dancing", "Singing", "Brave"),
        ("Is", "Angry", "Terrified", "Prepared"),
        ("Angry", "Astonished", "Frightened", "Snitch"),
    ),
    dealer=0,
    script=(
        (1, _play("Is")),
        (2, _play("Happy")),
        (3, _play("And")),
        (4, _play("Gulliver")),
        (5, _play("Is")),
        (6, _play("Angry")),
    ),
    target=2,
    steps=(
        Step(
            say="Seven players: the game is played with two packs shuffled together. You lead:"
            " play Gulliver.",
            move=_play("Gulliver"),
            done="Watch the sentence go round the table.",
            hint="Lead with Gulliver.",
            wrong=DRAW,
            clauses=("G1", "G3"),
        ),
        Step(
            say="Gulliver Is Happy And Gulliver Is Angry: with two packs a word can come twice."
            " Seven cards, complete: the seventh player took the trick. Lead the next one.",
            kind="play",
            done="Whoever plays after the trick leads the next sentence.",
            hint="Lead with a noun.",
            wrong=DRAW,
            clauses=("G1", "G3", "G5"),
        ),
    ),
)

CHALLENGE = Lesson(
    game="gulliver",
    slug="challenges",
    title="Challenges",
    hands=(("Is", "Happy", "Always", "Sneak"), ("Gulliver", "Loves", "With", "Spies")),
    dealer=1,
    options={"challenges": True},
    script=((1, _play("Gulliver")), (1, {"type": "vote", "accept": True})),
    target=3,
    steps=(
        Step(
            say="In a match with challenges on, you may challenge the card just played before"
            " the next player lays one. Challenge Gulliver.",
            move={"type": "challenge"},
            done="Everyone votes: does the card stand?",
            hint="Challenge the card.",
            wrong={"type": "vote", "accept": False},
            clauses=("G17",),
        ),
        Step(
            say="Gulliver is a fine start, so vote to let it stand.",
            move={"type": "vote", "accept": True},
            done="The majority let it stand. A card voted down goes back, and its player"
            " misses that turn.",
            hint="Vote to accept.",
            wrong={"type": "challenge"},
            clauses=("G17",),
        ),
        Step(
            say="Now carry on the sentence.",
            kind="play",
            done="Challenges are off unless a match turns them on.",
            hint="Play a card that follows Gulliver.",
            wrong=_play("Sneak"),
            clauses=("G4",),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (START, BUILD, FRONT, STUCK, TRICK, MANY, CHALLENGE)

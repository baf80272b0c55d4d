"""Gulliver's Travels' lessons (docs/lessons.md), played through the real engine by
``games.lessons.base``."""

from __future__ import annotations

from .base import Lesson, Step, gettext_noop


def _play(card: str) -> dict:
    return {"type": "play", "card": card}


def _prepend(card: str) -> dict:
    return {"type": "prepend", "card": card}


DRAW: dict = {"type": "draw"}

START = Lesson(
    game="gulliver",
    slug="start",
    title=gettext_noop("Start a sentence"),
    hands=(("Is", "Gulliver", "Happy", "Always"), ("Are", "And", "Spies", "Loves")),  # i18n: data
    dealer=0,
    script=((1, _play("Loves")),),  # i18n: data
    target=2,
    steps=(
        Step(
            say=gettext_noop("You lead. A sentence starts with a name or a noun: play Gulliver."),
            move=_play("Gulliver"),  # i18n: data
            done=gettext_noop("Gulliver starts the sentence."),
            hint=gettext_noop("Start with the noun, Gulliver."),
            wrong=_play("Is"),  # i18n: data
            clauses=("G3",),
        ),
        Step(
            say=gettext_noop("Each card carries the sentence on. Add a word that fits."),
            kind="play",
            done=gettext_noop("Sentences grow one card at a time, left to right."),
            hint=gettext_noop("Add a word that makes sense after the last one."),
            wrong=_play("Is"),  # i18n: data
            clauses=("G4",),
        ),
    ),
)

BUILD = Lesson(
    game="gulliver",
    slug="build",
    title=gettext_noop("Build the sentence"),
    hands=(
        ("Happy", "Is", "And", "Always"),  # i18n: data
        ("King Little", "Astonished", "With", "Snoop"),  # i18n: data
    ),
    dealer=1,
    script=((1, _play("King Little")), (1, _play("Astonished"))),  # i18n: data
    target=2,
    steps=(
        Step(
            say=gettext_noop(
                "King Little leads. Each card must keep it a sentence someone could finish. Add Is."
            ),
            move=_play("Is"),  # i18n: data
            done=gettext_noop("King Little Is..."),
            hint=gettext_noop("Add Is."),
            wrong=_play("Happy"),  # i18n: data
            clauses=("G4",),
        ),
        Step(
            say=gettext_noop(
                "King Little Is Astonished is a whole sentence, but only three cards: a trick"
                " takes seven, so it goes on. Add a card that fits."
            ),
            kind="play",
            done=gettext_noop("A sentence goes on until it is complete with seven cards or more."),
            hint=gettext_noop("Find a card that carries the sentence on."),
            wrong=_play("Happy"),  # i18n: data
            clauses=("G4", "G5"),
        ),
    ),
)

FRONT = Lesson(
    game="gulliver",
    slug="adjective-in-front",
    title=gettext_noop("The adjective in front"),
    hands=(
        ("Terrified", "Is", "King Little", "Angry"),  # i18n: data
        ("Gabby", "And", "With", "Sneak"),  # i18n: data
    ),
    dealer=1,
    script=((1, _play("Gabby")), (1, _play("And"))),  # i18n: data
    target=2,
    steps=(
        Step(
            say=gettext_noop(
                "Once in each sentence, an adjective may go in front of the first noun."
                " Put Terrified in front of Gabby."
            ),
            move=_prepend("Terrified"),  # i18n: data
            done=gettext_noop("Terrified Gabby."),
            hint=gettext_noop("Put Terrified in front."),
            wrong=_play("Terrified"),  # i18n: data
            clauses=("G6",),
        ),
        Step(
            say=gettext_noop("Now carry on at the end: King Little."),
            move=_play("King Little"),  # i18n: data
            done=gettext_noop(
                "Only one adjective may go in front; every other card goes at the end."
            ),
            hint=gettext_noop("Add King Little at the end."),
            wrong=_prepend("Angry"),  # i18n: data
            clauses=("G6", "G12"),
        ),
    ),
)

STUCK = Lesson(
    game="gulliver",
    slug="stuck",
    title=gettext_noop("Drawing when stuck"),
    hands=(("Is", "Singing", "Always", "Forever"), ("Spies", "Are", "With", "Loves")),  # i18n: data
    then=("Sneak",),  # i18n: data
    dealer=1,
    script=((1, _play("Spies")), (1, _play("Are"))),  # i18n: data
    target=2,
    steps=(
        Step(
            say=gettext_noop(
                "None of your cards can follow Spies. When nothing fits, draw a card from the"
                " centre stack: that is your turn."
            ),
            move=DRAW,
            done=gettext_noop("You drew a card, and your turn is over."),
            hint=gettext_noop("Nothing fits: draw."),
            wrong=_play("Is"),  # i18n: data
            clauses=("G7",),
        ),
        Step(
            say=gettext_noop("Spies Are... now a card of yours fits. Play it."),
            kind="play",
            done=gettext_noop("When you can play, you must; when you cannot, you draw."),
            hint=gettext_noop("Find the card that follows Are."),
            wrong=DRAW,
            clauses=("G4", "G7"),
        ),
    ),
)

TRICK = Lesson(
    game="gulliver",
    slug="seven-cards",
    title=gettext_noop("The seven-card trick"),
    hands=(
        ("Prince David", "Frightened", "Removes", "Princess Glory"),  # i18n: data
        ("Is", "And", "Terrified", "Spies"),  # i18n: data
    ),
    dealer=0,
    prelude=(
        (0, _play("Prince David")),  # i18n: data
        (1, _play("Is")),  # i18n: data
        (0, _play("Frightened")),  # i18n: data
        (1, _play("And")),  # i18n: data
    ),
    script=((1, _play("Terrified")),),  # i18n: data
    ends="round",
    target=2,
    steps=(
        Step(
            say=gettext_noop("Prince David Is Frightened And... Add Removes."),
            move=_play("Removes"),  # i18n: data
            done=gettext_noop("Six cards."),
            hint=gettext_noop("Add Removes."),
            wrong=DRAW,
            clauses=("G4",),
        ),
        Step(
            say=gettext_noop(
                "A finished sentence of seven cards or more is a trick for whoever finishes"
                " it. Finish it with Princess Glory."
            ),
            move=_play("Princess Glory"),  # i18n: data
            done=gettext_noop(
                "Your trick! And your hand is empty: the round ends. You score 20 for the"
                " trick and 20 for going out first; your opponent loses 5 for each card left."
            ),
            shows=(
                {"type": "trick", "seat": 0},
                {"type": "out", "seat": 0},
                {"type": "round_end", "gained": [40, 0], "lost": [0, 5]},
            ),
            hint=gettext_noop("Play Princess Glory."),
            wrong=DRAW,
            clauses=("G5", "G10", "G14", "G15"),
        ),
    ),
)

MANY = Lesson(
    game="gulliver",
    slug="two-packs",
    title=gettext_noop("Two packs for many players"),
    hands=(
        ("Gulliver", "Spies", "Snoop", "Sneak"),  # i18n: data
        ("Is", "With", "Loves", "Always"),  # i18n: data
        ("Happy", "Removes", "Captures", "Forever"),  # i18n: data
        ("And", "Rescues", "Fighting", "Sleeping"),  # i18n: data
        ("Gulliver", "Dancing", "Singing", "Brave"),  # i18n: data
        ("Is", "Angry", "Terrified", "Prepared"),  # i18n: data
        ("Angry", "Astonished", "Frightened", "Snitch"),  # i18n: data
    ),
    dealer=0,
    script=(
        (1, _play("Is")),  # i18n: data
        (2, _play("Happy")),  # i18n: data
        (3, _play("And")),  # i18n: data
        (4, _play("Gulliver")),  # i18n: data
        (5, _play("Is")),  # i18n: data
        (6, _play("Angry")),  # i18n: data
    ),
    target=2,
    steps=(
        Step(
            say=gettext_noop(
                "Seven players: the game is played with two packs shuffled together. You lead:"
                " play Gulliver."
            ),
            move=_play("Gulliver"),  # i18n: data
            done=gettext_noop("Watch the sentence go round the table."),
            hint=gettext_noop("Lead with Gulliver."),
            wrong=DRAW,
            clauses=("G1", "G3"),
        ),
        Step(
            say=gettext_noop(
                "Gulliver Is Happy And Gulliver Is Angry: with two packs a word can come twice."
                " Seven cards, complete: the seventh player took the trick. Lead the next one."
            ),
            kind="play",
            done=gettext_noop("Whoever plays after the trick leads the next sentence."),
            hint=gettext_noop("Lead with a noun."),
            wrong=DRAW,
            clauses=("G1", "G3", "G5"),
        ),
    ),
)

CHALLENGE = Lesson(
    game="gulliver",
    slug="challenges",
    title=gettext_noop("Challenges"),
    hands=(
        ("Is", "Happy", "Always", "Sneak"),  # i18n: data
        ("Gulliver", "Loves", "With", "Spies"),  # i18n: data
    ),
    dealer=1,
    options={"challenges": True},
    script=((1, _play("Gulliver")), (1, {"type": "vote", "accept": True})),  # i18n: data
    target=3,
    steps=(
        Step(
            say=gettext_noop(
                "In a match with challenges on, you may challenge the card just played before"
                " the next player lays one. Challenge Gulliver."
            ),
            move={"type": "challenge"},
            done=gettext_noop("Everyone votes: does the card stand?"),
            hint=gettext_noop("Challenge the card."),
            wrong={"type": "vote", "accept": False},
            clauses=("G17",),
        ),
        Step(
            say=gettext_noop("Gulliver is a fine start, so vote to let it stand."),
            move={"type": "vote", "accept": True},
            done=gettext_noop(
                "The majority let it stand. A card voted down goes back, and its player"
                " misses that turn."
            ),
            hint=gettext_noop("Vote to accept."),
            wrong={"type": "challenge"},
            clauses=("G17",),
        ),
        Step(
            say=gettext_noop("Now carry on the sentence."),
            kind="play",
            done=gettext_noop("Challenges are off unless a match turns them on."),
            hint=gettext_noop("Play a card that follows Gulliver."),
            wrong=_play("Sneak"),  # i18n: data
            clauses=("G4",),
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (START, BUILD, FRONT, STUCK, TRICK, MANY, CHALLENGE)

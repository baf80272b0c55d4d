"""Gulliver's Travels as data: the 44 word cards, the sentence grammar, and the referee.

The grammar below is the one in docs/rulings.md, written in the same notation. It is regular (no
rule refers to itself), so at import time it is expanded into a nondeterministic automaton over
word classes and then determinised: each automaton state is one id, and the engine carries a
sentence as that id. A card may be played when its class leads to a state from which the
grammar can still accept; a sentence is complete when its state accepts.

lark's LALR parser cannot hold this grammar (shift/reduce on "And"), hence the automaton.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

# The word classes, in their fixed order (the site words each: games.presentation.reasons).
CLASS_NAMES: tuple[str, ...] = (
    "SingularNoun",
    "PluralNoun",
    "And",
    "Is",
    "Are",
    "With",
    "Verb",
    "Participle",
    "Adjective",
    "Adverb",
)

# (code, class, copies in one pack). A card's code is its word as printed.
WORDS: tuple[tuple[str, str, int], ...] = (
    ("Gulliver", "SingularNoun", 1),
    ("Gabby", "SingularNoun", 1),
    ("King Little", "SingularNoun", 1),
    ("King Bombo", "SingularNoun", 1),
    ("Princess Glory", "SingularNoun", 1),
    ("Prince David", "SingularNoun", 1),
    ("Sneak", "SingularNoun", 1),
    ("Snoop", "SingularNoun", 1),
    ("Snitch", "SingularNoun", 1),
    ("Sweethearts", "PluralNoun", 1),
    ("Spies", "PluralNoun", 1),
    ("Soldiers", "PluralNoun", 1),
    ("And", "And", 6),
    ("Is", "Is", 4),
    ("Are", "Are", 3),
    ("With", "With", 2),
    ("Removes", "Verb", 1),
    ("Rescues", "Verb", 1),
    ("Captures", "Verb", 1),
    ("Loves", "Verb", 1),
    ("Singing", "Participle", 1),
    ("Dancing", "Participle", 1),
    ("Fighting", "Participle", 1),
    ("Sleeping", "Participle", 1),
    ("Terrified", "Adjective", 1),
    ("Astonished", "Adjective", 1),
    ("Frightened", "Adjective", 1),
    ("Prepared", "Adjective", 1),
    ("Happy", "Adjective", 1),
    ("Angry", "Adjective", 1),
    ("Brave", "Adjective", 1),
    ("Forever", "Adverb", 1),
    ("Always", "Adverb", 1),
)

CLASS_OF: dict[str, str] = {code: cls for code, cls, _ in WORDS}
ONE_PACK: tuple[str, ...] = tuple(code for code, _, copies in WORDS for _ in range(copies))
PACK_SIZE = len(ONE_PACK)  # 44
TWO_PACKS_FROM = 7  # players: "for more than six players two packs"


def pack_for(num_players: int) -> tuple[str, ...]:
    return ONE_PACK * 2 if num_players >= TWO_PACKS_FROM else ONE_PACK


# The first card of a sentence must be a noun; an adjective comes in front only by a prepend.
LEAD_CLASSES = frozenset({"SingularNoun", "PluralNoun"})
PREPEND_CLASS = "Adjective"
TRICK_LENGTH = 7

GRAMMAR = """
Sentence     := Clause (And Clause)*
Clause       := SubjectSg PredicateSg | SubjectPl PredicatePl
Noun         := SingularNoun | PluralNoun
NounPhrase   := Adjective? Noun
SubjectSg    := Adjective? SingularNoun
SubjectPl    := Adjective? PluralNoun | NounPhrase (And NounPhrase)+
PredicateSg  := VerbPhraseSg (And VerbPhraseSg)*
PredicatePl  := VerbPhrasePl (And VerbPhrasePl)*
VerbPhraseSg := Is Complement | Adverb? Verb Object
VerbPhrasePl := Are Complement
Complement   := Adverb? (Adjective | Participle) (With Object)?
Object       := NounPhrase (And NounPhrase)*
"""

# Why a card is refused, language-free: (refused class, a class that would fit here, reason
# code). The first entry whose refused class matches and whose hint class is allowed now
# applies; otherwise the refusal lists what may come next (``next_card_must_be``).
REFUSALS: tuple[tuple[str, str, str], ...] = (
    ("Is", "Are", "plural_takes_are"),
    ("Verb", "Are", "plural_takes_are_not_verb"),
    ("Are", "Is", "single_takes_is"),
    ("Are", "Verb", "single_takes_is"),
)

# Every reason code the referee (``refusal``) gives.
REASON_CODES = frozenset(
    {
        "no_such_card",
        "lead_not_noun",
        "lead_adjective",
        "sentence_finished",
        "next_card_must_be",
        *(code for _, _, code in REFUSALS),
    }
)


# ---------------------------------------------------------------- compiling the grammar


class _RuleReader:
    """Reads one rule body in the notation above into an expression tree:
    ("seq", [...]), ("alt", [...]), ("opt"|"star"|"plus", x), or a name (a word class or
    another rule)."""

    POSTFIX = {"?": "opt", "*": "star", "+": "plus"}

    def __init__(self, body: str) -> None:
        self.tokens = re.findall(r"[A-Za-z]+|[()|?*+]", body)
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def read(self) -> object:
        tree = self.alt()
        if self.peek() is not None:
            raise ValueError(f"cannot read grammar at {self.peek()!r}")
        return tree

    def alt(self) -> object:
        options = [self.seq()]
        while self.peek() == "|":
            self.pos += 1
            options.append(self.seq())
        return options[0] if len(options) == 1 else ("alt", options)

    def seq(self) -> object:
        items = []
        while self.peek() not in (None, "|", ")"):
            items.append(self.postfix())
        return items[0] if len(items) == 1 else ("seq", items)

    def postfix(self) -> object:
        tok = self.tokens[self.pos]
        self.pos += 1
        if tok == "(":
            node = self.alt()
            if self.peek() != ")":
                raise ValueError("unclosed '(' in the grammar")
            self.pos += 1
        else:
            node = tok
        while self.peek() in self.POSTFIX:
            node = (self.POSTFIX[self.tokens[self.pos]], node)
            self.pos += 1
        return node


def _parse_grammar(text: str) -> dict[str, object]:
    rules: dict[str, object] = {}
    for line in text.strip().splitlines():
        name, _, body = line.partition(":=")
        rules[name.strip()] = _RuleReader(body).read()
    return rules


class _NFA:
    """Thompson construction: epsilon edges plus edges labelled by a word class."""

    def __init__(self, rules: dict[str, object]) -> None:
        self.rules = rules
        self.eps: list[list[int]] = []
        self.edges: list[list[tuple[str, int]]] = []

    def node(self) -> int:
        self.eps.append([])
        self.edges.append([])
        return len(self.eps) - 1

    def build(self, expr: object, start: int, expanding: tuple[str, ...] = ()) -> int:
        """Wire ``expr`` from ``start``; return its end node."""
        if isinstance(expr, str):
            if expr in self.rules:
                if expr in expanding:
                    raise ValueError(f"grammar rule {expr} refers to itself")
                return self.build(self.rules[expr], start, (*expanding, expr))
            if expr not in CLASS_NAMES:
                raise ValueError(f"unknown word class {expr!r} in the grammar")
            end = self.node()
            self.edges[start].append((expr, end))
            return end
        kind, body = expr  # type: ignore[misc]
        if kind == "seq":
            for part in body:
                start = self.build(part, start, expanding)
            return start
        if kind == "alt":
            end = self.node()
            for part in body:
                self.eps[self.build(part, start, expanding)].append(end)
            return end
        inner_start = self.node()
        self.eps[start].append(inner_start)
        inner_end = self.build(body, inner_start, expanding)
        end = self.node()
        self.eps[inner_end].append(end)
        if kind in ("opt", "star"):
            self.eps[start].append(end)
        if kind in ("star", "plus"):
            self.eps[inner_end].append(inner_start)
        return end

    def closure(self, nodes: Iterable[int]) -> frozenset[int]:
        seen = set(nodes)
        todo = list(seen)
        while todo:
            for nxt in self.eps[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return frozenset(seen)


def _compile(text: str) -> tuple[list[dict[str, int]], list[bool]]:
    """Subset construction, then drop every state from which no sentence can be finished."""
    nfa = _NFA(_parse_grammar(text))
    start = nfa.node()
    final = nfa.build("Sentence", start)
    ids: dict[frozenset[int], int] = {}
    sets: list[frozenset[int]] = []
    trans: list[dict[str, int]] = []

    def state_id(nodes: frozenset[int]) -> int:
        if nodes not in ids:
            ids[nodes] = len(sets)
            sets.append(nodes)
            trans.append({})
        return ids[nodes]

    state_id(nfa.closure([start]))
    i = 0
    while i < len(sets):
        for cls in CLASS_NAMES:  # fixed order, so ids are the same on every run
            targets = [dst for node in sets[i] for label, dst in nfa.edges[node] if label == cls]
            if targets:
                trans[i][cls] = state_id(nfa.closure(targets))
        i += 1
    accepting = [final in nodes for nodes in sets]
    live = set(j for j, acc in enumerate(accepting) if acc)
    changed = True
    while changed:
        changed = False
        for j, out in enumerate(trans):
            if j not in live and any(dst in live for dst in out.values()):
                live.add(j)
                changed = True
    trimmed = [
        {cls: dst for cls, dst in out.items() if dst in live} if j in live else {}
        for j, out in enumerate(trans)
    ]
    return trimmed, accepting


TRANSITIONS, ACCEPTING = _compile(GRAMMAR)
START = 0
DEAD = -1
# The same table per card code: the engine's hot path looks a card up directly.
NEXT_BY_CARD: list[dict[str, int]] = [
    {code: out[cls] for code, cls, _ in WORDS if cls in out} for out in TRANSITIONS
]
LEAD_BY_CARD: dict[str, int] = {
    code: dst for code, dst in NEXT_BY_CARD[START].items() if CLASS_OF[code] in LEAD_CLASSES
}
ADJECTIVES = frozenset(code for code, cls, _ in WORDS if cls == PREPEND_CLASS)
# The state after an adjective at the front: every adjective leads there (one word class), so a
# sentence's "adjective + sentence" state starts here when its first card is laid.
ADJECTIVE_START: int = TRANSITIONS[START][PREPEND_CLASS]


# ---------------------------------------------------------------- the sentence, step by step
# Plain-value rules shared by the engine (which carries a sentence as ``dfa``, the automaton
# state of the sentence as laid, and ``pdfa``, that of an adjective + the sentence, ``None`` when
# no prepend could be finished) and the bots, which replay and imagine sentences in rollouts.


def end_table(dfa: int, empty: bool) -> dict[str, int]:
    """The cards that may go at the end of the sentence now, each with the automaton state
    after it: on an ``empty`` sentence only a noun may lead. A shared dict: do not change it."""
    return LEAD_BY_CARD if empty else NEXT_BY_CARD[dfa]


def may_prepend(pdfa: int | None, seat: int, starter: int | None) -> bool:
    """Whether ``seat`` may put an adjective in front now: once per sentence (``pdfa`` is
    ``None`` once done), never by the seat that started the sentence, and only when the
    sentence could still be finished with it (``pdfa`` is ``None`` otherwise too)."""
    return pdfa is not None and seat != starter


def lay(dfa: int, pdfa: int | None, empty: bool, card: str, front: bool) -> tuple[int, int | None]:
    """``(dfa, pdfa)`` after laying ``card``, a legal play or (``front``) prepend. A prepend
    uses up the sentence's one prepend; a first card starts the adjective + sentence track."""
    if front:
        return pdfa, None  # type: ignore[return-value]  # a legal prepend had a pdfa
    if empty:
        return LEAD_BY_CARD[card], NEXT_BY_CARD[ADJECTIVE_START].get(card)
    return NEXT_BY_CARD[dfa][card], None if pdfa is None else NEXT_BY_CARD[pdfa].get(card)


def is_trick(length: int, state: int) -> bool:
    """Whether a sentence of ``length`` cards in automaton ``state`` is taken as a trick: the
    moment it is complete with ``TRICK_LENGTH`` cards or more (docs/rulings.md, Tricks)."""
    return length >= TRICK_LENGTH and state != DEAD and ACCEPTING[state]


# ---------------------------------------------------------------- the referee


def step(state: int, code: str, lead: bool = False) -> int:
    """The state after ``code``; ``DEAD`` when the sentence could no longer be finished.
    ``lead`` applies the lead rule: a sentence starts with a noun."""
    if state == DEAD:
        return DEAD
    table = LEAD_BY_CARD if lead else NEXT_BY_CARD[state]
    return table.get(code, DEAD)


def run(cards: Sequence[str], prepended: bool = False) -> int:
    """The state of a whole sentence as laid (``prepended``: its first card came in front)."""
    state = START
    for i, code in enumerate(cards):
        if i == 0 and prepended and code not in ADJECTIVES:
            return DEAD
        state = step(state, code, lead=(i == 0 and not prepended))
    return state


def with_prepend(cards: Sequence[str]) -> int:
    """The state of an adjective followed by ``cards``."""
    state = ADJECTIVE_START
    for code in cards:
        state = step(state, code)
    return state


def next_classes(state: int, empty: bool = False) -> list[str]:
    """The word classes that may come next (only nouns when the sentence is ``empty``)."""
    if empty:
        return [cls for cls in CLASS_NAMES if cls in LEAD_CLASSES]
    if state == DEAD:
        return []
    return [cls for cls in CLASS_NAMES if cls in TRANSITIONS[state]]


def is_complete(state: int) -> bool:
    return state != DEAD and ACCEPTING[state]


def completable(state: int) -> bool:
    return state != DEAD


def fits(cards: Sequence[str], code: str) -> bool:
    """Whether ``code`` may be laid after ``cards`` (and the sentence still be finished)."""
    return step(run(cards), code, lead=not cards) != DEAD


def refusal(cards: Sequence[str], code: str, prepended: bool = False) -> dict[str, object] | None:
    """Why ``code`` cannot be laid after ``cards``, a language-free reason
    (``games.engines.base.Reason``); ``None`` when it can."""
    if code not in CLASS_OF:
        return {"code": "no_such_card", "given": code}
    cls = CLASS_OF[code]
    if not cards:
        if cls in LEAD_CLASSES:
            return None
        return {"code": "lead_adjective" if cls == PREPEND_CLASS else "lead_not_noun", "card": code}
    state = run(cards, prepended)
    if step(state, code) != DEAD:
        return None
    allowed = next_classes(state)
    facts = {"card": code, "after": cards[-1]}
    if not allowed:
        return {"code": "sentence_finished", **facts}
    for refused, hint, why in REFUSALS:
        if refused == cls and hint in allowed:
            return {"code": why, **facts}
    return {"code": "next_card_must_be", **facts, "classes": allowed}

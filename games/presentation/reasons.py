"""The engines' refusal reasons in the reader's language (docs/engine-contract.md, "Reasons").

An engine answers why a move is refused with a language-free reason, ``{"code": ...,
**facts}`` (``games.engines.base.Reason``): ``Engine.explain``, ``Engine.refusals``,
``IllegalMove.reason``, the Gulliver grammar referee's. Here each code is worded once, with
gettext: ``reason_words`` for one reason, ``refusal_words`` for the reasons a click on one card
gives. Seats are numbered as the table numbers them ("seat 2"), or named when the caller
passes a ``name`` for each seat (a lesson names the learner "you").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.presentation.common import and_join

# One wording per reason code. A fact called ``given`` is a value the mover sent (a forged
# seat, move type or card), shown as Python writes it; ``seat`` and ``seats`` are seat numbers.
WORDINGS = {
    # Every engine (games.engines.base)
    "no_seat": gettext_lazy("There is no seat %(given)s at this table."),
    "no_votes": gettext_lazy("%(title)s has no votes."),
    "no_rounds": gettext_lazy("%(title)s has no rounds."),
    "not_offered": gettext_lazy("That is not one of the moves you may make now."),
    # A record's entries (games.engines.replay)
    "resign_over": gettext_lazy("Nobody can resign a match that is over."),
    "seatless_entry": gettext_lazy(
        "A seatless entry can only be {'type': 'next_round'}, not %(given)s."
    ),
    # The Faraway Tree
    "game_over": gettext_lazy("The game is over."),
    "not_your_turn": gettext_lazy("It is not your turn: seat %(seat)s is to move."),
    "move_not_dict": gettext_lazy("A move must be a dict with a 'type'."),
    "unknown_move_type": gettext_lazy(
        "Unknown move type %(given)s: draw, play, penalty or discard."
    ),
    "draw_first": gettext_lazy("Draw first: your turn starts with the draw."),
    "already_drawn": gettext_lazy("You have already drawn this turn."),
    "draw_source": gettext_lazy("Draw from the 'pack' or the 'discard' pile."),
    "empty_hand_draws_two": gettext_lazy(
        "Your hand is empty, so draw two cards from one source: the top two of the pack or"
        " two of the top three discards (positions in ascending order)."
    ),
    "last_discard": gettext_lazy("Nobody may draw the last discard."),
    "draw_impossible": gettext_lazy(
        "That draw is not possible: take one card, from the pack or a top-three discard."
    ),
    "names_one_card": gettext_lazy(
        "A %(type)s move names one card, like {'type': '%(type)s', 'card': '4'}."
    ),
    "not_held": gettext_lazy("You do not hold %(given)s."),
    "one_story_card": gettext_lazy("Only one story card may be played each turn."),
    "penalty_is_a_penalty_move": gettext_lazy("A Penalty card is played with a 'penalty' move."),
    "next_story_card": gettext_lazy("Your next story card is %(next)s, not %(card)s."),
    "not_a_penalty": gettext_lazy("%(card)s is not a Penalty card."),
    "one_penalty_card": gettext_lazy("Only one Penalty card may be played each turn."),
    "no_penalty_victim": gettext_lazy(
        "No opponent can take %(card)s: their highest story card must be %(height)s and they"
        " must not already carry a Penalty."
    ),
    "play_next_story_first": gettext_lazy(
        "You hold %(next)s, your next story card, and must play it first."
    ),
    "discard_dead_card": gettext_lazy(
        "While you hold a dead card (a number already in your row), you must discard a dead"
        " card or a Penalty card."
    ),
    "pack_empty": gettext_lazy("The pack is empty."),
    # Gulliver's Travels
    "move_shape": gettext_lazy(
        "A move is a dict with a 'type', such as {'type': 'play', 'card': 'Gulliver'}."
    ),
    "unknown_move": gettext_lazy(
        "Unknown move %(given)s: choose one of play, prepend, draw, pass, challenge, vote."
    ),
    "move_takes_field": gettext_lazy("A '%(type)s' move takes '%(field)s' besides its type."),
    "move_takes_nothing": gettext_lazy("A '%(type)s' move takes nothing else besides its type."),
    "vote_accept_bool": gettext_lazy("A vote's 'accept' is true or false."),
    "match_over": gettext_lazy("The match is over."),
    "round_over": gettext_lazy("This round is over; the next one is about to be dealt."),
    "round_in_play": gettext_lazy("This round is still being played."),
    "no_challenge_to_vote": gettext_lazy("There is no challenge to vote on."),
    "already_voted": gettext_lazy("You have already voted on this challenge."),
    "vote_in_progress": gettext_lazy(
        "A challenge is being voted on; waiting for seat(s) %(seats)s."
    ),
    "challenges_off": gettext_lazy("Challenges are off in this match."),
    "nothing_to_challenge": gettext_lazy(
        "There is no card to challenge: a card can be challenged only until the next move,"
        " and the card that takes a trick never."
    ),
    "own_card_challenge": gettext_lazy("You cannot challenge your own card."),
    "not_your_turn_to_play": gettext_lazy("It is not your turn: seat %(seat)s is to play."),
    "must_play_fitting": gettext_lazy(
        "You hold a card that fits ('%(card)s'), so you must play it."
    ),
    "stack_empty_pass": gettext_lazy("The centre stack is empty, so you must pass."),
    "pass_only_when_stack_empty": gettext_lazy(
        "You may pass only when the centre stack is empty: draw a card instead."
    ),
    "no_such_card": gettext_lazy("There is no card called %(given)s in Gulliver's Travels."),
    "cannot_play_now": gettext_lazy("That card cannot be played now."),
    "prepend_not_adjective": gettext_lazy(
        "Only an adjective can go in front of the first noun, and '%(card)s' is not one."
    ),
    "prepend_no_sentence": gettext_lazy(
        "There is no sentence yet to put an adjective in front of."
    ),
    "prepend_used": gettext_lazy(
        "An adjective has already gone in front of this sentence: only once each."
    ),
    "prepend_own_sentence": gettext_lazy(
        "You started this sentence, so you cannot put an adjective in front of it."
    ),
    "prepend_dead_end": gettext_lazy(
        "'%(card)s' in front of '%(first)s' would leave a sentence nobody can finish."
    ),
    "vote_first": gettext_lazy(
        "A challenge is being voted on: vote first; play goes on after the vote."
    ),
    # Gulliver's grammar referee (games.engines.gulliver_words.refusal)
    "lead_not_noun": gettext_lazy(
        "A sentence starts with a noun, such as 'Gulliver' or 'Spies'; '%(card)s' is not one."
    ),
    "lead_adjective": gettext_lazy(
        "A sentence starts with a noun, such as 'Gulliver' or 'Spies'; '%(card)s' is not one"
        " (an adjective goes in front of the first noun later, by another player)."
    ),
    "sentence_finished": gettext_lazy(
        "'%(card)s' cannot follow '%(after)s': the sentence is finished and nothing more can"
        " be added."
    ),
    "plural_takes_are": gettext_lazy(
        "'%(card)s' cannot follow '%(after)s': a plural subject takes 'Are'."
    ),
    "plural_takes_are_not_verb": gettext_lazy(
        "'%(card)s' cannot follow '%(after)s': a plural subject takes 'Are' (a verb such as"
        " 'Loves' goes with one name)."
    ),
    "single_takes_is": gettext_lazy(
        "'%(card)s' cannot follow '%(after)s': a single subject takes 'Is' or a verb."
    ),
    "next_card_must_be": gettext_lazy(
        "'%(card)s' cannot follow '%(after)s': the next card must be %(classes)s."
    ),
}

# The same reasons with their seats named, for a caller that names them (a lesson).
NAMED_WORDINGS = {
    "not_your_turn": gettext_lazy("It is not your turn: %(seat)s is to move."),
    "not_your_turn_to_play": gettext_lazy("It is not your turn: %(seat)s is to play."),
    "vote_in_progress": gettext_lazy(
        "A challenge is being voted on; waiting for %(seats)s to vote."
    ),
}

# Gulliver's word classes as a refusal names them ("the next card must be a verb such as
# 'Loves' or 'And'"); the quoted words are cards, which stay English.
CLASS_PHRASES = {
    "SingularNoun": gettext_lazy("a name such as 'Gulliver'"),
    "PluralNoun": gettext_lazy("a plural noun such as 'Spies'"),
    "And": "'And'",  # i18n: data
    "Is": "'Is'",  # i18n: data
    "Are": "'Are'",  # i18n: data
    "With": "'With'",  # i18n: data
    "Verb": gettext_lazy("a verb such as 'Loves'"),
    "Participle": gettext_lazy("a word such as 'Singing'"),
    "Adjective": gettext_lazy("an adjective such as 'Happy'"),
    "Adverb": gettext_lazy("an adverb ('Forever' or 'Always')"),
}

SeatName = Callable[[int], str]


def or_join(items: Sequence[str]) -> str:
    """ "a verb, 'And' or 'With'", in the reader's language."""
    if len(items) <= 1:
        return "".join(items)
    return _("%(some)s or %(last)s") % {"some": ", ".join(items[:-1]), "last": items[-1]}


def _seat(value: Any, name: SeatName | None) -> str:
    if name is not None and type(value) is int:
        return name(value)
    return str(value)


def _facts(reason: Mapping[str, Any], name: SeatName | None) -> dict[str, Any]:
    facts = {key: value for key, value in reason.items() if key != "code"}
    if "given" in facts:
        facts["given"] = repr(facts["given"])
    if "seat" in facts:
        facts["seat"] = _seat(facts["seat"], name)
    if "seats" in facts:
        seats = [_seat(seat, name) for seat in facts["seats"]]
        facts["seats"] = and_join(seats) if name is not None else ", ".join(seats)
    if "classes" in facts:
        facts["classes"] = or_join([str(CLASS_PHRASES[cls]) for cls in facts["classes"]])
    return facts


def reason_words(reason: Mapping[str, Any] | None, name: SeatName | None = None) -> str:
    """One engine reason in the reader's language; "" for ``None`` (no refusal). ``name``
    (seat number to name) names the seats a reason mentions, else they are numbered."""
    if not reason:
        return ""
    code = reason["code"]
    wording = NAMED_WORDINGS.get(code) if name is not None else None
    return str(wording or WORDINGS[code]) % _facts(reason, name)


def refusal_words(reasons: Sequence[Mapping[str, Any]], name: SeatName | None = None) -> str:
    """The reasons one card or pile offers no move (``Engine.refusals``' values), each said
    once, in the reader's language."""
    said = dict.fromkeys(reason_words(reason, name) for reason in reasons)
    return " ".join(text for text in said if text)


def refusals_words(refusals: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, str]:
    """A seat's ``Engine.refusals`` worded: each card or pile's reasons as one text."""
    return {key: refusal_words(reasons) for key, reasons in refusals.items()}

"""The engines' refusal reasons are language-free and the site words every one
(docs/engine-contract.md, "Reasons"; docs/translation.md): each code an engine lists has its
words in every language, and every reason random play and forged moves draw from the engines is
a listed code, JSON as it is, and worded without a gap."""

from __future__ import annotations

import json
import random

import pytest
from django.conf import settings
from django.utils import translation

from games.engines import IllegalMove, get_engine, gulliver_words, registered, replay
from games.presentation.reasons import (
    CLASS_PHRASES,
    NAMED_WORDINGS,
    WORDINGS,
    reason_words,
    refusal_words,
)

LANGUAGES = [code for code, _name in settings.LANGUAGES]
TRANSLATED = [code for code in LANGUAGES if not code.startswith("en")]


def _codes() -> set[str]:
    return set(replay.REASON_CODES).union(*(engine.reason_codes for engine in registered()))


def test_every_code_an_engine_lists_is_worded_and_every_wording_is_a_code():
    assert set(WORDINGS) == _codes()
    assert set(CLASS_PHRASES) == set(gulliver_words.CLASS_NAMES)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_wording_is_translated(language):
    wordings = {
        **WORDINGS,
        **{f"named {code}": words for code, words in NAMED_WORDINGS.items()},
        **{
            f"class {cls}": words
            for cls, words in CLASS_PHRASES.items()
            if not isinstance(words, str)
        },
    }
    with translation.override("en-gb"):
        english = {code: str(words) for code, words in wordings.items()}
    with translation.override(language):
        untranslated = [code for code, words in wordings.items() if str(words) == english[code]]
    assert untranslated == []


def _forged(rng: random.Random, hand: list[str]) -> list[object]:
    """Moves a client might send: the engine's own kinds with cards held or not, and garbage."""
    cards = [*hand, "Lilliput", "9", "P2", "Gulliver", "Happy", 7, None]
    kinds = ["draw", "play", "penalty", "discard", "prepend", "pass", "challenge", "vote", "fly"]
    moves: list[object] = ["x", None, 3, {}, {"card": "Gulliver"}]
    for kind in kinds:
        moves.append({"type": kind})
        moves.append({"type": kind, "card": rng.choice(cards)})
        moves.append({"type": kind, "card": rng.choice(hand or cards), "extra": 1})
    moves += [
        {"type": "draw", "source": "pack"},
        {"type": "draw", "source": "pack", "count": 2},
        {"type": "draw", "source": rng.choice(["discard", "sky", 0])},
        {"type": "draw", "source": "discard", "positions": [rng.randrange(4)]},
        {"type": "draw", "source": "discard", "positions": [0, 1]},
        {"type": "vote", "accept": rng.choice([True, False, "yes"])},
    ]
    return moves


def _reasons_seen(game: str, seeds: int, options: dict | None = None):
    """Every reason ``explain``, ``refusals`` and ``apply`` give over random play of ``game``,
    at every seat (and seats that are not there) with forged moves."""
    engine = get_engine(game)
    for seed in range(seeds):
        rng = random.Random(seed)
        players = rng.randint(engine.min_players, min(engine.max_players, 4))
        state = engine.new_game(players, seed, options)
        for _ in range(40):
            if engine.is_over(state):
                break
            if engine.round_over(state):
                state = engine.next_round(state)
                continue
            for seat in [*range(players), players, -1, None, "0", True]:
                real = type(seat) is int and 0 <= seat < players
                hand = engine.view(state, seat)["hand"] if real else []
                for move in _forged(rng, hand):
                    why = engine.explain(state, seat, move)
                    if why is not None:
                        yield engine, why
                        with pytest.raises(IllegalMove) as refused:
                            engine.apply(state, seat, move)
                        assert refused.value.reason == why
                if real:
                    for key, reasons in engine.refusals(state, seat).items():
                        assert reasons, f"no reason for {key}"
                        for why in reasons:
                            yield engine, why
            seat = engine.awaiting(state)[0]
            state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
        if engine.is_over(state):
            for seat in range(players):
                why = engine.explain(state, seat, {"type": "draw"})
                if why is not None:
                    yield engine, why


@pytest.mark.parametrize(
    ("game", "options"),
    [("faraway", None), ("gulliver", None), ("gulliver", {"challenges": True})],
)
def test_every_reason_the_engines_give_is_a_listed_code_json_and_worded(game, options):
    seen: set[str] = set()
    for engine, why in _reasons_seen(game, 5, options):
        assert why["code"] in engine.reason_codes, why
        assert json.loads(json.dumps(why)) == why or "given" in why  # a forged value as sent
        seen.add(why["code"])
        for language in LANGUAGES:
            with translation.override(language):
                words = reason_words(why)
            assert words and "%(" not in words, (language, why, words)
    assert len(seen) >= 12, seen


def test_the_english_words_read_as_the_engines_said_them_before():
    """A few reasons as the engines' English said them before the codes: the same words."""
    with translation.override("en-gb"):
        assert reason_words({"code": "not_your_turn", "seat": 2}) == (
            "It is not your turn: seat 2 is to move."
        )
        assert reason_words({"code": "no_seat", "given": "0"}) == (
            "There is no seat '0' at this table."
        )
        assert reason_words({"code": "vote_in_progress", "seats": [0, 2]}) == (
            "A challenge is being voted on; waiting for seat(s) 0, 2."
        )
        assert reason_words(gulliver_words.refusal(["Gulliver", "Is", "Happy"], "Removes")) == (
            "'Removes' cannot follow 'Happy': the next card must be 'And' or 'With'."
        )
        assert reason_words(gulliver_words.refusal(["Gulliver", "Is"], "Removes")) == (
            "'Removes' cannot follow 'Is': the next card must be a word such as 'Singing',"
            " an adjective such as 'Happy' or an adverb ('Forever' or 'Always')."
        )
        assert reason_words({"code": "move_takes_field", "type": "play", "field": "card"}) == (
            "A 'play' move takes 'card' besides its type."
        )
        assert reason_words(None) == ""


def test_a_cards_reasons_are_said_once_each():
    twice = [{"code": "one_story_card"}, {"code": "one_story_card"}, {"code": "pack_empty"}]
    with translation.override("en-gb"):
        assert refusal_words(twice) == (
            "Only one story card may be played each turn. The pack is empty."
        )


def test_a_german_reader_reads_a_reason_in_german():
    with translation.override("de"):
        said = reason_words({"code": "not_your_turn", "seat": 1})
    assert "1" in said and "turn" not in said


def test_an_illegal_moves_message_is_language_free():
    engine = get_engine("faraway")
    state = engine.new_game(3, 5)
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, 0, {"type": "draw", "source": "pack"})
    assert refused.value.reason == {"code": "not_your_turn", "seat": state.turn}
    assert json.loads(str(refused.value)) == refused.value.reason

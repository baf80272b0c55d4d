"""The Gulliver grammar and referee, tested first on the printed sheet's three sentences."""

import pytest

from games.engines import gulliver_words as W
from games.presentation.reasons import reason_words

FIRST = ["Princess Glory", "And", "Gulliver", "Are", "Singing", "And", "King Bombo", "Is"]
FIRST += ["Astonished"]
SECOND = ["Prince David", "Is", "Frightened", "And", "Removes", "Terrified", "Princess Glory"]
THIRD = ["Terrified", "Gabby", "And", "King Little", "Are", "Forever", "Prepared"]


def complete_at(cards: list[str], prepended: bool = False) -> list[int]:
    """The card counts (1-based) at which the sentence so far is complete."""
    return [i for i in range(1, len(cards) + 1) if W.is_complete(W.run(cards[:i], prepended))]


def test_pack_has_44_words_in_the_printed_counts():
    assert W.PACK_SIZE == 44 == len(W.ONE_PACK)
    counts = {c: W.ONE_PACK.count(c) for c in set(W.ONE_PACK)}
    assert counts["And"] == 6 and counts["Is"] == 4 and counts["Are"] == 3
    assert counts["With"] == 2 and counts["Gulliver"] == 1
    by_class: dict[str, int] = {}
    for code in W.ONE_PACK:
        by_class[W.CLASS_OF[code]] = by_class.get(W.CLASS_OF[code], 0) + 1
    assert by_class == {
        "SingularNoun": 9,
        "PluralNoun": 3,
        "And": 6,
        "Is": 4,
        "Are": 3,
        "With": 2,
        "Verb": 4,
        "Participle": 4,
        "Adjective": 7,
        "Adverb": 2,
    }
    assert len(W.pack_for(6)) == 44 and len(W.pack_for(7)) == 88 and len(W.pack_for(8)) == 88


def test_first_seed_sentence_is_complete_at_5_and_9():
    assert complete_at(FIRST) == [5, 9]
    assert all(W.run(FIRST[:i]) != W.DEAD for i in range(1, 10))


def test_second_seed_sentence_is_complete_only_at_7():
    assert complete_at(SECOND) == [3, 7]  # "Prince David Is Frightened" stands alone at 3
    assert W.is_complete(W.run(SECOND))


def test_third_seed_sentence_with_prepended_adjective_is_complete_at_7():
    assert complete_at(THIRD, prepended=True) == [7]
    # The same cards laid as the sheet tells: Gabby first, Terrified put in front later.
    assert complete_at(THIRD[1:]) == [6]
    assert W.is_complete(W.with_prepend(THIRD[1:]))


def test_a_prepended_sentence_must_start_with_an_adjective():
    assert W.run(["Gabby", "Is"], prepended=True) == W.DEAD


@pytest.mark.parametrize(
    "cards",
    [
        ["Gulliver", "Loves", "Gabby"],
        ["Sweethearts", "Are", "Happy"],
        ["Spies", "Are", "Always", "Sleeping", "With", "Angry", "Soldiers"],
        ["Sneak", "Always", "Captures", "Snoop", "And", "Snitch"],
        ["Gulliver", "And", "Gabby", "And", "Snoop", "Are", "Brave"],
        ["Gulliver", "Is", "Happy", "And", "Is", "Dancing"],
        ["Spies", "Are", "Angry", "And", "Are", "Fighting"],
        ["Gulliver", "Rescues", "Gabby", "And", "Soldiers", "Are", "Prepared"],
    ],
)
def test_grammatical_sentences_are_complete(cards):
    assert W.is_complete(W.run(cards))


@pytest.mark.parametrize(
    "cards",
    [
        ["Sweethearts", "Is"],
        ["Gulliver", "Are"],
        ["Gulliver", "And", "Gabby", "Is"],
        ["Spies", "Loves"],
        ["Gulliver", "Is", "Removes"],
        ["Gulliver", "Is", "Happy", "Happy"],
        ["Gulliver", "Loves", "Is"],
        ["Happy"],  # the lead rule: only a noun starts a sentence
        ["Is"],
    ],
)
def test_ungrammatical_prefixes_are_dead(cards):
    assert W.run(cards) == W.DEAD


@pytest.mark.parametrize(
    "cards",
    [
        ["Gulliver"],
        ["Gulliver", "Is"],
        ["Gulliver", "Loves"],
        ["Spies", "And"],
        ["Gulliver", "Is", "Happy", "With"],
        ["Gulliver", "Always"],
    ],
)
def test_unfinished_prefixes_are_completable_but_not_complete(cards):
    state = W.run(cards)
    assert W.completable(state)
    assert not W.is_complete(state)


def test_every_live_state_can_still_be_finished():
    # Trimmed automaton: from every state some path of word classes reaches acceptance.
    for start in range(len(W.TRANSITIONS)):
        seen, todo = {start}, [start]
        while todo:
            st = todo.pop()
            for nxt in W.TRANSITIONS[st].values():
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert any(W.ACCEPTING[s] for s in seen), start


def test_next_classes():
    assert W.next_classes(W.START, empty=True) == ["SingularNoun", "PluralNoun"]
    assert set(W.next_classes(W.run(["Sweethearts"]))) == {"And", "Are"}
    assert set(W.next_classes(W.run(["Gulliver"]))) == {"And", "Is", "Verb", "Adverb"}
    assert W.next_classes(W.DEAD) == []


def test_fits_checks_the_sentence_so_far():
    assert W.fits([], "Gulliver")
    assert not W.fits([], "Happy")
    assert W.fits(["Gulliver"], "Is")
    assert not W.fits(["Gulliver"], "Are")


def test_refusals_say_why_in_player_words():
    def said(cards, code, prepended=False):
        return reason_words(W.refusal(cards, code, prepended))

    assert W.refusal(["Sweethearts"], "Is") == {
        "code": "plural_takes_are",
        "card": "Is",
        "after": "Sweethearts",
    }
    assert said(["Sweethearts"], "Is") == (
        "'Is' cannot follow 'Sweethearts': a plural subject takes 'Are'."
    )
    assert "single subject takes 'Is'" in said(["Gulliver"], "Are")
    assert "plural subject takes 'Are'" in said(["Gulliver", "And", "Gabby"], "Is")
    msg = said(["Gulliver", "Is"], "Removes")
    assert msg.startswith("'Removes' cannot follow 'Is': the next card must be")
    assert "adjective" in msg and "Singing" in msg
    assert "starts with a noun" in said([], "Happy")
    assert "no card called" in said([], "Lilliput")
    assert W.refusal(["Gulliver"], "Is") is None
    assert W.refusal(["Terrified", "Gabby"], "Is", prepended=True) is None


def test_grammar_is_data_and_rejects_self_reference():
    with pytest.raises(ValueError):
        W._compile("Sentence := SingularNoun Sentence?")
    with pytest.raises(ValueError):
        W._compile("Sentence := Lilliputian")

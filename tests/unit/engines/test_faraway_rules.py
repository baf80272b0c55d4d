"""The Faraway Tree, one test per clause of docs/rulings.md, on stacked decks and set positions."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engines import IllegalMove, get_engine
from games.engines.faraway_cards import (
    PACK,
    PENALTY_BY_CODE,
    PENALTY_CARDS,
    STORY_BY_CODE,
    STORY_CARDS,
    TURN_CAP,
)
from tests.unit.engines.refused import refused

ENG = get_engine("faraway")

PACK_DRAW = {"type": "draw", "source": "pack"}
PACK_DRAW_2 = {"type": "draw", "source": "pack", "count": 2}


def disc(*positions: int) -> dict:
    return {"type": "draw", "source": "discard", "positions": list(positions)}


def play(card: str) -> dict:
    return {"type": "play", "card": card}


def penalty(card: str) -> dict:
    return {"type": "penalty", "card": card}


def discard(card: str) -> dict:
    return {"type": "discard", "card": card}


def stacked(n: int, hands: list[list[str]], up: str, top=(), dealer: int = 0) -> list[str]:
    """A deck that deals ``hands[s]`` to seat ``s``, turns up ``up`` and puts ``top`` on the
    pack (first = top); the remaining cards follow in a fixed order."""
    deck = [hands[(dealer + k) % n][r] for r in range(6) for k in range(1, n + 1)]
    deck.append(up)
    deck.extend(top)
    rest = Counter(PACK) - Counter(deck)
    deck.extend(sorted(rest.elements()))
    return deck


def position(
    hands: list[list[str]],
    rows: list[int],
    *,
    pack: list[str] | None = None,
    discards: list[str] = ("9",),
    penalties: list | None = None,
    aside: list[str] = (),
    turn: int = 0,
    phase: str = "draw",
    story_played: bool = False,
    penalty_played: bool = False,
    turns_played: int = 10,
    seed: int = 7,
    rest: str | int = "pack",
):
    """A mid-game state built through ``load``. Cards not placed anywhere go to the bottom of
    the pack (``rest="pack"``), under the discards (``rest="discards"``) or into a seat's hand
    (``rest=seat``), so that the 44 add up."""
    n = len(hands)
    placed = [c for h in hands for c in h] + list(discards) + list(aside)
    placed += [str(i) for h in rows for i in range(1, h + 1)]
    placed += [p["card"] for p in (penalties or []) if p]
    placed += list(pack or [])
    left = Counter(PACK) - Counter(placed)
    assert sum((Counter(placed) - Counter(PACK)).values()) == 0, "more cards than the pack has"
    spare = sorted(left.elements())
    pack = list(pack or [])
    discards = list(discards)
    hands = [list(h) for h in hands]
    if rest == "pack":
        pack += spare
    elif rest == "discards":
        discards += spare
    else:
        hands[rest] += spare
    data = ENG.dump(ENG.new_game(n, seed))
    data.update(
        hands=hands,
        rows=rows,
        pack=pack,
        discards=discards,
        penalties=penalties or [None] * n,
        aside=list(aside),
        turn=turn,
        phase=phase,
        story_played=story_played,
        penalty_played=penalty_played,
        turns_played=turns_played,
    )
    return ENG.load(data)


# -- the pack --------------------------------------------------------------------------------


def test_pack_has_44_cards_four_of_each_story_card_and_eight_penalties():
    counts = Counter(PACK)
    assert len(PACK) == 44
    assert all(counts[str(i)] == 4 for i in range(1, 10))
    assert [c.code for c in PENALTY_CARDS] == ["P2", "P3", "P4", "P5", "P6", "P7", "P8", "P8"]
    assert {c: PENALTY_BY_CODE[c].turns_missed for c in counts if c.startswith("P")} == {
        "P2": 1,
        "P3": 1,
        "P4": 1,
        "P5": 1,
        "P6": 2,
        "P7": 2,
        "P8": 2,
    }
    assert STORY_CARDS[0].name == "The Enchanted Wood"
    assert STORY_BY_CODE["9"].name == "The Land of Birthdays"
    assert all(c.flavour for c in STORY_CARDS)


# -- the deal --------------------------------------------------------------------------------


def test_deal_is_one_card_at_a_time_from_left_of_dealer_then_turn_up_then_pack():
    deck = list(PACK)  # reference order, so every position is identifiable
    state = ENG.new_game(3, 1, {"deck": deck, "dealer": 1})
    dump = ENG.dump(state)
    assert dump["hands"][2] == sorted(deck[0:18:3])  # seat 2 is left of dealer 1
    assert dump["hands"][0] == sorted(deck[1:18:3])
    assert dump["hands"][1] == sorted(deck[2:18:3])
    assert dump["discards"] == [deck[18]]
    assert dump["pack"] == deck[19:]
    assert ENG.awaiting(state) == [2]
    after = ENG.apply(state, 2, PACK_DRAW)
    assert ENG.events(after)[0]["cards"] == [deck[19]]


def test_dealer_defaults_to_seat_0_so_seat_1_moves_first():
    state = ENG.new_game(4, 3)
    assert ENG.view(state, None)["dealer"] == 0
    assert ENG.awaiting(state) == [1]
    assert ENG.view(state, None)["hand_counts"] == [6, 6, 6, 6]
    assert ENG.view(state, None)["pack_count"] == 44 - 24 - 1


def test_same_arguments_give_the_same_game_and_the_seed_decides_the_shuffle():
    assert ENG.state_hash(ENG.new_game(3, 42)) == ENG.state_hash(ENG.new_game(3, 42))
    assert ENG.dump(ENG.new_game(3, 42))["hands"] != ENG.dump(ENG.new_game(3, 43))["hands"]


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (1, {}),
        (5, {}),
        ("3", {}),
        (True, {}),
        (3, {"colour": "red"}),
        (3, {"dealer": 3}),
        (3, {"dealer": -1}),
        (3, {"dealer": "0"}),
        (3, {"deck": list(PACK)[:-1]}),
        (3, {"deck": [*list(PACK)[:-1], "9"]}),
        (3, {"deck": "123"}),
        (3, {"deck": [*PACK, "1"]}),
    ],
)
def test_bad_new_game_arguments_raise_value_error(players, options):
    with pytest.raises(ValueError):
        ENG.new_game(players, 1, options)


# -- step 1: the draw -----------------------------------------------------------------------


def test_normal_draw_is_the_pack_top_or_any_one_of_the_top_three_discards():
    state = position(
        [["3", "4", "5", "6", "7", "8"], ["3", "4", "5", "6", "7", "8"]],
        [0, 0],
        pack=["P2"],
        discards=["1", "2", "9", "P3"],  # top first
    )
    assert ENG.legal_moves(state, 0) == [PACK_DRAW, disc(0), disc(1), disc(2)]
    from_pack = ENG.apply(state, 0, PACK_DRAW)
    assert "P2" in ENG.view(from_pack, 0)["hand"]
    assert ENG.view(from_pack, None)["pack_count"] == ENG.view(state, None)["pack_count"] - 1
    from_third = ENG.apply(state, 0, disc(2))
    view = ENG.view(from_third, 0)
    assert "9" in view["hand"]
    assert view["discards"] == ["1", "2", "P3"]
    assert view["phase"] == "play"


def test_no_player_may_draw_the_last_discard():
    state = position([["3", "4", "5", "6", "7", "8"]] * 2, [0, 0], discards=["1"])
    assert ENG.legal_moves(state, 0) == [PACK_DRAW]
    with refused("last discard"):
        ENG.apply(state, 0, disc(0))
    two = position([["3", "4", "5", "6", "7", "8"]] * 2, [0, 0], discards=["1", "2"])
    assert ENG.legal_moves(two, 0) == [PACK_DRAW, disc(0), disc(1)]
    assert ENG.view(ENG.apply(two, 0, disc(1)), None)["discards"] == ["1"]


def test_empty_hand_draws_two_from_one_source_never_one_of_each():
    state = position(
        [[], ["3", "4", "5", "6", "7", "8"]], [0, 0], pack=["P2", "P3"], discards=["1", "2", "9"]
    )
    assert ENG.legal_moves(state, 0) == [PACK_DRAW_2, disc(0, 1), disc(0, 2), disc(1, 2)]
    for bad in (PACK_DRAW, disc(0), disc(2, 0), {**PACK_DRAW, "positions": [0]}):
        with pytest.raises(IllegalMove):
            ENG.apply(state, 0, bad)
    two = ENG.apply(state, 0, PACK_DRAW_2)
    assert ENG.view(two, 0)["hand"] == ["P2", "P3"]
    pair = ENG.apply(state, 0, disc(0, 2))
    assert ENG.view(pair, 0)["hand"] == ["1", "9"]
    assert ENG.view(pair, 0)["discards"] == ["2"]


def test_empty_hand_falls_back_to_one_card_only_when_neither_source_has_two():
    seven = ["3", "4", "5", "6", "7", "8"]
    one_each = position([[], seven], [0, 0], pack=["P2"], discards=["1", "2"], rest=1)
    assert ENG.legal_moves(one_each, 0) == [PACK_DRAW, disc(0), disc(1)]
    assert ENG.view(ENG.apply(one_each, 0, disc(1)), 0)["hand"] == ["2"]
    assert ENG.view(ENG.apply(one_each, 0, PACK_DRAW), 0)["hand"] == ["P2"]


def test_empty_hand_never_takes_one_card_while_a_source_has_two():
    seven = ["3", "4", "5", "6", "7", "8"]
    pack_has_two = position([[], seven], [0, 0], pack=["P2", "P3"], discards=["1", "2"], rest=1)
    assert ENG.legal_moves(pack_has_two, 0) == [PACK_DRAW_2]
    with refused("two cards from one source"):
        ENG.apply(pack_has_two, 0, disc(0))
    discards_have_two = position([[], seven], [0, 0], pack=[], discards=["1", "2", "9"], rest=1)
    assert ENG.legal_moves(discards_have_two, 0) == [disc(0, 1), disc(0, 2), disc(1, 2)]


def test_when_no_card_can_be_drawn_the_turn_goes_straight_to_step_2_with_an_event():
    # Seat 0 lays its last card with the pack empty and one discard: the reshuffle turns that
    # one card up again, so seat 1 can draw nothing at all.
    state = position(
        [["5"], ["7", "8"], []], [4, 0, 0], pack=[], discards=["9"], phase="play", rest=2
    )
    assert ENG.dump(state)["pack"] == []
    after = ENG.apply(state, 0, play("5"))
    types = [e["type"] for e in ENG.events(after)]
    assert types == ["play", "reshuffle", "no_draw"]
    view = ENG.view(after, 1)
    assert view["turn"] == 1 and view["phase"] == "play"
    assert view["legal_moves"] == [discard("7"), discard("8")]
    assert ENG.events(after)[-1] == {"type": "no_draw", "seat": 1}


# -- step 2: the story card -----------------------------------------------------------------


def test_holding_the_next_story_card_means_it_must_be_played():
    state = position([["1", "4", "6", "7", "8", "9"], ["3"] * 3 + ["4"] * 3], [0, 0], phase="play")
    assert ENG.legal_moves(state, 0) == [play("1")]
    with refused("must play it"):
        ENG.apply(state, 0, discard("4"))
    after = ENG.apply(state, 0, play("1"))
    assert ENG.view(after, None)["rows"][0] == ["1"]


def test_only_one_story_card_per_turn():
    state = position([["1", "2", "3", "7", "8", "9"], ["4"] * 4 + ["5", "5"]], [0, 0], phase="play")
    after = ENG.apply(state, 0, play("1"))
    assert play("2") not in ENG.legal_moves(after, 0)
    assert {m["type"] for m in ENG.legal_moves(after, 0)} == {"discard"}
    with refused("one story card"):
        ENG.apply(after, 0, play("2"))


def test_laying_the_9_wins_at_once():
    state = position([["9", "P2", "3"], ["4", "5"]], [8, 2], phase="play")
    assert ENG.legal_moves(state, 0)[0] == play("9")
    after = ENG.apply(state, 0, play("9"))
    assert ENG.is_over(after)
    assert ENG.awaiting(after) == []
    assert ENG.outcome(after) == {"winners": [0], "draw": False, "scores": [9, 2]}
    assert ENG.events(after)[-1] == {"type": "win", "seat": 0}
    view = ENG.view(after, None)
    assert view["over"] and view["hands"] == [["3", "P2"], ["4", "5"]]
    with refused("over"):
        ENG.apply(after, 0, discard("3"))


# -- step 3: penalties ----------------------------------------------------------------------


def test_penalty_goes_to_the_nearest_qualifying_opponent_on_the_left():
    hands = [["P3", "7", "8"], ["4"], ["4"], ["4"]]
    state = position(hands, [1, 2, 3, 3], phase="play", turn=0)
    assert penalty("P3") in ENG.legal_moves(state, 0)
    after = ENG.apply(state, 0, penalty("P3"))
    assert ENG.view(after, None)["penalties"] == [
        None,
        None,
        {"card": "P3", "turns_left": 1},
        None,
    ]
    event = ENG.events(after)[-1]
    assert event == {"type": "penalty", "seat": 0, "card": "P3", "victim": 2, "on": "3", "turns": 1}
    # from seat 3 "to the left" wraps round: seat 0 (at 2) does not qualify, seat 1 (at 3) does
    from_three = position(hands[::-1], [2, 3, 3, 1], phase="play", turn=3)
    assert ENG.events(ENG.apply(from_three, 3, penalty("P3")))[-1]["victim"] == 1


def test_no_penalty_on_a_seat_that_already_carries_one():
    pens = [None, {"card": "P2", "turns_left": 1}, None]
    state = position([["P3", "7"], ["4"], ["4"]], [0, 3, 3], penalties=pens, phase="play")
    assert ENG.events(ENG.apply(state, 0, penalty("P3")))[-1]["victim"] == 2
    only = position([["P3", "7"], ["4"], ["4"]], [0, 3, 1], penalties=pens, phase="play")
    assert penalty("P3") not in ENG.legal_moves(only, 0)
    with refused("already carry"):
        ENG.apply(only, 0, penalty("P3"))


def test_a_p8_can_never_go_on_a_p8():
    pens = [None, {"card": "P8", "turns_left": 2}]
    state = position([["P8", "7"], ["4"]], [0, 8], penalties=pens, phase="play")
    assert penalty("P8") not in ENG.legal_moves(state, 0)


def test_at_most_one_penalty_per_turn_before_or_after_the_story_card():
    state = position([["P2", "P3", "4", "7"], ["5"], ["5"]], [3, 2, 3], phase="play")
    moves = ENG.legal_moves(state, 0)
    assert moves[:3] == [play("4"), penalty("P2"), penalty("P3")]
    first = ENG.apply(state, 0, penalty("P2"))  # penalty before the story card
    assert ENG.legal_moves(first, 0) == [play("4")]
    second = ENG.apply(first, 0, play("4"))
    assert penalty("P3") not in ENG.legal_moves(second, 0)
    with refused("one Penalty"):
        ENG.apply(second, 0, penalty("P3"))
    # and after the story card
    after_story = ENG.apply(state, 0, play("4"))
    assert penalty("P3") in ENG.legal_moves(after_story, 0)


# -- step 4: the discard --------------------------------------------------------------------


def test_while_holding_a_dead_card_the_discard_is_a_dead_card_or_a_penalty():
    state = position([["2", "5", "7", "P5"], ["4"]], [3, 0], phase="play")
    assert ENG.legal_moves(state, 0) == [discard("2"), discard("P5")]
    with refused("dead card"):
        ENG.apply(state, 0, discard("7"))
    alive = position([["5", "7", "P5"], ["4"]], [3, 0], phase="play")
    assert ENG.legal_moves(alive, 0) == [discard("5"), discard("7"), discard("P5")]


def test_a_card_becomes_dead_once_its_twin_is_laid_this_turn():
    state = position([["4", "4", "7"], ["6"]], [3, 0], phase="play")
    after = ENG.apply(state, 0, play("4"))
    assert ENG.legal_moves(after, 0) == [discard("4")]


def test_penalty_cards_may_be_discarded_at_any_time_even_when_playable():
    state = position([["P3", "7"], ["4"]], [0, 3], phase="play")
    assert discard("P3") in ENG.legal_moves(state, 0)
    after = ENG.apply(state, 0, discard("P3"))
    assert ENG.view(after, None)["discards"][0] == "P3"
    assert ENG.awaiting(after) == [1]


def test_a_turn_whose_hand_runs_out_ends_without_a_discard():
    state = position([["5"], ["7", "8"]], [4, 0], phase="play")
    after = ENG.apply(state, 0, play("5"))
    assert ENG.awaiting(after) == [1]
    assert ENG.view(after, None)["turns_played"] == 11


# -- missed turns ---------------------------------------------------------------------------


def test_one_turn_penalty_is_missed_then_put_aside():
    # Seat 0 puts P3 on seat 2; seat 1 plays its turn; then seat 2 is skipped and P3 goes aside.
    state = position([["P3", "7"], ["6", "7"], ["6"]], [0, 0, 3], pack=["9"], phase="play")
    s = ENG.apply(state, 0, penalty("P3"))
    s = ENG.apply(s, 0, discard("7"))
    assert ENG.awaiting(s) == [1]
    s1 = ENG.apply(ENG.apply(s, 1, PACK_DRAW), 1, discard("7"))
    events = ENG.events(s1)  # the discard's step: the miss it sets off is part of it
    assert [e["type"] for e in events[-3:]] == ["discard", "miss", "aside"]
    assert events[-2] == {"type": "miss", "seat": 2, "card": "P3", "turns_left": 0}
    assert events[-1] == {"type": "aside", "seat": 2, "card": "P3"}
    view = ENG.view(s1, None)
    assert view["penalties"] == [None, None, None]
    assert view["aside"] == ["P3"]
    assert ENG.awaiting(s1) == [0]
    assert view["turns_played"] == ENG.view(s, None)["turns_played"] + 1  # a miss is no turn


def test_two_turn_penalty_is_missed_twice_and_put_aside_at_the_second():
    state = position([["P6", "7", "7"], ["6"]], [0, 6], pack=["9", "9"], phase="play")
    s = ENG.apply(ENG.apply(state, 0, penalty("P6")), 0, discard("7"))
    assert ENG.awaiting(s) == [0]
    assert ENG.view(s, None)["penalties"][1] == {"card": "P6", "turns_left": 1}
    assert ENG.view(s, None)["aside"] == []
    s2 = ENG.apply(ENG.apply(s, 0, PACK_DRAW), 0, discard("7"))
    assert ENG.awaiting(s2) == [0]
    assert ENG.view(s2, None)["penalties"][1] is None
    assert ENG.view(s2, None)["aside"] == ["P6"]
    assert [e["type"] for e in ENG.events(s2)][-2:] == ["miss", "aside"]
    s3 = ENG.apply(ENG.apply(s2, 0, PACK_DRAW), 0, discard(ENG.view(s2, 0)["hand"][0]))
    assert ENG.awaiting(s3) == [1]


def test_one_turn_penalty_on_the_attackers_left_is_served_when_the_attacker_discards():
    state = position([["P2", "7"], ["6"], ["6"]], [0, 2, 0], phase="play")
    s = ENG.apply(state, 0, penalty("P2"))
    assert ENG.awaiting(s) == [0]
    s = ENG.apply(s, 0, discard("7"))
    assert ENG.awaiting(s) == [2]
    assert ENG.view(s, None)["aside"] == ["P2"]
    assert ENG.view(s, None)["penalties"][1] is None


# -- reshuffle ------------------------------------------------------------------------------


def test_an_empty_pack_at_the_end_of_a_turn_reshuffles_the_discards_from_the_seed():
    def end_of_pack(seed):
        state = position(
            [["5", "6"], ["7"]], [0, 0], pack=["8"], seed=seed, rest="discards", discards=["1"]
        )
        return ENG.apply(ENG.apply(state, 0, PACK_DRAW), 0, discard("6"))

    state = position([["5", "6"], ["7"]], [0, 0], pack=["8"], rest="discards", discards=["1"])
    count = ENG.view(state, None)["discard_count"] + 1
    after = end_of_pack(7)
    types = [e["type"] for e in ENG.events(after)]
    assert types == ["discard", "reshuffle"]
    event = ENG.events(after)[-1]
    assert event == {"type": "reshuffle", "seat": None, "count": count, "up": event["up"]}
    view = ENG.view(after, None)
    assert view["discard_count"] == 1 and view["pack_count"] == count - 1
    assert view["discards"] == [event["up"]]
    assert view["reshuffles"] == 1
    assert ENG.state_hash(end_of_pack(7)) == ENG.state_hash(after)
    assert ENG.dump(end_of_pack(8))["pack"] != ENG.dump(after)["pack"]


def test_an_explicit_deck_fixes_the_deal_but_reshuffles_still_follow_the_seed():
    deck = list(PACK)
    a = ENG.dump(ENG.new_game(2, 1, {"deck": deck}))
    b = ENG.dump(ENG.new_game(2, 2, {"deck": deck}))
    assert a["hands"] == b["hands"] and a["pack"] == b["pack"]
    assert a["seed"] != b["seed"]


# -- the end --------------------------------------------------------------------------------


def test_a_match_reaching_the_turn_cap_is_a_draw_with_no_winners():
    state = position([["5", "6"], ["7"]], [2, 3], turns_played=TURN_CAP - 1, phase="play")
    after = ENG.apply(state, 0, discard("6"))
    assert ENG.is_over(after)
    assert ENG.outcome(after) == {"winners": [], "draw": True, "scores": [2, 3]}
    assert ENG.events(after)[-1]["type"] == "turn_cap"
    assert ENG.awaiting(after) == []
    assert ENG.legal_moves(after, 1) == []


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "move", "words"),
    [
        (2, PACK_DRAW, "not your turn"),
        (None, PACK_DRAW, "no seat"),
        (9, PACK_DRAW, "no seat"),
        ("1", PACK_DRAW, "no seat"),
        (True, PACK_DRAW, "no seat"),
        (1, None, "must be a dict"),
        (1, "draw", "must be a dict"),
        (1, [PACK_DRAW], "must be a dict"),
        (1, {}, "Unknown move type"),
        (1, {"type": "shout"}, "Unknown move type"),
        (1, {"type": "draw"}, "pack"),
        (1, {"type": "draw", "source": 0}, "pack"),
        (1, {"type": "draw", "source": "discard", "positions": [0]}, "last discard"),
        (1, {"type": "draw", "source": "discard", "positions": "0"}, "last discard"),
        (1, {"type": "draw", "source": "pack", "count": 2}, "not possible"),
        (1, discard("1"), "Draw first"),
        (1, play("1"), "Draw first"),
    ],
)
def test_bad_moves_in_the_draw_phase_raise_illegal_move_and_change_nothing(seat, move, words):
    state = ENG.new_game(3, 5)
    before = ENG.dump(state)
    with refused(words):
        ENG.apply(state, seat, move)
    assert ENG.dump(state) == before


@pytest.mark.parametrize(
    ("move", "words"),
    [
        (PACK_DRAW, "already drawn"),
        ({"type": "discard"}, "names one card"),
        ({"type": "discard", "card": 7}, "names one card"),
        ({"type": "discard", "card": "7", "extra": 1}, "names one card"),
        (discard("9"), "do not hold"),
        (play("7"), "next story card is 1"),
        (play("P3"), "'penalty' move"),
        (penalty("7"), "not a Penalty"),
        (penalty("P3"), "No opponent"),
    ],
)
def test_bad_moves_in_the_play_phase_raise_illegal_move_and_change_nothing(move, words):
    state = position([["7", "8", "P3"], ["6"]], [0, 2], phase="play")
    before = ENG.dump(state)
    with refused(words):
        ENG.apply(state, 0, move)
    assert ENG.dump(state) == before


# -- views and events -----------------------------------------------------------------------


def test_a_spectator_sees_only_public_facts():
    seed = 918273645
    state = ENG.new_game(3, seed)
    state = ENG.apply(state, 1, PACK_DRAW)
    view = ENG.view(state, None)
    assert view["seat"] is None and view["hand"] == [] and view["legal_moves"] == []
    assert "hands" not in view and "pack" not in view and "seed" not in view
    text = json.dumps(view)
    assert str(seed) not in text
    assert all(e.get("cards") is None for e in view["events"] if e["type"] in ("hand", "draw"))
    assert "private" not in text
    assert view["awaiting"] == [1] and view["turn"] == 1 and view["phase"] == "play"
    assert view["hand_counts"] == [6, 7, 6]


def test_a_seat_sees_its_own_cards_in_events_and_nobody_elses():
    start = ENG.new_game(2, 3)
    dealt = [e["cards"] for e in ENG.view(start, 0)["events"] if e["type"] == "hand"]
    assert dealt == [ENG.view(start, 0)["hand"], None]
    state = ENG.apply(start, 1, PACK_DRAW)
    drawn = ENG.events(state)[-1]
    assert drawn["private"] == ["cards"] and drawn["cards"]
    mine = ENG.view(state, 1)["events"]
    theirs = ENG.view(state, 0)["events"]
    assert mine[-1]["cards"] == drawn["cards"] and theirs[-1]["cards"] is None
    assert theirs == [{"type": "draw", "seat": 1, "source": "pack", "count": 1, "cards": None}]


def test_discard_draws_are_public():
    state = position([["3", "4"], ["5"]], [0, 0], discards=["8", "9"])
    after = ENG.apply(state, 0, disc(1))
    event = ENG.view(after, 1)["events"][-1]
    assert event == {
        "type": "draw",
        "seat": 0,
        "source": "discard",
        "positions": [1],
        "cards": ["9"],
    }


def test_a_view_lists_one_entry_per_seat_and_the_drawable_discards_top_first():
    state = position(
        [["3"], ["4"], ["5"]],
        [2, 0, 2],
        discards=["9", "8", "7", "6"],
        penalties=[None, None, {"card": "P2", "turns_left": 1}],
        turn=1,
    )
    view = ENG.view(state, 1)
    assert view["discards"] == ["9", "8", "7"] and view["discard_count"] > 3
    assert view["rows"] == [["1", "2"], [], ["1", "2"]]
    assert view["row_next"] == ["3", "1", "3"]
    assert view["penalties"][2] == {"card": "P2", "turns_left": 1}
    assert view["hand"] == ["4"]
    assert view["legal_moves"] == ENG.legal_moves(state, 1)
    assert ENG.legal_moves(state, 0) == [] and ENG.view(state, 0)["legal_moves"] == []


def test_editing_a_returned_legal_move_changes_nothing():
    """legal_moves hands out copies: a caller scribbling on one cannot widen what apply accepts."""
    state = ENG.new_game(3, 11)
    seat = ENG.awaiting(state)[0]
    before = ENG.dump(state)
    moves = ENG.legal_moves(state, seat)
    moves[0]["type"] = "HACK"
    for move in moves:
        if "positions" in move:
            move["positions"].append(99)
    assert ENG.dump(state) == before
    assert all(m["type"] != "HACK" for m in ENG.legal_moves(state, seat))
    with pytest.raises(IllegalMove):
        ENG.apply(state, seat, {"type": "HACK", "source": "pack"})


def test_views_show_what_the_table_saw_and_sample_state_keeps_it():
    """The whole discard pile and the cards a seat took from it in view of all are public; a
    determinization for another seat keeps both where they are, and deals only the rest."""
    hands = [["5", "5", "6", "6", "7", "P2"], ["2", "3", "4", "7", "8", "P3"]]
    deck = stacked(2, hands, up="1", top=["9", "9"])
    state = ENG.new_game(2, 3, {"deck": deck, "dealer": 0})
    state = ENG.apply(state, 1, PACK_DRAW)  # seat 1 draws a 9 from the pack (private)
    state = ENG.apply(state, 1, discard("8"))
    state = ENG.apply(state, 0, disc(1))  # seat 0 takes the 1 from under the 8, in view of all
    state = ENG.apply(state, 0, play("1"))
    state = ENG.apply(state, 0, discard("7"))
    state = ENG.apply(state, 1, disc(0))  # seat 1 takes the 7 seat 0 just threw
    state = ENG.apply(state, 1, discard("2"))
    view = ENG.view(state, 0)
    assert view["discard_pile"] == ["2", "8"]
    assert view["known_cards"] == [[], ["7"]]
    assert ENG.view(state, None)["known_cards"] == [[], ["7"]]
    for k in range(20):
        sampled = ENG.sample_state(view, random.Random(k))
        dump = ENG.dump(sampled)
        assert dump["discards"] == ["2", "8"]
        assert "7" in dump["hands"][1]
        assert sorted(dump["hands"][0]) == sorted(view["hand"])


def test_known_cards_follow_the_card_out_of_the_hand():
    state = position([["3", "4"], ["5"]], [2, 0], discards=["8", "9", "3"])  # top first
    took = ENG.apply(state, 0, disc(2))  # the 3 from under the 8 and the 9, in view of all
    assert ENG.view(took, 1)["known_cards"] == [["3"], []]
    laid = ENG.apply(took, 0, play("3"))  # one of the two 3s is laid: the known one, say
    assert ENG.view(laid, None)["known_cards"] == [[], []]
    assert ENG.dump(laid)["known_cards"] == [[], []]
    assert ENG.dump(took)["known_cards"] == [["3"], []]


def test_penalty_victims_list_each_penalty_in_hand_that_would_land_now():
    pens = [None, None, None, {"card": "P7", "turns_left": 1}]
    state = position(
        [["P3", "P4", "P6", "7"], ["P2", "P5"], ["5"], ["9"]],
        [0, 3, 4, 2],
        penalties=pens,
        turn=1,
    )
    # P3 hits seat 1 (at 3); P4 hits seat 2 (at 4); P6 finds nobody at 6.
    assert ENG.view(state, 0)["penalty_victims"] == {"P3": 1, "P4": 2}
    # Seat 1 is to move, but a seat's victims do not depend on whose turn it is; P2's only
    # candidate, seat 3, already carries a Penalty.
    assert ENG.view(state, 1)["penalty_victims"] == {}
    assert ENG.view(state, None)["penalty_victims"] == {}


def test_explain_is_none_for_a_legal_move_and_otherwise_the_reason_apply_gives():
    state = position([["7", "8", "P3"], ["6"]], [0, 2], phase="play")
    for move in ENG.legal_moves(state, 0):
        assert ENG.explain(state, 0, move) is None
    for seat, move in [(0, play("7")), (1, discard("6")), (None, discard("7")), (0, "x")]:
        why = ENG.explain(state, seat, move)
        assert why and why["code"]
        with pytest.raises(IllegalMove) as refusal:
            ENG.apply(state, seat, move)
        assert refusal.value.reason == why


def test_each_state_carries_only_its_own_steps_events():
    start = ENG.new_game(3, 5)
    assert [e["type"] for e in ENG.events(start)] == ["deal", "hand", "hand", "hand", "turn_up"]
    drawn = ENG.apply(start, 1, PACK_DRAW)
    assert [e["type"] for e in ENG.events(drawn)] == ["draw"]
    assert [e["type"] for e in ENG.view(drawn, 2)["events"]] == ["draw"]
    assert ENG.view(drawn, 2)["events"] == ENG.redact(ENG.events(drawn), 2)
    # a copy each time: editing one changes nothing the engine holds
    ENG.events(drawn)[0]["cards"].append("9")
    ENG.view(drawn, 1)["events"][0]["cards"].append("9")
    assert len(ENG.events(drawn)[0]["cards"]) == 1
    dump = ENG.dump(drawn)
    assert "events" not in dump
    assert ENG.events(ENG.load(dump)) == [] and ENG.view(ENG.load(dump), 1)["events"] == []
    # an older dump's "events" key is ignored
    again = ENG.load({**dump, "events": ENG.events(start)})
    assert ENG.dump(again) == dump and ENG.events(again) == []


def test_the_faraway_tree_has_a_title_and_no_rounds():
    state = ENG.new_game(2, 1)
    assert ENG.title == "The Faraway Tree"
    assert ENG.round_over(state) is False
    with refused(r"The Faraway Tree has no rounds\."):
        ENG.next_round(state)

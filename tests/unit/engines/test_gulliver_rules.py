"""Gulliver's Travels, one test per clause of docs/rulings.md, on stacked decks and positions."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.engines import get_engine
from games.engines import gulliver_words as W
from games.presentation.reasons import reason_words
from tests.unit.engines.refused import refused

E = get_engine("gulliver")

PLAY = "play"


def stacked(n: int, hands: dict[int, list[str]], top: list[str] = (), dealer: int = 0) -> list[str]:
    """A pack order that deals ``hands`` (4 cards per listed seat; unlisted seats get what
    comes) and puts ``top`` on top of the centre stack."""
    rest = Counter(W.pack_for(n))
    rest.subtract(c for h in hands.values() for c in h)
    rest.subtract(top)
    assert min(rest.values()) >= 0, "asked for more copies than the pack holds"
    spare = []
    for c in W.pack_for(n):
        if rest[c] > 0:
            spare.append(c)
            rest[c] -= 1
    deal = {s: list(hands.get(s, [])) for s in range(n)}
    for s in range(n):
        while len(deal[s]) < 4:
            deal[s].append(spare.pop())
    order = [deal[(dealer + k) % n][r] for r in range(4) for k in range(1, n + 1)]
    return order + list(top) + spare


def game(n: int, hands: dict[int, list[str]], top: list[str] = (), **options):
    return E.new_game(n, 7, {"deck": stacked(n, hands, top, options.get("dealer", 0)), **options})


def position(n: int, hands: list[list[str]], stack: list[str] = (), **fields):
    """A mid-round position loaded from a dump: ``hands``, ``stack`` and any dump fields.
    Cards in no hand, stack or sentence are set aside as taken earlier, so the pack adds up."""
    data = E.dump(E.new_game(n, 7))
    data.update(fields)
    data["hands"] = [list(h) for h in hands]
    data["stack"] = list(stack)
    rest = Counter(W.pack_for(n))
    rest.subtract(c for h in hands for c in h)
    rest.subtract(stack)
    rest.subtract(data["sentence"])
    data["taken"] = [{"seat": 0, "cards": sorted(rest.elements())}]
    return E.load(data)


def act(state, seat, kind, card=None, **extra):
    move = {"type": kind, **({"card": card} if card is not None else {}), **extra}
    assert move in E.legal_moves(state, seat), (seat, move, E.legal_moves(state, seat))
    return E.apply(state, seat, move)


def play_all(state, moves):
    """Play (seat, card) pairs in turn; a card prefixed with '^' is prepended."""
    for seat, card in moves:
        assert E.awaiting(state) == [seat]
        if card.startswith("^"):
            state = act(state, seat, "prepend", card[1:])
        else:
            state = act(state, seat, PLAY, card)
    return state


def cards_of(m: list[dict]) -> set[tuple[str, str | None]]:
    return {(x["type"], x.get("card")) for x in m}


# ---------------------------------------------------------------- deal and lead


def test_deal_four_each_one_at_a_time_from_left_of_dealer_and_dealer_leads():
    deck = list(W.ONE_PACK)
    state = E.new_game(3, 1, {"deck": deck, "dealer": 1})
    v = E.view(state, 2)
    assert v["hand"] == [deck[0], deck[3], deck[6], deck[9]]  # seat 2 is left of dealer 1
    assert E.view(state, 0)["hand"] == [deck[1], deck[4], deck[7], deck[10]]
    assert E.view(state, 1)["hand"] == [deck[2], deck[5], deck[8], deck[11]]
    assert v["hand_counts"] == [4, 4, 4] and v["stack_count"] == 44 - 12
    assert v["dealer"] == 1 and v["round"] == 1 and E.awaiting(state) == [1]
    assert v["sentence"] == [] and v["tricks"] == [0, 0, 0]
    assert v["scores"] == [{"plus": 0, "minus": 0, "standing": 0}] * 3
    # The stack's first element is on top: a stuck dealer draws deck[12].
    stuck = E.new_game(2, 1, {"deck": stacked(2, {0: ["Is", "Are", "With", "And"]}, ["Spies"])})
    after = act(stuck, 0, "draw")
    assert E.view(after, 0)["hand"][-1] == "Spies"


def test_lead_must_be_a_noun():
    state = game(2, {0: ["Happy", "Is", "Gulliver", "Spies"]})
    assert cards_of(E.legal_moves(state, 0)) == {(PLAY, "Gulliver"), (PLAY, "Spies")}
    with refused("starts with a noun"):
        E.apply(state, 0, {"type": PLAY, "card": "Happy"})
    assert E.view(state, 0)["playable"] == ["Gulliver", "Spies"]


# ---------------------------------------------------------------- the sheet's sentences


def test_first_example_is_complete_at_5_continues_and_is_taken_at_9():
    state = game(
        3,
        {
            0: ["Princess Glory", "Are", "King Bombo", "Sneak"],
            1: ["And", "Singing", "Is", "Snoop"],
            2: ["Gulliver", "And", "Astonished", "Snitch"],
        },
    )
    seq = [(0, "Princess Glory"), (1, "And"), (2, "Gulliver"), (0, "Are"), (1, "Singing")]
    state = play_all(state, seq)
    v = E.view(state, 0)
    assert v["complete"] and len(v["sentence"]) == 5 and v["tricks"] == [0, 0, 0]
    state = play_all(state, [(2, "And"), (0, "King Bombo")])
    assert not E.view(state, 0)["complete"] and len(E.view(state, 0)["sentence"]) == 7
    state = play_all(state, [(1, "Is"), (2, "Astonished")])
    v = E.view(state, 0)
    assert v["tricks"] == [0, 0, 1] and v["sentence"] == []
    trick = [e for e in E.events(state) if e["type"] == "trick"]
    assert trick == [
        {
            "type": "trick",
            "seat": 2,
            "cards": [c for _, c in seq] + ["And", "King Bombo", "Is", "Astonished"],
        }
    ]
    assert E.awaiting(state) == [0]  # left of the taker starts the next sentence
    assert v["starter"] is None


def test_second_example_is_taken_at_7_although_complete_at_3():
    state = game(
        3,
        {
            0: ["Prince David", "And", "Princess Glory", "Sneak"],
            1: ["Is", "Removes", "Snoop", "Spies"],
            2: ["Frightened", "Terrified", "Snitch", "Soldiers"],
        },
    )
    state = play_all(state, [(0, "Prince David"), (1, "Is"), (2, "Frightened")])
    assert E.view(state, 1)["complete"] and E.view(state, 1)["tricks"] == [0, 0, 0]
    state = play_all(state, [(0, "And"), (1, "Removes"), (2, "Terrified"), (0, "Princess Glory")])
    assert E.view(state, 1)["tricks"] == [1, 0, 0]
    assert E.awaiting(state) == [1]


def test_third_example_with_a_prepended_adjective_is_taken_at_7():
    state = game(
        3,
        {
            0: ["Gabby", "King Little", "Prepared", "Sneak"],
            1: ["Terrified", "Are", "Snoop", "Loves"],
            2: ["And", "Forever", "Snitch", "Removes"],
        },
    )
    state = play_all(state, [(0, "Gabby"), (1, "^Terrified")])
    v = E.view(state, 2)
    assert v["sentence"] == ["Terrified", "Gabby"] and v["prepended"] and v["starter"] == 0
    state = play_all(
        state, [(2, "And"), (0, "King Little"), (1, "Are"), (2, "Forever"), (0, "Prepared")]
    )
    assert E.view(state, 0)["tricks"] == [1, 0, 0]
    assert [e["cards"] for e in E.events(state) if e["type"] == "trick"] == [
        ["Terrified", "Gabby", "And", "King Little", "Are", "Forever", "Prepared"]
    ]


# ---------------------------------------------------------------- prepend


def test_prepend_may_take_the_trick_and_the_starter_may_not_prepend():
    state = game(
        3,
        {
            0: ["Gabby", "Are", "Loves", "Happy"],
            1: ["And", "Forever", "Terrified", "Removes"],
            2: ["King Little", "Prepared", "Captures", "Rescues"],
        },
        top=["Spies"],
    )
    seq = [(0, "Gabby"), (1, "And"), (2, "King Little"), (0, "Are"), (1, "Forever")]
    state = play_all(state, [*seq, (2, "Prepared")])
    assert E.view(state, 0)["complete"] and len(E.view(state, 0)["sentence"]) == 6
    # Seat 0 started the sentence: its 'Happy' may not go in front, and nothing fits the end.
    assert E.legal_moves(state, 0) == [{"type": "draw"}]
    assert E.view(state, 0)["prependable"] == []
    with refused("You started this sentence"):
        E.apply(state, 0, {"type": "prepend", "card": "Happy"})
    state = act(state, 0, "draw")
    assert cards_of(E.legal_moves(state, 1)) == {("prepend", "Terrified")}
    state = act(state, 1, "prepend", "Terrified")
    v = E.view(state, 1)
    assert v["tricks"] == [0, 1, 0] and v["sentence"] == [] and not v["prepended"]
    assert E.awaiting(state) == [2]


def test_prepend_only_once_per_sentence_and_never_on_an_empty_sentence():
    state = game(
        3,
        {
            0: ["Gulliver", "Happy", "Angry", "Spies"],
            1: ["Terrified", "Is", "Is", "Is"],
            2: ["Brave", "Is", "Are", "Are"],
        },
    )
    with refused("no sentence yet"):
        E.apply(state, 0, {"type": "prepend", "card": "Happy"})
    state = act(state, 0, PLAY, "Gulliver")
    assert ("prepend", "Terrified") in cards_of(E.legal_moves(state, 1))
    state = act(state, 1, "prepend", "Terrified")
    assert all(m["type"] != "prepend" for m in E.legal_moves(state, 2))
    with refused("only once"):
        E.apply(state, 2, {"type": "prepend", "card": "Brave"})
    assert E.view(state, 2)["sentence"] == ["Terrified", "Gulliver"]


def test_a_legal_prepend_counts_as_playable_so_no_draw():
    state = game(2, {0: ["Gulliver", "Is", "Is", "Is"], 1: ["Happy", "Are", "Are", "Are"]})
    state = act(state, 0, PLAY, "Gulliver")
    assert cards_of(E.legal_moves(state, 1)) == {("prepend", "Happy")}
    with refused("fits"):
        E.apply(state, 1, {"type": "draw"})


# ---------------------------------------------------------------- draw and pass


def test_draw_only_when_stuck_and_the_drawn_card_is_private():
    state = game(
        2, {0: ["Sweethearts", "Is", "Is", "With"], 1: ["Is", "Loves", "With", "Is"]}, top=["Are"]
    )
    state = act(state, 0, PLAY, "Sweethearts")
    assert E.legal_moves(state, 1) == [{"type": "draw"}]
    with refused("'Is' cannot follow 'Sweethearts': a plural subject"):
        E.apply(state, 1, {"type": PLAY, "card": "Is"})
    state = act(state, 1, "draw")
    assert E.view(state, 1)["hand"][-1] == "Are"
    assert E.view(state, 1)["stack_count"] == 44 - 8 - 1
    assert E.awaiting(state) == [0]  # drawing ends the turn
    mine = E.view(state, 1)["events"][-1]
    theirs = E.view(state, 0)["events"][-1]
    spectator = E.view(state, None)["events"][-1]
    assert mine == {"type": "draw", "seat": 1, "source": "stack", "card": "Are"}
    assert theirs["card"] is None and spectator["card"] is None
    assert E.events(state)[-1]["card"] == "Are"
    # Seat 0 holds nothing that follows 'Sweethearts' either; seat 1 now may play 'Are'.
    state = act(state, 0, "draw")
    assert (PLAY, "Are") in cards_of(E.legal_moves(state, 1))
    with refused("must play"):
        E.apply(state, 1, {"type": "draw"})


def test_pass_only_when_stuck_with_the_stack_empty():
    state = position(
        2, [["Gulliver", "Is"], ["Spies", "Happy"]], [], sentence=["Sneak"], starter=0, turn=1
    )
    # Seat 1 can put 'Happy' in front: that is a play, so no pass.
    assert cards_of(E.legal_moves(state, 1)) == {("prepend", "Happy")}
    with refused("fits"):
        E.apply(state, 1, {"type": "pass"})
    stuck = position(
        2, [["Gulliver"], ["Spies", "Sneak"]], [], sentence=["Sneak", "Is"], starter=0, turn=1
    )
    assert E.legal_moves(stuck, 1) == [{"type": "pass"}]
    with refused("stack is empty"):
        E.apply(stuck, 1, {"type": "draw"})
    with_stack = position(
        2, [["Gulliver"], ["Spies"]], ["Is"], sentence=["Sneak", "Is"], starter=0, turn=1
    )
    with refused("draw a card instead"):
        E.apply(with_stack, 1, {"type": "pass"})


# ---------------------------------------------------------------- end of a round and scoring


SIX = ["Prince David", "Is", "Frightened", "And", "Removes", "Terrified"]


def test_going_out_on_a_trick_ends_the_round_and_scores():
    state = position(
        3,
        [["Princess Glory"], ["Is", "Are"], ["With"]],
        ["Gulliver"],
        sentence=SIX,
        starter=0,
        turn=0,
        plus=[10, 0, 0],
        minus=[0, 0, 5],
    )
    state = act(state, 0, PLAY, "Princess Glory")
    assert E.round_over(state) and not E.is_over(state)
    assert E.awaiting(state) == [] and all(E.legal_moves(state, s) == [] for s in range(3))
    v = E.view(state, 1)
    assert v["scores"] == [
        {"plus": 10 + 20 + 20, "minus": 0, "standing": 50},
        {"plus": 0, "minus": 10, "standing": -10},
        {"plus": 0, "minus": 10, "standing": -10},
    ]
    end = E.events(state)[-1]
    assert end["type"] == "round_end" and end["out"] == 0 and end["held"] == [0, 2, 1]
    assert end["reason"] == "trick" and "hands" not in end  # counts, never which cards


def test_going_out_without_a_trick_lets_the_others_finish_skipping_the_empty_hand():
    state = position(
        3,
        [["Terrified"], ["Is"], ["Are"]],
        ["Sneak"],
        sentence=SIX[:5],
        starter=1,
        turn=0,
    )
    state = act(state, 0, PLAY, "Terrified")
    assert not E.round_over(state) and E.view(state, 0)["out"] == 0
    assert E.awaiting(state) == [1]
    state = act(state, 1, "draw")
    state = act(state, 2, "pass")
    assert E.awaiting(state) == [1]  # seat 0 holds nothing and is skipped
    state = act(state, 1, PLAY, "Sneak")
    assert E.round_over(state)
    v = E.view(state, 2)
    assert v["tricks"] == [0, 1, 0]
    assert [x["standing"] for x in v["scores"]] == [20, 20 - 5, -5]
    assert [x["minus"] for x in v["scores"]] == [0, 5, 5]


def test_everyone_passing_ends_the_round_and_the_open_sentence_scores_nobody():
    state = position(
        3,
        [["Sneak", "Spies"], ["Removes"], ["Loves", "Captures", "Rescues"]],
        [],
        sentence=["Gulliver", "Is"],
        starter=1,
        turn=0,
        tricks=[0, 1, 0],
    )
    state = act(state, 0, "pass")
    state = act(state, 1, "pass")
    assert not E.round_over(state)
    state = act(state, 2, "pass")
    assert E.round_over(state)
    v = E.view(state, 0)
    assert v["tricks"] == [0, 1, 0]
    assert v["scores"] == [
        {"plus": 0, "minus": 10, "standing": -10},
        {"plus": 20, "minus": 5, "standing": 15},
        {"plus": 0, "minus": 15, "standing": -15},
    ]
    assert E.events(state)[-1]["reason"] == "all_passed"
    assert E.events(state)[-1]["held"] == [2, 1, 3]


def test_a_pass_run_is_broken_by_a_play():
    state = position(
        3, [["Sneak"], ["Spies"], ["Is", "Loves"]], [], sentence=["Gulliver"], starter=0, turn=1
    )
    state = act(state, 1, "pass")
    state = act(state, 2, PLAY, "Is")
    state = act(state, 0, "pass")
    state = act(state, 1, "pass")
    assert not E.round_over(state)  # seat 1's first pass came before the play
    state = act(state, 2, "pass")
    assert E.round_over(state)


def test_minus_column_accumulates_over_rounds_and_standing_goes_below_zero():
    state = position(
        2,
        [["Sneak", "Spies"], ["Removes"]],
        [],
        sentence=["Gulliver", "Is"],
        starter=1,
        turn=0,
        plus=[20, 0],
        minus=[30, 0],
    )
    state = act(act(state, 0, "pass"), 1, "pass")
    v = E.view(state, 0)
    assert v["scores"][0] == {"plus": 20, "minus": 40, "standing": -20}
    assert E.outcome(state) == {"winners": [], "draw": False, "scores": [-20, -5]}


# ---------------------------------------------------------------- winning


def _going_out_round(plus, minus=(0, 0, 0), rnd=1, target=250):
    """Seat 0 goes out on a trick (+40); seat 1 holds 1 card (-5), seat 2 holds 2 (-10)."""
    state = position(
        3,
        [["Princess Glory"], ["Is"], ["With", "Are"]],
        [],
        sentence=SIX,
        starter=0,
        turn=0,
        plus=list(plus),
        minus=list(minus),
        round=rnd,
        target=target,
    )
    return act(state, 0, PLAY, "Princess Glory")


def test_reaching_250_wins():
    state = _going_out_round([215, 0, 0])
    assert E.is_over(state) and not E.round_over(state)
    assert E.outcome(state) == {"winners": [0], "draw": False, "scores": [255, -5, -10]}
    assert E.events(state)[-1]["type"] == "end"
    assert E.awaiting(state) == []
    assert E.view(state, 1)["hands"] == [[], ["Is"], ["With", "Are"]]


def test_several_over_250_the_highest_wins():
    state = _going_out_round([215, 300, 0])
    assert E.is_over(state) and E.outcome(state)["winners"] == [1]


def test_level_at_the_top_over_250_plays_another_round():
    state = _going_out_round([235, 280, 0])  # 275 and 275
    assert not E.is_over(state) and E.round_over(state)
    nxt = E.next_round(state)
    assert E.view(nxt, 0)["round"] == 2 and E.awaiting(nxt) == [1]


def test_a_custom_target():
    assert E.is_over(_going_out_round([0, 0, 0], target=40))
    assert not E.is_over(_going_out_round([0, 0, 0], target=41))


def test_round_100_safety_net():
    assert E.round_over(_going_out_round([0, 0, 0], rnd=99))
    state = _going_out_round([0, 0, 0], rnd=100)
    assert E.is_over(state) and E.outcome(state) == {
        "winners": [0],
        "draw": False,
        "scores": [40, -5, -10],
    }
    tie = position(
        3,
        [["Sneak"], ["Spies"], ["Loves", "Captures"]],
        [],
        sentence=["Gulliver", "Is"],
        starter=2,
        turn=0,
        round=100,
    )
    for seat in (0, 1, 2):
        tie = act(tie, seat, "pass")
    assert E.is_over(tie)
    assert E.outcome(tie) == {"winners": [0, 1], "draw": True, "scores": [-5, -5, -10]}


# ---------------------------------------------------------------- next round


def test_next_round_deals_again_and_the_dealer_passes_left():
    state = position(
        2,
        [["Sneak"], ["Spies"]],
        [],
        sentence=["Gulliver", "Is"],
        starter=0,
        turn=0,
        dealer=1,
        tricks=[1, 0],
    )
    with refused("still being played"):
        E.next_round(state)
    state = act(act(state, 0, "pass"), 1, "pass")
    nxt = E.next_round(state)
    v = E.view(nxt, 0)
    assert v["round"] == 2 and v["dealer"] == 0 and E.awaiting(nxt) == [0]
    assert v["hand_counts"] == [4, 4] and v["stack_count"] == 36 and v["tricks"] == [0, 0]
    assert v["sentence"] == [] and not v["round_over"]
    assert [s["standing"] for s in v["scores"]] == [15, -5]
    assert E.events(nxt)[-1] == {
        "type": "deal",
        "seat": None,
        "round": 2,
        "dealer": 0,
        "hand_counts": [4, 4],
        "stack_count": 36,
    }
    assert E.state_hash(E.next_round(state)) == E.state_hash(nxt)  # from the seed
    # A new round is a fresh, complete pack.
    every = [c for h in E.dump(nxt)["hands"] for c in h] + E.dump(nxt)["stack"]
    assert sorted(every) == sorted(W.ONE_PACK)


def test_the_deck_option_fixes_the_first_deal_only():
    deck = list(W.ONE_PACK)
    a = E.new_game(2, 1, {"deck": deck})
    b = E.new_game(2, 2, {"deck": deck})
    assert E.dump(a)["hands"] == E.dump(b)["hands"] and E.dump(a)["stack"] == E.dump(b)["stack"]
    assert E.dump(E.new_game(2, 1))["hands"] == E.dump(E.new_game(2, 1))["hands"]
    assert E.dump(E.new_game(2, 1))["stack"] != E.dump(E.new_game(2, 2))["stack"]


# ---------------------------------------------------------------- two packs


@pytest.mark.parametrize("n", [7, 8])
def test_seven_or_eight_players_use_two_packs(n):
    state = E.new_game(n, 3)
    v = E.view(state, None)
    assert sum(v["hand_counts"]) + v["stack_count"] == 88 and v["hand_counts"] == [4] * n
    data = E.dump(state)
    assert sorted([c for h in data["hands"] for c in h] + data["stack"]) == sorted(W.ONE_PACK * 2)
    with pytest.raises(ValueError, match="permutation"):
        E.new_game(n, 3, {"deck": list(W.ONE_PACK)})
    assert E.new_game(n, 3, {"deck": list(W.ONE_PACK) * 2})
    with pytest.raises(ValueError, match="permutation"):
        E.new_game(6, 3, {"deck": list(W.ONE_PACK) * 2})


# ---------------------------------------------------------------- challenges


def chal_game(n, hands, top=()):
    return game(n, hands, top, challenges=True)


def vote(state, votes: dict[int, bool]):
    for seat, accept in votes.items():
        assert seat in E.awaiting(state)
        state = act(state, seat, "vote", accept=accept)
    return state


def test_challenges_are_off_by_default():
    state = game(3, {0: ["Gulliver", "Is", "Is", "Is"]})
    state = act(state, 0, PLAY, "Gulliver")
    assert all(m["type"] != "challenge" for s in range(3) for m in E.legal_moves(state, s))
    with refused("Challenges are off"):
        E.apply(state, 2, {"type": "challenge"})


def test_a_strict_majority_lets_the_card_stand_and_votes_are_awaited():
    state = chal_game(3, {0: ["Gulliver", "Is", "Is", "Is"], 1: ["Is", "Loves", "And", "And"]})
    state = act(state, 0, PLAY, "Gulliver")
    assert E.legal_moves(state, 0) == []  # not one's own card
    assert E.legal_moves(state, 2) == [{"type": "challenge"}]  # not awaited, still may
    assert {"type": "challenge"} in E.legal_moves(state, 1)
    state = act(state, 2, "challenge")
    assert E.awaiting(state) == [0, 1, 2]
    assert E.view(state, 1)["challenge"] == {
        "seat": 0,
        "card": "Gulliver",
        "kind": "play",
        "challenger": 2,
        "votes": [None, None, None],
    }
    with refused("being voted on"):
        E.apply(state, 1, {"type": PLAY, "card": "Is"})
    state = act(state, 1, "vote", accept=False)
    assert E.awaiting(state) == [0, 2]
    assert E.view(state, 0)["challenge"]["votes"] == [None, False, None]  # public as cast
    with refused("already voted"):
        E.apply(state, 1, {"type": "vote", "accept": True})
    state = vote(state, {0: True, 2: True})
    v = E.view(state, 1)
    assert v["challenge"] is None and v["sentence"] == ["Gulliver"]
    assert E.awaiting(state) == [1] and v["last_play"] is None
    assert E.events(state)[-1]["stands"] is True
    assert {"type": "challenge"} not in E.legal_moves(state, 2)


@pytest.mark.parametrize(
    ("n", "votes"), [(2, {0: True, 1: False}), (4, {0: True, 1: True, 2: False, 3: False})]
)
def test_a_tie_rejects_and_the_first_card_is_undone(n, votes):
    state = chal_game(n, {0: ["Gulliver", "Is", "Is", "Is"], 1: ["Spies", "Are", "And", "And"]})
    state = act(state, 0, PLAY, "Gulliver")
    state = vote(act(state, 1, "challenge"), votes)
    v = E.view(state, 0)
    assert (
        v["sentence"] == [] and v["starter"] is None and v["hand"] == ["Is", "Is", "Is", "Gulliver"]
    )
    assert v["revealed"][0] == ["Gulliver"] and v["hand_counts"][0] == 4
    assert E.awaiting(state) == [1]  # the turn stays passed
    assert E.events(state)[-1]["stands"] is False
    state = act(state, 1, PLAY, "Spies")
    assert E.view(state, 0)["starter"] == 1


def test_a_card_taken_back_can_be_played_again():
    state = chal_game(
        2, {0: ["Gulliver", "Is", "Is", "Is"], 1: ["Are", "And", "And", "With"]}, top=["Removes"]
    )
    state = act(state, 0, PLAY, "Gulliver")
    state = vote(act(state, 1, "challenge"), {0: False, 1: False})
    state = act(state, 1, "draw")  # seat 1 holds no noun to start the empty sentence
    state = act(state, 0, PLAY, "Gulliver")
    v = E.view(state, 1)
    assert v["sentence"] == ["Gulliver"] and v["revealed"][0] == [] and v["starter"] == 0


def test_a_rejected_prepend_gives_the_allowance_back():
    state = chal_game(
        3,
        {
            0: ["Gabby", "Is", "Is", "Is"],
            1: ["Terrified", "And", "And", "Are"],
            2: ["Happy", "Loves", "Removes", "Captures"],
        },
    )
    state = act(state, 0, PLAY, "Gabby")
    state = act(state, 1, "prepend", "Terrified")
    state = vote(act(state, 2, "challenge"), {0: False, 1: True, 2: False})
    v = E.view(state, 2)
    assert v["sentence"] == ["Gabby"] and not v["prepended"]
    assert E.view(state, 1)["hand"].count("Terrified") == 1
    assert ("prepend", "Happy") in cards_of(E.legal_moves(state, 2))


def test_a_rejected_last_card_brings_its_player_back_in():
    state = position(
        3,
        [["Terrified"], ["Is"], ["Are"]],
        ["Sneak"],
        sentence=SIX[:5],
        starter=1,
        turn=0,
        challenges=True,
    )
    state = act(state, 0, PLAY, "Terrified")
    assert E.view(state, 0)["out"] == 0
    state = vote(act(state, 1, "challenge"), {0: True, 1: False, 2: False})
    v = E.view(state, 0)
    assert v["out"] is None and v["hand"] == ["Terrified"] and v["sentence"] == SIX[:5]
    assert E.awaiting(state) == [1]


def test_the_trick_card_cannot_be_challenged():
    state = position(
        3,
        [["Princess Glory", "Sneak"], ["Is"], ["Are"]],
        ["Gulliver"],
        sentence=SIX,
        starter=0,
        turn=0,
        challenges=True,
    )
    state = act(state, 0, PLAY, "Princess Glory")
    assert E.view(state, 1)["tricks"] == [1, 0, 0]
    assert all({"type": "challenge"} not in E.legal_moves(state, s) for s in range(3))
    with refused("takes a trick never"):
        E.apply(state, 2, {"type": "challenge"})


def test_the_challenge_window_closes_on_the_next_move():
    state = chal_game(3, {0: ["Gulliver", "Sneak", "Snoop", "Snitch"], 1: ["Is", "Loves"]})
    state = act(state, 0, PLAY, "Gulliver")
    state = act(state, 1, PLAY, "Is")
    with refused("cannot challenge your own"):
        E.apply(state, 1, {"type": "challenge"})
    # Only 'Is' (seat 1's card) may be challenged now, by seat 0 or 2.
    state = act(state, 0, "challenge")
    assert E.view(state, 2)["challenge"]["card"] == "Is"


# ---------------------------------------------------------------- bad input


def test_value_errors():
    for n in (1, 9, "3", True):
        with pytest.raises(ValueError):
            E.new_game(n, 1)
    bad = [
        {"colour": "red"},
        {"dealer": 3},
        {"dealer": True},
        {"target": 0},
        {"target": "250"},
        {"challenges": "yes"},
        {"deck": list(W.ONE_PACK)[:-1]},
        {"deck": [*list(W.ONE_PACK)[:-1], "Gulliver"]},
        {"deck": "Gulliver"},
    ]
    for options in bad:
        with pytest.raises(ValueError):
            E.new_game(3, 1, options)
    with pytest.raises(ValueError):
        E.new_game(3, 1, ["deck"])


@pytest.mark.parametrize(
    ("seat", "move", "message"),
    [
        (1, {"type": PLAY, "card": "Gulliver"}, "not your turn: seat 0"),
        (0, {"type": PLAY, "card": "Sneak"}, "do not hold 'Sneak'"),
        (0, {"type": PLAY, "card": "Lilliput"}, "no card called"),
        (0, {"type": PLAY, "card": 3}, "no card called"),
        (0, {"type": PLAY}, "takes 'card'"),
        (0, {"type": PLAY, "card": "Gulliver", "extra": 1}, "takes 'card'"),
        (0, {"type": "draw", "card": "Gulliver"}, "takes nothing else"),
        (0, {"type": "fly"}, "Unknown move"),
        (0, {"card": "Gulliver"}, "dict with a 'type'"),
        (0, "play Gulliver", "dict with a 'type'"),
        (0, {"type": "vote", "accept": True}, "no challenge to vote on"),
        (0, {"type": "vote", "accept": "yes"}, "true or false"),
        (0, {"type": "pass"}, "fits"),
        (0, {"type": PLAY, "card": "Is"}, "starts with a noun"),
        (0, {"type": "prepend", "card": "Is"}, "Only an adjective"),
    ],
)
def test_illegal_moves_are_refused_with_a_reason_and_nothing_changes(seat, move, message):
    state = game(3, {0: ["Gulliver", "Is", "Happy", "Are"]})
    before = E.dump(state)
    with refused(message):
        E.apply(state, seat, move)
    assert E.dump(state) == before


def test_bad_seats_are_refused():
    state = game(3, {})
    for seat in (3, -1, None, "0"):
        with refused("no seat"):
            E.apply(state, seat, {"type": "draw"})
        assert E.legal_moves(state, seat) == []


def test_apply_does_not_mutate_its_input_and_siblings_keep_their_own_events():
    state = game(3, {0: ["Gulliver", "Spies", "Is", "Is"]})
    before = E.dump(state)
    dealt = E.events(state)
    a = E.apply(state, 0, {"type": PLAY, "card": "Gulliver"})
    b = E.apply(state, 0, {"type": PLAY, "card": "Spies"})
    assert E.dump(state) == before and E.events(state) == dealt
    play = {"type": PLAY, "seat": 0, "complete": False}
    assert E.events(a) == [{**play, "card": "Gulliver"}]
    assert E.events(b) == [{**play, "card": "Spies"}]
    moves = E.legal_moves(state, 0)
    moves[0]["card"] = "Is"  # the caller's copy; the engine's own list is untouched
    assert cards_of(E.legal_moves(state, 0)) == {(PLAY, "Gulliver"), (PLAY, "Spies")}


# ---------------------------------------------------------------- views


def test_spectator_and_seat_views_show_only_public_facts():
    state = game(
        2, {0: ["Is", "Is", "With", "And"], 1: ["Gulliver", "Are", "And", "With"]}, top=["Spies"]
    )
    state = act(state, 0, "draw")
    spec = E.view(state, None)
    assert spec["hand"] == [] and spec["legal_moves"] == [] and spec["seat"] is None
    assert spec["playable"] == [] and spec["hand_counts"] == [5, 4]
    assert spec["events"][-1]["card"] is None
    assert not {"seed", "stack", "hands", "deck"} & set(spec)
    seat1 = E.view(state, 1)
    assert seat1["hand"] == ["Gulliver", "Are", "And", "With"]
    assert seat1["playable"] == ["Gulliver"]
    assert seat1["legal_moves"] == [{"type": PLAY, "card": "Gulliver"}]
    assert "Spies" not in repr(seat1) and "Spies" in repr(E.view(state, 0))
    keys = {
        "seat",
        "hand",
        "hand_counts",
        "awaiting",
        "legal_moves",
        "events",
        "over",
        "outcome",
        "sentence",
        "prepended",
        "stack_count",
        "tricks",
        "scores",
        "round",
        "dealer",
        "challenge",
        "turn",
        "round_over",
        "target",
        "complete",
        "playable",
        "starter",
    }
    assert keys <= set(seat1)
    json.dumps(seat1)


def test_explain_is_available_for_the_site():
    state = game(2, {0: ["Sweethearts", "Is", "Is", "Is"], 1: ["Is", "With", "Loves", "Removes"]})
    state = act(state, 0, PLAY, "Sweethearts")
    assert reason_words(E.explain(state, 1, {"type": PLAY, "card": "Is"})) == (
        "'Is' cannot follow 'Sweethearts': a plural subject takes 'Are'."
    )
    assert E.explain(state, 1, {"type": "draw"}) is None


def test_each_state_carries_only_its_own_steps_events_and_hands_out_copies():
    state = game(2, {0: ["Is", "Is", "With", "And"]}, top=["Spies"])
    assert [e["type"] for e in E.events(state)] == ["deal"]
    drawn = act(state, 0, "draw")
    (event,) = E.events(drawn)
    assert event == {
        "type": "draw",
        "seat": 0,
        "source": "stack",
        "card": "Spies",
        **{"private": ["card"]},
    }
    assert (
        E.view(drawn, 1)["events"]
        == E.redact([event], 1)
        == [{"type": "draw", "seat": 0, "source": "stack", "card": None}]
    )
    E.events(drawn)[0]["card"] = "Gulliver"
    E.view(drawn, 0)["events"][0]["card"] = "Gulliver"
    assert E.events(drawn)[0]["card"] == "Spies"
    dump = E.dump(drawn)
    assert "events" not in dump and E.events(E.load(dump)) == []
    again = E.load({**dump, "events": [event]})  # an older dump's log is ignored
    assert E.dump(again) == dump and E.events(again) == []


def test_gullivers_title():
    assert E.title == "Gulliver's Travels"

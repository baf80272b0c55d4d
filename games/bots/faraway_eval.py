"""A learned evaluation of a Faraway Tree position: each seat's share of the win.

The strong bot's rollouts stop after a few turns; the position reached is scored by a
conditional logit model, ``P(seat s wins) = exp(w . f_s) / sum_j exp(w . f_j)``, over a few
features of each seat (``seat_features``). The weights were fitted by
``games/lab/fit_faraway_eval.py`` to who won seeded greedy self-play games from positions met
along the way, one weight vector per table size (the rollouts play greedy too, so the model
predicts what they would lead to).

It reads the fields of a full state, which in the search is always a state the bot dealt itself
(a determinization): looking at every hand is looking at its own guess.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from games.engines.faraway import DRAW, penalty_victim
from games.engines.faraway_cards import PENALTY_CODE, PENALTY_NUMBER, STORY_CODE, STORY_NUMBER

FEATURES = (
    "height",  # story cards laid
    "height_sq",  # height squared / 9: the last cards are worth more than the first
    "run",  # cards held in a row from the next one needed
    "reach_sq",  # (height + run) squared / 9
    "near",  # cards held just above that run (one or two steps)
    "missed",  # turns the seat must still miss
    "to_move",  # turns until this seat starts a turn (0: it is its turn)
    "drawn",  # it is this seat's turn and it has drawn already
    "need_on_top",  # the card it needs lies among the three drawable discards
    "need_in_pack",  # share of the pack that is the card it needs
    "threat",  # another seat holds the Penalty that would hit it now
    "can_hit",  # it holds a Penalty that would hit someone now
    "penalties",  # Penalty cards held
    "dead",  # dead story cards held (already in its row)
    "hand",  # cards held
)

# Fitted by ``python -m games.lab.fit_faraway_eval --players 2 3 4 --games 6000 --keep 0.1
# --seed 11`` (held-out log loss 0.504 / 0.811 / 1.048 at 2 / 3 / 4 seats, against the hand-made
# evaluation's 0.575 / 0.905 / 1.171).
WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (
        0.2623,  # height
        0.4598,  # height_sq
        0.0717,  # run
        0.3620,  # reach_sq
        0.1421,  # near
        -0.2413,  # missed
        -0.1088,  # to_move
        -0.4421,  # drawn
        0.4639,  # need_on_top
        0.4009,  # need_in_pack
        -0.0580,  # threat
        0.0580,  # can_hit
        0.0157,  # penalties
        -0.0384,  # dead
        0.2146,  # hand
    ),
    3: (
        0.4513,  # height
        0.5174,  # height_sq
        0.1635,  # run
        0.2105,  # reach_sq
        0.1659,  # near
        -0.5270,  # missed
        -0.1591,  # to_move
        -0.5701,  # drawn
        0.2985,  # need_on_top
        0.1036,  # need_in_pack
        -0.3838,  # threat
        -0.0792,  # can_hit
        -0.0659,  # penalties
        -0.0989,  # dead
        0.2333,  # hand
    ),
    4: (
        0.5771,  # height
        0.3890,  # height_sq
        0.1470,  # run
        0.2625,  # reach_sq
        0.1833,  # near
        -0.7228,  # missed
        -0.1430,  # to_move
        -0.6836,  # drawn
        0.2281,  # need_on_top
        0.2287,  # need_in_pack
        -0.5552,  # threat
        -0.1500,  # can_hit
        -0.0891,  # penalties
        -0.1122,  # dead
        0.2315,  # hand
    ),
}


def seat_features(state: Any, seat: int) -> list[float]:
    """The features of ``seat`` in ``state`` (a full state: the search's own deal)."""
    n = state.n
    height = state.rows[seat]
    need = height + 1
    hand = state.hands[seat]
    held = set()
    penalties = dead = 0
    can_hit = 0
    for card in hand:
        if card[0] == "P":
            penalties += 1
            if not can_hit:
                number = PENALTY_NUMBER[card]
                if penalty_victim(number, seat, state.rows, state.pens) is not None:
                    can_hit = 1
            continue
        number = STORY_NUMBER[card]
        if number < need:
            dead += 1
        held.add(number)
    run = 0
    while need + run in held:
        run += 1
    near = sum(1 for c in held if need + run < c <= need + run + 2)
    pen = state.pens[seat]
    missed = pen[1] if pen else 0
    to_move = (seat - state.turn) % n
    drawn = 1 if to_move == 0 and state.phase != DRAW else 0
    need_code = STORY_CODE.get(need, "")
    need_on_top = 1 if need_code and need_code in state.discards[-3:] else 0
    pack = state.pack
    need_in_pack = pack.count(need_code) / len(pack) if pack and need_code else 0.0
    threat = 0
    # As fitted: some rival holds the Penalty bearing this seat's height (whether or not a seat
    # nearer that rival's left would take it first). No Penalty bears 0, 1 or 9.
    code = PENALTY_CODE.get(height)
    if pen is None and code is not None:
        for other in range(n):
            if other != seat and code in state.hands[other]:
                threat = 1
                break
    reach = height + run
    return [
        float(height),
        height * height / 9.0,
        float(run),
        reach * reach / 9.0,
        float(near),
        float(missed),
        float(to_move),
        float(drawn),
        float(need_on_top),
        need_in_pack,
        float(threat),
        float(can_hit),
        float(penalties),
        float(dead),
        float(len(hand)),
    ]


def shares(scores: Sequence[float]) -> list[float]:
    """Softmax of the seats' scores: each seat's share of the win."""
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def win_shares(state: Any, weights: Sequence[float]) -> list[float]:
    """Each seat's modelled share of the win from ``state`` (not yet over)."""
    scores = []
    for seat in range(state.n):
        f = seat_features(state, seat)
        scores.append(sum(w * x for w, x in zip(weights, f, strict=True)))
    return shares(scores)

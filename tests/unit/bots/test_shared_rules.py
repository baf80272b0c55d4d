"""The bots take the games' rules from the engines (issue 22): no copy of their own."""

from __future__ import annotations

import random

from games.bots import faraway as faraway_bot
from games.bots import faraway_eval, gulliver_inference
from games.bots import gulliver as gulliver_bot
from games.engines import faraway as faraway_engine
from games.engines import faraway_cards
from games.engines import gulliver as gulliver_engine


def test_faraway_bots_use_the_engines_rules_and_cards():
    assert faraway_bot.penalty_victim is faraway_engine.penalty_victim
    assert faraway_eval.penalty_victim is faraway_engine.penalty_victim
    assert faraway_bot.opponents_left_of is faraway_engine.opponents_left_of
    assert faraway_bot.PENALTY_TURNS is faraway_cards.PENALTY_TURNS
    assert faraway_bot.PACK_COUNTS is faraway_cards.PACK_COUNTS
    for name in ("PACK", "STORY"):  # the bot's own copies are gone
        assert not hasattr(faraway_bot, name), name


def test_gulliver_bots_use_the_engines_rules():
    assert gulliver_bot.round_points is gulliver_engine.round_points
    assert gulliver_bot.next_holder is gulliver_engine.next_holder
    assert gulliver_inference.lay_moves is gulliver_engine.lay_moves


def test_next_player_is_the_next_rival_holding_cards():
    rng = random.Random(3)
    for _ in range(500):
        n = rng.randint(2, 8)
        counts = [rng.choice((0, 0, 1, 2, 4)) for _ in range(n)]
        seat = rng.randrange(n)
        obs = gulliver_bot.Obs(seat, ["And"], counts, [], False, None, [], [[] for _ in counts])
        rivals = [(seat + k) % n for k in range(1, n) if counts[(seat + k) % n]]
        assert gulliver_bot.next_player(obs, False) == (rivals[0] if rivals else None)

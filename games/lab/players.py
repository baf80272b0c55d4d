"""Who may sit at a lab table: the site's bot levels, today's strong bot as a yardstick, and
two oracles that cheat on purpose to measure how much hidden information is worth.

- ``random``, ``greedy``, ``strong``: the levels players meet (``games.bots.choose_move``),
  handed the public move log as the worker hands it.
- ``baseline``: the strong bot as it stood before issue 13 (the flat paired search with the
  determinizations dealt by ``engine.sample_state`` alone, blind to what play revealed), kept so
  that every change is measured against it in the same run.
- ``posterior`` (Gulliver's Travels only): the strong bot with its deals drawn from the whole
  posterior of what the round's log reveals (``games.lab.posterior``, a Markov chain run
  before the search, outside its budget): fair, but too slow to offer; it bounds what better
  sampling of the same evidence could add.
- ``oracle-hands``: ``baseline``'s search handed every hand; only the order of the pack (or
  stack) is dealt at random. ``oracle-full``: handed the whole state, pack order included.
  Neither is fair, and neither is ever offered on the site: they bound what information could
  add to that search (the ceiling in docs/bots.md).

Only this module (and the tournament that calls it) ever hands a bot the true state.
"""

from __future__ import annotations

import random
from typing import Any

import games.bots as bots
from games.bots import Budget, History, Move, View
from games.bots.common import bot_rng, playable_moves
from games.bots.faraway import FarawaySearch
from games.bots.gulliver import GulliverSearch
from games.bots.gulliver_inference import RoundLog, restacked
from games.bots.search import Sampler, search
from games.engines import get_engine
from games.lab.posterior import PosteriorDeals

PLAYERS = ("random", "greedy", "strong", "baseline", "posterior", "oracle-hands", "oracle-full")
# Players that sit at one game's tables only.
ONLY_FOR = {"posterior": "gulliver"}


def not_for(game: str, players: list[str]) -> list[str]:
    """Those of ``players`` that cannot sit at ``game``'s tables."""
    return [p for p in dict.fromkeys(players) if ONLY_FOR.get(p, game) != game]


# The knowledge of the strong bot before issue 13, which the baseline and the oracles search with.
BASELINE_KNOWLEDGE = {"faraway": FarawaySearch, "gulliver": GulliverSearch}


def pack_shuffled(truth: Any, rng: random.Random) -> Any:
    """The true state with only the undealt cards reordered (and a fresh seed for any later
    shuffle): what a player who saw every hand but not the pack would consider."""
    if hasattr(truth, "pack"):  # the Faraway Tree: the pack's top is the tuple's end
        state = truth.clone()
        pack = list(truth.pack)
        rng.shuffle(pack)
        state.pack = tuple(pack)
        state.seed = rng.getrandbits(64)
        return state
    return restacked(truth, rng)  # Gulliver's Travels: the stack is dealt from ``sp`` on


def oracle_sampler(player: str, truth: Any) -> Sampler:
    if player == "oracle-full":
        return lambda rng: truth
    return lambda rng: pack_shuffled(truth, rng)


def decide(
    player: str,
    game: str,
    view: View,
    *,
    truth: Any,
    history: History,
    seed: int,
    budget: Budget | None,
) -> Move:
    """The move ``player`` makes in ``view``; ``truth`` is read by the oracles only."""
    if player in bots.LEVELS:
        return bots.choose_move(game, player, view, seed=seed, budget=budget, history=history)
    if player not in PLAYERS:
        raise ValueError(f"Unknown player {player!r}; choose one of {', '.join(PLAYERS)}.")
    if not_for(game, [player]):
        raise ValueError(f"The {player} player is for {ONLY_FOR[player]} only.")
    moves = playable_moves(view["legal_moves"])
    if len(moves) == 1:
        return dict(moves[0])
    engine = get_engine(game)
    rng = bot_rng(game, "strong", seed)
    greedy = bots.GAME_BOTS[game].greedy_move(view, moves, rng)
    sample: Sampler | None = None
    if player == "posterior":
        knowledge = bots.KNOWLEDGE[game](len(view["hand_counts"]))
        log = RoundLog(view, history)
        if log.informative:
            sample = PosteriorDeals(engine, view, log, rng)
    else:
        knowledge = BASELINE_KNOWLEDGE[game](len(view["hand_counts"]))
        if player != "baseline":
            sample = oracle_sampler(player, truth)
    move, _ = search(
        engine, knowledge, view, moves, greedy, rng, budget or bots.DEFAULT_BUDGET, sample=sample
    )
    return dict(move)

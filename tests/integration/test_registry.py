"""One registry of games (``games.engines``): the models, the forms, the bots, the presentation
and the templates all offer exactly the games it names, under the titles it gives."""

from __future__ import annotations

import pytest
from django.template.loader import get_template

from games import bots, presentation
from games.engines import ENGINE_NAMES, GAME_TITLES, get_engine
from games.forms import MatchNewForm
from games.models import Match


def test_the_match_model_offers_exactly_the_registered_games_and_titles():
    assert dict(Match.Game.choices) == GAME_TITLES
    assert tuple(GAME_TITLES) == ENGINE_NAMES
    assert all(get_engine(name).title == title for name, title in GAME_TITLES.items())


def test_the_new_match_form_offers_the_registered_games():
    assert dict(MatchNewForm().fields["game"].choices) == GAME_TITLES


@pytest.mark.parametrize("game", ENGINE_NAMES)
def test_every_registered_game_has_bots_a_presentation_and_templates(game):
    assert set(presentation.BUILDERS) == set(bots.GAME_BOTS) == set(bots.KNOWLEDGE)
    assert set(bots.GAME_BOTS) == set(ENGINE_NAMES)
    engine = get_engine(game)
    state = engine.new_game(engine.min_players, 1, {})
    seat = engine.awaiting(state)[0]
    view = engine.view(state, seat)
    for level in bots.LEVELS:
        move = bots.choose_move(game, level, view, seed=1, budget=bots.Budget(iterations=2))
        assert move in engine.legal_moves(state, seat)
    names = [f"p{i}" for i in range(engine.min_players)]
    table = presentation.table_build(game, view=view, names=names, log=[])
    get_template(table["board_template"])  # raises if the game's board template is missing

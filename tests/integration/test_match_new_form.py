"""The new-match form without its script: every game's options show, each group under its
game's title; the server reads only the chosen game's and ignores another game's, whatever was
typed there."""

from __future__ import annotations

import html
import re

import pytest

from games.engines import registered
from games.models import Match

pytestmark = pytest.mark.django_db


def test_each_games_options_are_labelled_with_the_game(ann_client):
    page = ann_client.get("/matches/new/").content.decode()
    for engine in registered():
        if not engine.options:
            continue
        group = re.search(
            rf'<fieldset class="game-options" data-game="{engine.name}"[^>]*>(.*?)</fieldset>',
            page,
            re.S,
        )
        assert group, engine.name
        text = html.unescape(group.group(1))
        assert f"<legend>{engine.title} options</legend>" in text
        for option in engine.options:
            assert option.label in text


def test_another_games_options_are_ignored_not_refused(ann_client):
    engines = registered()
    with_options = next(e for e in engines if e.options)
    other = next(e for e in engines if e.name != with_options.name)
    garbage = {o.name: "not-a-number" for o in with_options.options if o.kind == "int"}
    response = ann_client.post(
        "/matches/new/",
        {
            "game": other.name,
            "num_players": other.min_players,
            "seat_0": "me",
            "seat_1": "person",
            **garbage,
        },
    )
    assert response.status_code == 302, response.content.decode()
    match = Match.objects.get()
    assert match.game == other.name and not set(garbage) & set(match.options)


def test_the_chosen_games_options_are_still_checked(ann_client):
    engine = next(e for e in registered() if any(o.kind == "int" for o in e.options))
    option = next(o for o in engine.options if o.kind == "int")
    response = ann_client.post(
        "/matches/new/",
        {
            "game": engine.name,
            "num_players": engine.min_players,
            "seat_0": "me",
            "seat_1": "person",
            option.name: str(option.minimum - 1),
        },
    )
    assert response.status_code == 400
    assert not Match.objects.exists()

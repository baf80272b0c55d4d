"""Input parsing for the games pages; rules and limits come from the engines."""

from __future__ import annotations

import json
from typing import Any

from django import forms

from games.engines import get_engine
from games.models import Match


class MatchNewForm(forms.Form):
    game = forms.ChoiceField(
        choices=Match.Game.choices, widget=forms.RadioSelect, initial=Match.Game.FARAWAY
    )
    num_players = forms.IntegerField(label="Seats", min_value=2, max_value=8, initial=2)
    target = forms.IntegerField(
        label="Winning score",
        required=False,
        min_value=20,
        max_value=1000,
        help_text="Gulliver only; 250 in the printed rules.",
    )
    challenges = forms.BooleanField(
        label="Allow challenges", required=False, help_text="Gulliver only; a vote on each card."
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game, seats = data.get("game"), data.get("num_players")
        if game and seats is not None:
            engine = get_engine(game)
            if not engine.min_players <= seats <= engine.max_players:
                self.add_error(
                    "num_players",
                    f"{Match.Game(game).label} is for {engine.min_players} to "
                    f"{engine.max_players} players.",
                )
        return data

    def engine_options(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data["game"] != Match.Game.GULLIVER:
            return {}
        options: dict[str, Any] = {"challenges": bool(data.get("challenges"))}
        if data.get("target"):
            options["target"] = data["target"]
        return options


class MoveForm(forms.Form):
    """A move as the JSON one legal-move button carries, and the version the page showed."""

    move = forms.CharField(max_length=2000)
    version = forms.IntegerField(min_value=0)

    def clean_move(self) -> dict[str, Any]:
        try:
            move = json.loads(self.cleaned_data["move"])
        except ValueError as exc:
            raise forms.ValidationError("That move is not readable.") from exc
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise forms.ValidationError("That move is not readable.")
        return move

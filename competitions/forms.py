"""The league form staff fill in (the admin's, ``competitions.admin``): the game's own range of
players and the circle sizes a balanced schedule exists for decide what is accepted."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone

from competitions.models import Event
from competitions.schedules import SEAT_RANGE, offered_sizes
from games.engines import get_engine


class LeagueForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = [
            "name",
            "game",
            "seats",
            "circle_size",
            "circles",
            "deadline_days",
            "holidays",
            "open_tables_most",
            "absences_most",
            "rating_min",
            "rating_max",
            "starts_at",
        ]
        help_texts = {
            "circle_size": "People in a circle: only the sizes with a balanced schedule "
            "(docs/competitions.md, 'The sizes offered').",
            "circles": "The league's places are circles x circle size.",
            "starts_at": "Empty: the league starts when its places are taken.",
            "open_tables_most": "At most this many of a person's tables open at once.",
            "absences_most": "This many forfeits and the person is withdrawn.",
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game, seats, size = data.get("game"), data.get("seats"), data.get("circle_size")
        if game and seats:
            engine = get_engine(game)
            if seats not in SEAT_RANGE or not engine.min_players <= seats <= engine.max_players:
                self.add_error(
                    "seats",
                    f"{engine.title} is played by {engine.min_players} to {engine.max_players}.",
                )
            elif size is not None and size not in offered_sizes(seats):
                sizes = ", ".join(map(str, offered_sizes(seats)))
                self.add_error("circle_size", f"At tables of {seats} a circle has {sizes} people.")
        if data.get("open_tables_most") is not None and data["open_tables_most"] < 1:
            self.add_error("open_tables_most", "At least one open table.")
        if data.get("absences_most") is not None and data["absences_most"] < 1:
            self.add_error("absences_most", "At least one forfeit before a withdrawal.")
        if data.get("circles") is not None and data["circles"] < 1:
            self.add_error("circles", "At least one circle.")
        low, high = data.get("rating_min"), data.get("rating_max")
        if low is not None and high is not None and low > high:
            self.add_error("rating_max", "The highest rating is below the lowest.")
        starts = data.get("starts_at")
        if starts is not None and starts <= timezone.now():
            self.add_error("starts_at", "A start in the future, or none (when full).")
        return data

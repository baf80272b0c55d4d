"""The forms staff fill in (the admin's, ``competitions.admin``): a league's, where the game's
own range of players and the circle sizes a balanced schedule exists for decide what is
accepted, and a recurring cup's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from competitions.models import CupSeries, Event
from competitions.schedules import SEAT_RANGE, offered_sizes
from games.engines import get_engine

# The most places a cup may have (the pairing and the pages are measured at 1,000).
CUP_PLACES_MOST = 2000


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


class CupSeriesForm(forms.ModelForm):
    """The recurring cup staff define: the game's range of players decides the seats; a start
    is a weekday and a time together, or neither (each occurrence starts when full)."""

    class Meta:
        model = CupSeries
        fields = [
            "name",
            "game",
            "seats",
            "rounds",
            "places_most",
            "places_least",
            "deadline_days",
            "holidays",
            "absences_most",
            "rating_min",
            "rating_max",
            "weekday",
            "start_time",
            "active",
        ]
        help_texts = {
            "rounds": _lazy("Swiss rounds each occurrence plays (it lasts one allowance each)."),
            "places_most": _lazy("The field's cap: a cup starting when full starts at this."),
            "places_least": _lazy("A cup at a time starts with at least this many, else not."),
            "weekday": _lazy("With a time: every such weekday. Both empty: when full."),
            "absences_most": _lazy("This many forfeits and the person is withdrawn."),
            "active": _lazy("Off: no next occurrence is made."),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game, seats = data.get("game"), data.get("seats")
        if game and seats:
            engine = get_engine(game)
            if seats not in SEAT_RANGE or not engine.min_players <= seats <= engine.max_players:
                self.add_error(
                    "seats",
                    _("%(game)s is played by %(least)d to %(most)d.")
                    % {
                        "game": engine.title,
                        "least": engine.min_players,
                        "most": engine.max_players,
                    },
                )
        if data.get("rounds") is not None and not 1 <= data["rounds"] <= 20:
            self.add_error("rounds", _("From 1 to 20 rounds."))
        least, most = data.get("places_least"), data.get("places_most")
        if least is not None and least < 2:
            self.add_error("places_least", _("At least two people."))
        if most is not None and not 2 <= most <= CUP_PLACES_MOST:
            self.add_error(
                "places_most", _("From 2 to %(most)d places.") % {"most": CUP_PLACES_MOST}
            )
        if least is not None and most is not None and least > most:
            self.add_error("places_least", _("The least field is above the cap."))
        if data.get("absences_most") is not None and data["absences_most"] < 1:
            self.add_error("absences_most", _("At least one forfeit before a withdrawal."))
        low, high = data.get("rating_min"), data.get("rating_max")
        if low is not None and high is not None and low > high:
            self.add_error("rating_max", _("The highest rating is below the lowest."))
        if (data.get("weekday") is None) != (data.get("start_time") is None):
            self.add_error("start_time", _("A weekday and a time together, or neither."))
        return data

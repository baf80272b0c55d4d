"""Helpers of the cup tests: a cup occurrence made as the sweep makes one from a series, and
every running table of a cup played to its end by its people (at random)."""

from __future__ import annotations

import random
from typing import Any

from competitions.models import CupSeries, Event
from competitions.services.cup_sweep import occurrence_make
from games.models import Match
from tests.integration.league_helpers import play_turn


def series_make(**fields: Any) -> CupSeries:
    return CupSeries.objects.create(
        name=fields.pop("name", "Monday cup"),
        game=fields.pop("game", "faraway"),
        seats=fields.pop("seats", 2),
        rounds=fields.pop("rounds", 3),
        places_most=fields.pop("places_most", 4),
        places_least=fields.pop("places_least", 2),
        deadline_days=fields.pop("deadline_days", 1),
        absences_most=fields.pop("absences_most", 2),
        **fields,
    )


def cup_make(**fields: Any) -> Event:
    """An occurrence open to enter, made by the sweep's own function from a new series."""
    made = occurrence_make(series_id=series_make(**fields).pk)
    assert made is not None
    return made


def tables_play(event: Event, rng: random.Random, *, turns: int = 400) -> None:
    """Every running table of ``event`` played to its end by its people, at random."""
    for match in Match.objects.filter(event_table__event=event, status=Match.Status.ACTIVE):
        for _ in range(turns):
            match.refresh_from_db()
            if match.status != Match.Status.ACTIVE or not match.awaiting:
                break
            play_turn(match, rng)

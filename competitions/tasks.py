"""Celery tasks of the competitions: thin, calling the services (the leagues' sweep, the cups')."""

from __future__ import annotations

from celery import shared_task

from competitions.league_sweep import leagues_sweep as leagues_sweep_now
from competitions.services.cup_sweep import cups_sweep as cups_sweep_now


@shared_task(name="competitions.leagues_sweep")
def leagues_sweep() -> int:
    """Beat's league sweep: start, tend and end the leagues (``competitions.league_sweep``)."""
    return leagues_sweep_now()


@shared_task(name="competitions.cups_sweep")
def cups_sweep() -> int:
    """Beat's cup sweep: start, pair, tend and end the cups, and make each series' next
    occurrence (``competitions.services.cup_sweep``)."""
    return cups_sweep_now()

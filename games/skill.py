"""Rating maths (docs/ratings.md): a finished match's standings to OpenSkill ranks, one
Plackett-Luce update over 2 to 8 single-player teams, and the number a page shows.

Pure: no framework, no database. The services read and write the rows around it
(``games.services.ratings``); a test holds this module to importing no ``django``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from games.engines.results import Standing

# One model for the whole site, with OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6).
MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma
MIN_SEATS, MAX_SEATS = 2, 8
# Under this many rated matches a rating is provisional: shown with a "?" and a badge.
PROVISIONAL_BELOW = 10
# The conservative rating OpenSkill calls the ordinal is mu - 3 sigma (0 for a newcomer, about
# 25 at best). Pages show it scaled, as a whole number: DISPLAY_SCALE * (mu - 3 sigma) +
# DISPLAY_BASE, so a newcomer shows 1000 and a match moves it by a few points to a hundred.
ORDINAL_Z = 3.0
DISPLAY_SCALE = 40.0
DISPLAY_BASE = 1000.0


@dataclass(frozen=True)
class Skill:
    """One subject's rating: the mean ``mu`` and uncertainty ``sigma`` of its skill."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> int:
        """The conservative rating as pages show it (``display_ordinal``)."""
        return display_ordinal(self.mu, self.sigma)


def display_ordinal(mu: float, sigma: float) -> int:
    """OpenSkill's ordinal (``mu - 3 sigma``), scaled and rounded to a whole number for pages.

    Computed by OpenSkill itself (``rating.ordinal(z, alpha, target)``) so that the scale is
    its own; Python's ``round`` (half to even) makes it whole.
    """
    rating = MODEL.rating(mu=mu, sigma=sigma)
    return round(rating.ordinal(ORDINAL_Z, DISPLAY_SCALE, DISPLAY_BASE))


def is_provisional(rated_matches: int) -> bool:
    """Whether a rating with this many rated matches is still provisional."""
    return rated_matches < PROVISIONAL_BELOW


def ranks_of(standings: Sequence[Standing]) -> list[int]:
    """OpenSkill ranks, one per seat, from the standings (rank 1 best, tied seats share it).

    OpenSkill reads a lower rank as a better place and equal ranks as a tie, exactly as the
    standings give them (1, 2, 2, 4), so the ranks pass through; this checks they fit.
    """
    ranks = [s.rank for s in standings]
    if not MIN_SEATS <= len(ranks) <= MAX_SEATS:
        raise ValueError(f"A rated match has {MIN_SEATS} to {MAX_SEATS} seats, not {len(ranks)}.")
    if any(r < 1 for r in ranks):
        raise ValueError(f"Ranks start at 1: {ranks!r}.")
    return ranks


def rate(before: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Every seat's rating after the match, from their ratings before and their ranks.

    Each seat is a team of one. The same order in and out: ``rate(before, ranks)[i]`` is seat
    ``i``'s new rating.
    """
    if len(before) != len(ranks):
        raise ValueError("One rank per rating.")
    if not MIN_SEATS <= len(before) <= MAX_SEATS:
        raise ValueError(f"A rated match has {MIN_SEATS} to {MAX_SEATS} seats, not {len(before)}.")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in after]

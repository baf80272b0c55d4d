"""Play now's reads (docs/quick-match.md): the waiting public tables that fit a person's
choices, best first, and the table the person already waits at.

A table fits when it is public and waiting, of the chosen game, of the chosen size (or any
size), with the same turn deadline and the same rated choice, holidays allowed, the engine's
default options (a rematch's dealer aside), a seat free, and nobody at it (its creator included)
with whom a block stands, whichever of the two made it. Among those, the table whose seated
people's mean rating at the game is nearest the person's comes first, in bands of
``SIMILAR_BAND``; within a band, the one waiting longest. A newcomer, and a person with no
rating at the game, counts at the rating model's starting mean.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Q, QuerySet

from accounts.selectors.relations import blocked_ids
from games import skill
from games.models import Match, Rating, Seat

# Two tables whose people's mean ratings lie within this many points of skill (OpenSkill's mu,
# 25 for a newcomer) of the person's count as equally near, and the older comes first.
SIMILAR_BAND = 2.5
# The most waiting tables one press weighs (the oldest first): the lobby rarely holds more.
CANDIDATES_READ = 200


@dataclass(frozen=True)
class QuickChoice:
    """What a person asked Play now for. ``seats``: the table's size, ``None`` for any."""

    game: str
    seats: int | None
    deadline_days: int | None
    rated: bool


def _options_default(match: Match) -> bool:
    return not {k: v for k, v in match.options.items() if k != "dealer"}


def _waiting_public(choice: QuickChoice) -> QuerySet[Match]:
    qs = Match.objects.filter(
        public=True,
        status=Match.Status.WAITING,
        game=choice.game,
        rated=choice.rated,
        holidays=True,
    ).defer("state", "start_events")
    if choice.deadline_days is None:
        qs = qs.filter(deadline_days__isnull=True)
    else:
        qs = qs.filter(deadline_days=choice.deadline_days)
    if choice.seats is not None:
        qs = qs.filter(num_players=choice.seats)
    if choice.rated:
        qs = qs.filter(seed_fixed=False)  # a known deal is never rated (docs/ratings.md)
    return qs


def quick_waiting_at(*, user_id: int, choice: QuickChoice) -> Match | None:
    """The waiting public table the person already sits at that Play now opened or that fits
    ``choice`` (a second press finds the first one's table), oldest first; ``None`` if none."""
    fits = Q(quick=True) | Q(pk__in=_waiting_public(choice).values("pk"))
    qs = (
        Match.objects.filter(fits, public=True, status=Match.Status.WAITING)
        .filter(pk__in=Seat.objects.filter(user_id=user_id).values("match_id"))
        .defer("state", "start_events")
        .order_by("created_at", "pk")
    )
    return next((m for m in qs if m.quick or _options_default(m)), None)


def quick_candidates(*, user_id: int, choice: QuickChoice) -> list[Match]:
    """The tables that fit ``choice`` for the person, best first (the module's order). Three
    queries: the blocks, the tables with their seated people, the people's ratings."""
    blocked = blocked_ids(user_id)
    qs = (
        _waiting_public(choice)
        .exclude(seats__user_id=user_id)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("num_players"))
        .exclude(created_by_id__in=blocked)
        .exclude(seats__user_id__in=blocked)
        .prefetch_related("seats")
        .order_by("created_at", "pk")[:CANDIDATES_READ]
    )
    tables = [m for m in qs if _options_default(m)]
    people = {s.user_id for m in tables for s in m.seats.all() if s.user_id is not None}
    mu = dict(
        Rating.objects.filter(game=choice.game, user_id__in=people | {user_id}).values_list(
            "user_id", "mu"
        )
    )
    mine = mu.get(user_id, skill.MU)

    def band(match: Match) -> int:
        seated = [mu.get(s.user_id, skill.MU) for s in match.seats.all() if s.user_id is not None]
        mean = sum(seated) / len(seated) if seated else skill.MU
        return int(abs(mean - mine) // SIMILAR_BAND)

    # ``sorted`` is stable: within a band the oldest table (the query's order) stays first.
    return sorted(tables, key=band)

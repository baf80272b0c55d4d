"""Rating finished matches (docs/ratings.md): the rows around the pure maths of ``games.skill``.

``ratings_update_due`` rates every match whose ``rating_status`` is ``pending``, oldest finish
first, one transaction each. Each transaction locks the match row and re-reads its status, so
two workers, a duplicate task and the sweeper never rate a match twice; the unique constraint
on ``RatingChange(match, seat)`` is the last guard. A worker killed mid-match rolls its
transaction back, and the match stays ``pending`` for the next run.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Count, Q

from games import skill
from games.engines.results import Standing
from games.models import Match, Move, Rating, RatingChange, RatingStatus, Seat

logger = logging.getLogger(__name__)

NOTE_BOTS_ONLY = "Not rated: only bots played."
NOTE_SEED_FIXED = "Not rated: the match was created with a chosen seed, so its deal was known."
NOTE_CHOSEN = "Not rated: the table was opened as an unrated one."
NOTE_PRACTICE = "Not rated: a practice match against the greedy bot, with hints."
NOTE_DEADLINE = "Not rated: the deadline bot played most of {name}'s turns."


@dataclass(frozen=True)
class Subject:
    """Whose rating a seat moves: a person (``user_id``) or a bot level."""

    user_id: int | None
    bot_level: str | None

    @classmethod
    def of(cls, seat: Seat) -> Subject:
        if seat.user_id is not None:
            return cls(seat.user_id, None)
        return cls(None, seat.bot_level)


def unrated_reason(*, match: Match, seats: Sequence[Seat]) -> str:
    """Why ``match`` is not rated, in words ("" when it is rated).

    The deadline check is one aggregate query over the log: per person's seat, their entries
    and those the deadline bot played; more than half played for them leaves the match unrated.
    """
    people = {s.index: s for s in seats if s.user_id is not None}
    if not people:
        return NOTE_BOTS_ONLY
    if match.seed_fixed:
        return NOTE_SEED_FIXED
    if match.practice:
        return NOTE_PRACTICE
    if not match.rated:
        return NOTE_CHOSEN
    # A person who resigned chose their loss (docs/leaving.md): the deadline rule, which keeps
    # a leaver from being rated on the bot's play, is not theirs to invoke.
    staying = [index for index, seat in people.items() if seat.resigned_ply is None]
    counts = (
        Move.objects.filter(match_id=match.pk, seat__in=staying)
        .values("seat")
        .annotate(total=Count("pk"), deadline=Count("pk", filter=Q(auto=Move.Auto.DEADLINE)))
        .order_by("seat")
    )
    for row in counts:
        if 2 * row["deadline"] > row["total"]:
            return NOTE_DEADLINE.format(name=people[row["seat"]].user.username)
    return ""


def _ratings_for(game: str, subjects: Sequence[Subject]) -> dict[Subject, Rating]:
    """Each subject's rating row at ``game``, created at the defaults if new, then locked.

    ``get_or_create`` survives a racing creator (its savepoint and re-read); the rows are
    then locked in one query, in primary-key order so two transactions never deadlock.
    """
    pks = []
    for subject in subjects:
        row, _ = Rating.objects.get_or_create(
            game=game,
            user_id=subject.user_id,
            bot_level=subject.bot_level,
            defaults={"mu": skill.MU, "sigma": skill.SIGMA},
        )
        pks.append(row.pk)
    locked = list(Rating.objects.select_for_update().filter(pk__in=pks).order_by("pk"))
    return {Subject(r.user_id, r.bot_level): r for r in locked}


def _rate_locked(match: Match, seats: Sequence[Seat]) -> None:
    """Rate ``match`` (locked, pending, rateable) and mark it rated.

    Every seat plays in the one update with its subject's rating before the match. A subject
    at several seats (two greedy bots at one table) takes the update of its best-placed seat
    only (the lowest index among equals): its other seats still count as opponents, at the
    same rating, but record no change, so one match moves one subject once.
    """
    subjects = [Subject.of(s) for s in seats]
    ratings = _ratings_for(match.game, list(dict.fromkeys(subjects)))
    before = [skill.Skill(ratings[sub].mu, ratings[sub].sigma) for sub in subjects]
    ranks = skill.ranks_of([Standing(s.result or "drawn", s.score or 0, s.rank) for s in seats])
    after = skill.rate(before, ranks)
    chosen: dict[Subject, int] = {}
    for i, _seat in sorted(enumerate(seats), key=lambda pair: (pair[1].rank, pair[1].index)):
        chosen.setdefault(subjects[i], i)
    changes = []
    for subject, i in sorted(chosen.items(), key=lambda pair: pair[1]):
        row = ratings[subject]
        old, new = before[i], after[i]
        row.mu, row.sigma = new.mu, new.sigma
        row.matches += 1
        row.last_played_at = match.finished_at
        changes.append(
            RatingChange(
                match=match,
                seat=seats[i].index,
                rating=row,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                ordinal_before=old.ordinal,
                ordinal_after=new.ordinal,
                matches_after=row.matches,
            )
        )
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_update(
        [ratings[s] for s in chosen], ["mu", "sigma", "matches", "last_played_at", "updated_at"]
    )
    Match.objects.filter(pk=match.pk).update(rating_status=RatingStatus.RATED, rating_note="")


def match_rate(*, match_id: int) -> bool:
    """Rate one match if it is still pending; whether this call rated it or marked it unrated.

    One transaction: lock the match row, re-check the status, rate it or mark it unrated.
    A duplicate that slips past the lock (none should) fails on the unique constraint, rolls
    back and is logged.
    """
    try:
        with transaction.atomic():
            match = (
                Match.objects.select_for_update()
                .only("pk", "game", "status", "seed_fixed", "rated", "rating_status", "finished_at")
                .get(pk=match_id)
            )
            if match.rating_status != RatingStatus.PENDING:
                return False
            seats = list(
                Seat.objects.filter(match_id=match.pk).select_related("user").order_by("index")
            )
            reason = unrated_reason(match=match, seats=seats)
            if reason:
                Match.objects.filter(pk=match.pk).update(
                    rating_status=RatingStatus.UNRATED, rating_note=reason
                )
                return True
            _rate_locked(match, seats)
            return True
    except Match.DoesNotExist:
        return False
    except IntegrityError:
        logger.warning("match %s was rated already; this run changed nothing", match_id)
        return False


def ratings_update_due(*, limit: int = 500) -> int:
    """Rate the pending matches, in the order they finished (``finished_at``, then id).

    Returns how many this call rated or marked unrated. ``limit`` bounds one run; the
    sweeper's next run takes the rest.
    """
    due = list(
        Match.objects.filter(rating_status=RatingStatus.PENDING)
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(1 for match_id in due if match_rate(match_id=match_id))

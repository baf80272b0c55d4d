"""Fixtures for the history and profile tests: matches written as rows with known results.

A finished match's figures (result, score, rank per seat) come from its rows alone, so these
tests build finished matches directly as ``Match`` and ``Seat`` rows, written as the service
that ends a match writes them, instead of playing hundreds of moves to reach chosen ranks.
Matches that must hold real cards (a running table) are made through the services instead.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from games.models import Match, Seat

# 1 May 2025, noon UTC: fixtures are dated from here, one day apart unless told otherwise.
BASE = datetime.datetime(2025, 5, 1, 12, tzinfo=datetime.UTC)

# (who, result, score, rank): who is a user or a bot level ("greedy").
SeatSpec = tuple[Any, str | None, int | None, int | None]


def match_rows(
    *,
    seats: Sequence[SeatSpec],
    game: str = "faraway",
    status: str = Match.Status.FINISHED,
    public: bool = True,
    created_by: Any = None,
    day: int = 0,
    ply: int = 30,
    rounds: int = 1,
    num_players: int | None = None,
) -> Match:
    """One match with ``seats`` by index, created ``day`` days after ``BASE`` and finished an
    hour later when ``status`` is finished."""
    created = BASE + datetime.timedelta(days=day)
    creator = created_by or next(who for who, *_ in seats if not isinstance(who, str))
    match = Match.objects.create(
        game=game,
        num_players=num_players or len(seats),
        created_by=creator,
        status=status,
        public=public,
        ply=ply,
        rounds=rounds,
        started_at=None if status == Match.Status.WAITING else created,
        finished_at=created + datetime.timedelta(hours=1)
        if status == Match.Status.FINISHED
        else None,
    )
    Match.objects.filter(pk=match.pk).update(created_at=created)
    Seat.objects.bulk_create(
        [
            Seat(
                match=match,
                index=index,
                user=None if isinstance(who, str) else who,
                bot_level=who if isinstance(who, str) else None,
                result=result,
                score=score,
                rank=rank,
            )
            for index, (who, result, score, rank) in enumerate(seats)
        ]
    )
    match.refresh_from_db()
    return match


def many_finished(user: Any, other: Any, count: int) -> None:
    """``count`` finished two-seat matches of ``user`` against ``other``, in two bulk inserts
    (``user`` wins the even ones)."""
    now = timezone.now()
    matches = Match.objects.bulk_create(
        [
            Match(
                game="faraway" if i % 3 else "gulliver",
                num_players=2,
                created_by=user,
                status=Match.Status.FINISHED,
                public=True,
                ply=20 + i % 7,
                started_at=now,
                finished_at=now,
            )
            for i in range(count)
        ]
    )
    seats = []
    for i, match in enumerate(matches):
        won = i % 2 == 0
        seats.append(
            Seat(
                match=match,
                index=0,
                user=user,
                result="won" if won else "lost",
                score=10 + i % 5,
                rank=1 if won else 2,
            )
        )
        seats.append(
            Seat(
                match=match,
                index=1,
                user=other,
                result="lost" if won else "won",
                score=5,
                rank=2 if won else 1,
            )
        )
    Seat.objects.bulk_create(seats)

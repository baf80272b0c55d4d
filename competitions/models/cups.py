"""A recurring cup's row, thin and without rules (docs/competitions.md, "Cups"): the
``CupSeries`` staff define in the admin. Each occurrence is an ``Event`` of kind ``cup``
(``competitions.models.leagues``) made from it by the cups' sweep, with its entries and its
rounds' tables in ``Entry`` and ``EventTable`` as a league's are, so the gates, withdrawals,
forfeits, play-outs and the account receivers are the leagues' own."""

from __future__ import annotations

from django.db import models

from games.models import DEADLINE_CHOICES, Match


class CupSeries(models.Model):
    """A cup that recurs: its game and table, its rounds, its field, when each occurrence
    starts (a weekday and time, or when full) and its gates."""

    class Weekday(models.IntegerChoices):
        MONDAY = 0, "Monday"
        TUESDAY = 1, "Tuesday"
        WEDNESDAY = 2, "Wednesday"
        THURSDAY = 3, "Thursday"
        FRIDAY = 4, "Friday"
        SATURDAY = 5, "Saturday"
        SUNDAY = 6, "Sunday"

    name = models.CharField(max_length=80)
    game = models.CharField(max_length=20, choices=Match.Game.choices)
    seats = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField(default=3)
    places_most = models.PositiveIntegerField(default=16)
    places_least = models.PositiveSmallIntegerField(default=4)
    deadline_days = models.PositiveSmallIntegerField(choices=DEADLINE_CHOICES)
    holidays = models.BooleanField(default=True)
    absences_most = models.PositiveSmallIntegerField(default=2)
    rating_min = models.IntegerField(null=True, blank=True)
    rating_max = models.IntegerField(null=True, blank=True)
    # Both empty: each occurrence starts when full; both set: every such weekday at that time
    # (the site's time zone), with at least ``places_least`` people.
    weekday = models.PositiveSmallIntegerField(choices=Weekday.choices, null=True, blank=True)
    start_time = models.TimeField(null=True, blank=True)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name_plural = "cup series"

    def __str__(self) -> str:
        return f"cup series {self.pk}: {self.name}"

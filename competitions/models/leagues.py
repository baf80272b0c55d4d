"""An event's rows, thin and without rules: the ``Event`` (a league, or one occurrence of a
recurring cup: ``competitions.models.cups``), the people's ``Entry`` rows and the
``EventTable`` rows of its schedule, each linking the real ``games.Match`` played there once it
is opened.

Standings are never stored: they are computed from the finished matches
(``competitions.league_standings``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import DEADLINE_CHOICES, Match


class Event(models.Model):
    """A league: its game and table size, its circles, its timing and its gates."""

    class Kind(models.TextChoices):
        LEAGUE = "league", _("League")
        CUP = "cup", _("Cup")

    class Status(models.TextChoices):
        OPEN = "open", _("Open to enter")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.LEAGUE)
    name = models.CharField(max_length=80)
    game = models.CharField(max_length=20, choices=Match.Game.choices)
    seats = models.PositiveSmallIntegerField()
    circle_size = models.PositiveSmallIntegerField()
    circles = models.PositiveSmallIntegerField(default=1)
    deadline_days = models.PositiveSmallIntegerField(choices=DEADLINE_CHOICES)
    holidays = models.BooleanField(default=True)
    open_tables_most = models.PositiveSmallIntegerField(default=2)
    absences_most = models.PositiveSmallIntegerField(default=3)
    rating_min = models.IntegerField(null=True, blank=True)
    rating_max = models.IntegerField(null=True, blank=True)
    # ``None``: starts when full; a time: starts then with the whole circles its entries fill.
    starts_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # The draw at the start: each circle's user ids, by label (``[[u0, u1, ...], ...]``).
    draw = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A cup's (``competitions.models.cups``; 0 or empty for a league): its series, the fewest
    # people it starts with at its time, its rounds, the round under way and when it began.
    series = models.ForeignKey(
        "competitions.CupSeries",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="occurrences",
    )
    places_least = models.PositiveSmallIntegerField(default=0)
    rounds = models.PositiveSmallIntegerField(default=0)
    round = models.PositiveSmallIntegerField(default=0)
    round_started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "kind"], name="event_status_kind")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.pk}: {self.name}"  # i18n: data

    @property
    def places(self) -> int:
        return self.circle_size * self.circles


class Entry(models.Model):
    """A person in an event (their circle and label are the event's ``draw``), perhaps
    withdrawn (by themselves before the start, by their absences, or by leaving the site)."""

    class Withdrawn(models.TextChoices):
        NO = "", _("Playing")
        SELF = "self", _("Withdrew")
        ABSENT = "absent", _("Withdrawn after too many absences")
        ACCOUNT = "account", _("Account closed or deleted")
        NO_ROOM = "no_room", _("Not seated: no whole circle left")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_entries"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    withdrawn = models.CharField(
        max_length=10, choices=Withdrawn.choices, blank=True, default=Withdrawn.NO
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "entered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="entry_once_an_event")
        ]

    def __str__(self) -> str:
        return f"entry {self.pk}: user {self.user_id} in event {self.event_id}"  # i18n: data


class EventTable(models.Model):
    """One table of an event's schedule: its circle, its number in the schedule's order, its
    labels in seat order; the match once it is opened, or why it never will be. A cup's table
    is one of a Swiss round: ``circle`` is the round (0 the first), ``number`` its place in
    the round (0 the top table), ``labels`` the people's user ids in seat order, and a bye is
    a table of one that is never opened (``Dropped.BYE``)."""

    class Dropped(models.TextChoices):
        NO = "", _("Scheduled")
        WITHDRAWN = "withdrawn", _("Not played: someone at it withdrew")
        BLOCK = "block", _("Not played: a block stands between two people at it")
        ENDED = "ended", _("Not played: the league ended first")
        BYE = "bye", _("A bye: sits this round out")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables")
    circle = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()
    labels = models.JSONField()
    match = models.OneToOneField(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="event_table"
    )
    opened_at = models.DateTimeField(null=True, blank=True)
    dropped = models.CharField(max_length=10, choices=Dropped.choices, blank=True, default="")

    class Meta:
        ordering = ["event", "circle", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "circle", "number"], name="event_table_once")
        ]

    def __str__(self) -> str:
        return f"event {self.event_id} circle {self.circle} table {self.number}"  # i18n: data

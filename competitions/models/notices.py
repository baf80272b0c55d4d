"""What a league or a cup tells its people (docs/competitions.md, "Told"): one ``EventNotice`` a
person and piece of news (entered, the start, a table of theirs opened later, a cup's round
paired, withdrawn, the end with their place), kept as facts and worded when read, in the
reader's language. It lists on the notices page until they open the event's page, and is mailed
and pushed once (``delivered_at``: claimed by the one delivery that decides it)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from competitions.models.leagues import Event
from games.models import Match


class EventNotice(models.Model):
    class Kind(models.TextChoices):
        ENTERED = "entered", "Entered"
        STARTED = "started", "Started"
        PAIRED = "paired", "A round paired"
        TABLE = "table", "A table opened"
        WITHDRAWN = "withdrawn", "Withdrawn"
        ENDED = "ended", "Ended"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_notices"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # One notice a person and piece of news: the kind, "table-<match id>" for a league's table,
    # "round-<n>" for a cup's round n (1 the first) paired.
    key = models.CharField(max_length=30)
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # An Entry.Withdrawn value; for a cup's round, an EventTable.Dropped one (a bye, a block).
    reason = models.CharField(max_length=10, blank=True, default="")
    place = models.PositiveIntegerField(null=True, blank=True)  # at the end; None: withdrawn
    at = models.DateTimeField()
    seen_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user", "key"], name="event_notice_once_a_person"
            )
        ]
        indexes = [
            models.Index(
                fields=["user"], condition=Q(seen_at__isnull=True), name="event_notice_unseen"
            ),
            models.Index(
                fields=["at"],
                condition=Q(delivered_at__isnull=True),
                name="event_notice_undelivered",
            ),
        ]

    def __str__(self) -> str:
        return f"event notice {self.key} of event {self.event_id} for {self.user_id}"

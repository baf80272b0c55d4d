"""What a person wants to be told, and what they have been told about each match.

``NotificationSettings`` holds a person's choices (created on demand: no row means both kinds
on). ``MatchNotice`` is one row per person and match: when the table was last served to them in
full (``seen_at``), when the last turn mail went (``turn_mailed_at``, the rate limit) and the
last deadline reminder (``deadline_mailed_at``, once per turn). The rate limit is a conditional
UPDATE on that one row, so two workers deciding the same mail at once send it once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class NotificationSettings(models.Model):
    """Which mails a person receives; a missing row means the defaults (every kind on)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    email_turn = models.BooleanField(
        "E-mail me when it is my turn",
        default=True,
        help_text="At most once per match every 12 hours, and not while you are at the table.",
    )
    email_deadline = models.BooleanField(
        "E-mail me when a turn deadline is near",
        default=True,
        help_text="Once per turn, when 80% of the time to move has gone.",
    )

    class Meta:
        verbose_name_plural = "notification settings"

    def __str__(self) -> str:
        return f"notification settings of user {self.user_id}"


class MatchNotice(models.Model):
    """One person's notices about one match: seen, turn mail and deadline reminder times."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_notices"
    )
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="notices")
    seen_at = models.DateTimeField(null=True, blank=True)
    turn_mailed_at = models.DateTimeField(null=True, blank=True)
    deadline_mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="matchnotice_unique_user_match")
        ]

    def __str__(self) -> str:
        return f"notices of user {self.user_id} about match {self.match_id}"


class AccountClosure(models.Model):
    """A closed account (docs/accounts.md, "Closing and deleting"): hidden, signed out, and
    deleted by the sweep once ``CLOSED_DAYS`` have passed, unless its person signs in again
    first (which deletes this row: the account is open)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="closure"
    )
    closed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"closure of user {self.user_id}"


class DataExport(models.Model):
    """One "your data" file being prepared or ready for its owner (docs/accounts.md, "Your
    data"): built by a worker, ``done`` of ``total`` matches so far, kept ``EXPORT_DAYS``."""

    class Status(models.TextChoices):
        PREPARING = "preparing", "Preparing"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="data_exports"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PREPARING)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # The file's name under ``DATA_DIR / "exports"``: random, never the person's name.
    file_name = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "created_at"], name="dataexport_user_created")]

    def __str__(self) -> str:
        return f"data export {self.pk} of user {self.user_id}: {self.status}"

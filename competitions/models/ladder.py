"""A game's ladder as rows (docs/competitions.md, "Ladder"): the ladder itself (the row every
write locks first), each person's place on it, the challenges and the history of places.
Thin rows and constraints; the rules are ``competitions.ladder_rules``', the writes
``competitions.services.ladder``'s."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Match


class Ladder(models.Model):
    """One game's ladder. Made on first use; every write to the ladder locks this row first, so
    joins, leaves, challenges and results on one ladder come one at a time."""

    game = models.CharField(max_length=20, choices=Match.Game.choices, unique=True)

    def __str__(self) -> str:
        return f"{self.get_game_display()} ladder"  # i18n: data


class LadderRung(models.Model):
    """A person's place on a ladder: 1 is the top, and the places of a ladder run 1..N with no
    gap. A plain integer (not a positive one): a shift moves rows through a high offset so the
    one-a-place constraint holds after every statement on either database."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="rungs")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_rungs"
    )
    position = models.IntegerField()
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="ladder_rung_one_a_person"),
            models.UniqueConstraint(fields=["ladder", "position"], name="ladder_rung_one_a_place"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.position} on ladder {self.ladder_id}"  # i18n: data


class LadderChallenge(models.Model):
    """A challenge of one person by another below them, and the two-seat match it made (whose
    seat for the challenged person is held by a ``games`` invitation until they answer).
    ``state`` is ``open`` until the match's finish settles it, or the challenger withdraws it,
    or either leaves the ladder; a challenge declined or lapsed stays ``open`` in this column
    and reads as closed (``competitions.selectors.ladder.OPEN``), as nothing moves for it."""

    class State(models.TextChoices):
        OPEN = "open", _("Open")
        WON = "won", _("Won by the challenger")
        HELD = "held", _("Held by the challenged")
        VOID = "void", _("Void")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_challenges_made"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_challenges_got"
    )
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="ladder_challenge")
    # The two places when the challenge was made (the history says what was at stake).
    challenger_place = models.PositiveIntegerField()
    challenged_place = models.PositiveIntegerField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["ladder", "state"], name="ladder_challenge_state"),
            models.Index(
                fields=["challenger", "challenged", "created_at"], name="ladder_challenge_pair"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~Q(challenger=models.F("challenged")), name="ladder_challenge_two_people"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.challenger_id} challenges {self.challenged_id} ({self.state})"  # i18n: data


class LadderEvent(models.Model):
    """One change of places, for the history and the notices: a person joining (at the bottom)
    or leaving (those below move up one), or a challenge's result (the challenger climbing to
    the challenged person's place, who with everyone between moves down one; or the challenged
    holding their place)."""

    class Kind(models.TextChoices):
        JOINED = "joined", _("Joined")
        LEFT = "left", _("Left")
        CLIMBED = "climbed", _("Climbed")
        HELD = "held", _("Held")

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_events"
    )
    # The challenged person of a result (``climbed``: displaced; ``held``: kept their place).
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ladder_events_as_other",
    )
    # ``user``'s place before and after (``joined``: none before; ``left``: none after).
    from_place = models.PositiveIntegerField(null=True, blank=True)
    to_place = models.PositiveIntegerField(null=True, blank=True)
    challenge = models.ForeignKey(
        LadderChallenge, null=True, blank=True, on_delete=models.CASCADE, related_name="events"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["ladder", "-at"], name="ladder_event_recent")]

    def __str__(self) -> str:
        return f"{self.kind}: {self.user_id} {self.from_place} -> {self.to_place}"  # i18n: data


class LadderNotice(models.Model):
    """A climb that moved a person, to tell them on the notices page and the badge: the
    challenger who climbed, the challenged person and everyone between who moved down one.
    Seen when they next open that game's ladder page."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_notices"
    )
    event = models.ForeignKey(LadderEvent, on_delete=models.CASCADE, related_name="notices")
    seen_at = models.DateTimeField(null=True, blank=True)
    # Mailed and pushed as the person chose (``competitions.notice_delivery``): claimed once.
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="ladder_notice_one_a_person")
        ]
        indexes = [
            models.Index(
                fields=["user"], condition=Q(seen_at__isnull=True), name="ladder_notice_unseen"
            )
        ]

    def __str__(self) -> str:
        return f"ladder notice of event {self.event_id} for {self.user_id}"  # i18n: data

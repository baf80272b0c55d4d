"""The person's rows: what they want to be told (``NotificationSettings``, created on demand: no
row means both kinds on), their push devices, time zone, holiday, pending e-mail address, name
changes, language, closure, data exports, follows, blocks, who may challenge them and how the table
behaves for them (``PlaySettings``).

What they have been told about each match (``MatchNotice``) is the games' (``games.models``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from timezone_field import TimeZoneField


class NotificationSettings(models.Model):
    """Which mails a person receives; a missing row means the defaults (every kind on)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    email_turn = models.BooleanField(
        _("E-mail me when it is my turn"),
        default=True,
        help_text=_("At most once per match every 12 hours, and not while you are at the table."),
    )
    email_deadline = models.BooleanField(
        _("E-mail me when a turn deadline is near"),
        default=True,
        # xgettext:no-python-format (a per cent sign, not a placeholder)
        help_text=_("Once per turn, when 80% of the time to move has gone."),
    )
    email_invitations = models.BooleanField(
        _("E-mail me when I am challenged or offered a rematch"),
        default=True,
        help_text=_("Once per challenge or offer."),
    )
    # Leagues and the ladder telling their people (docs/competitions.md, "Told").
    email_events = models.BooleanField(
        _("E-mail me about my leagues and ladder results"),
        default=True,
        help_text=_("Once each: entered, started, a new table, withdrawn, ended; a ladder move."),
    )
    # What the notices page (and the badge) shows; each kind can be turned off, like the mails.
    notice_invitations = models.BooleanField(
        _("Show challenges and rematch offers in my notices"), default=True
    )
    notice_turns = models.BooleanField(
        _("Show matches waiting for my move in my notices"), default=True
    )
    notice_finished = models.BooleanField(
        _("Show finished matches I have not seen in my notices"), default=True
    )
    notice_ladder = models.BooleanField(
        _("Show ladder results that moved me in my notices"), default=True
    )
    notice_events = models.BooleanField(_("Show news of my leagues in my notices"), default=True)
    # Web push to the person's devices (docs/notifications.md, "Web push"); each device opts in
    # on its own, this turns them all off at once.
    push_turn = models.BooleanField(
        _("Notify my devices when it is my turn"),
        default=True,
        help_text=_('On each device where you chose "Notify this device" below.'),
    )
    push_events = models.BooleanField(
        _("Notify my devices about leagues and the ladder"), default=True
    )
    # Not a mail nor a notice, but a thing said to the person: table phrases (docs/phrases.md).
    mute_phrases = models.BooleanField(
        _("Hide the phrases people say at the table"),
        default=False,
        help_text=_("You no longer see anyone's table phrases, in play or in replays."),
    )

    class Meta:
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return f"notification settings of user {self.user_id}"  # i18n: data


class PushSubscription(models.Model):
    """One device (a browser's push subscription) that gets the person's turn pushes
    (docs/notifications.md, "Web push"): where to send, the keys to encrypt for it, and what
    the devices list calls it. At most ``PARLOUR_PUSH_DEVICES`` a person."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    # The push service's address for this device: a browser has one, whoever subscribed last.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the device's P-256 public key, base64url
    auth = models.CharField(max_length=32)  # its 16-byte authentication secret, base64url
    # What the devices list calls it, from its User-Agent: the browser's and the system's names
    # ("Chrome", "Android"; "" when not known), proper names in every language, worded for the
    # reader when read ("Chrome on Android", "Chrome unter Android": accounts/views/push.py).
    browser = models.CharField(max_length=20, blank=True, default="")
    system = models.CharField(max_length=20, blank=True, default="")
    created_at = models.DateTimeField()
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "created_at"], name="pushsub_user_created")]

    def __str__(self) -> str:
        return f"push device {self.pk} of user {self.user_id}"  # i18n: data


class TimeZoneSetting(models.Model):
    """The zone a person reads times in (an IANA name such as ``Europe/Paris``); a missing row
    means UTC. Suggested by the browser at sign-up, changed on the account page; the session
    keeps a copy so a request need not read this row (``accounts.selectors.time_zone``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="time_zone_setting"
    )
    zone = TimeZoneField(_("Time zone"), default="UTC")

    def __str__(self) -> str:
        return f"time zone of user {self.user_id}: {self.zone}"  # i18n: data


class LanguageSetting(models.Model):
    """The language a person reads the site and their mails in (one of ``settings.LANGUAGES``);
    a missing row means the browser's (pages) or the site's default (mails). Chosen on the
    account page; the session keeps a copy so a request need not read this row
    (``accounts.selectors.language``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_setting"
    )
    # No choices here: a language added to ``LANGUAGES`` needs no migration; the service vets it.
    language = models.CharField(_("Language"), max_length=8)

    def __str__(self) -> str:
        return f"language of user {self.user_id}: {self.language}"  # i18n: data


class Holiday(models.Model):
    """A person's holiday allowance and the holiday they are on (docs/accounts.md, "Holidays").

    The allowance is computed, never swept: ``banked`` days stood at ``banked_at``, and a day
    is earned every ``accounts.selectors.holiday_allowance.EARN_EVERY`` since then, up to the cap.
    A missing row means ``accounts.selectors.holidays.start_days`` banked when the person joined.
    The person is away while
    ``away_since <= now < away_until``; ``days_taken`` is what the current holiday cost, so
    ending it early gives back the days not yet begun.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="holiday"
    )
    banked = models.PositiveSmallIntegerField(default=0)
    banked_at = models.DateTimeField()
    away_since = models.DateTimeField(null=True, blank=True)
    away_until = models.DateTimeField(null=True, blank=True)
    days_taken = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"holiday of user {self.user_id} (until {self.away_until})"  # i18n: data


class PendingEmail(models.Model):
    """An address a person has asked to use and not yet confirmed (docs/accounts.md, "E-mail").

    ``User.email`` only ever holds a confirmed address: every mail (turn, reminder, password
    reset) reads it, so nothing goes to an address until its owner opened the link. The
    address waiting for that link lives here, one per person; asking for another replaces it.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pending_email"
    )
    email = models.EmailField(max_length=254)
    requested_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"pending address of user {self.user_id}"  # i18n: data


class NameChange(models.Model):
    """One change of a person's name (docs/accounts.md, "Your name"): when the next change is
    allowed, and which old names still lead to the person's profile and are held from others."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_changes"
    )
    old_name = models.CharField(max_length=150, db_index=True)
    new_name = models.CharField(max_length=150)
    changed_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"name change of user {self.user_id}"  # i18n: data


class HeldName(models.Model):
    """A name given up by a deleted account (its last name, and the old names its renames still
    held), kept from everyone for ``NAME_HELD`` after it was given up, as a rename's old name is
    (docs/accounts.md, "Your name"). Tied to no account: it leads nowhere and says nothing of
    who bore it."""

    name = models.CharField(max_length=150, db_index=True)
    given_up_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return "held name"  # i18n: data


class AccountClosure(models.Model):
    """A closed account (docs/accounts.md, "Closing and deleting"): hidden, signed out, and
    deleted by the sweep once ``CLOSED_DAYS`` have passed, unless its person signs in again
    first (which deletes this row: the account is open)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="closure"
    )
    closed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"closure of user {self.user_id}"  # i18n: data


class DataExport(models.Model):
    """One "your data" file being prepared or ready for its owner (docs/accounts.md, "Your
    data"): built by a worker, ``done`` of ``total`` matches so far, kept ``EXPORT_DAYS``."""

    class Status(models.TextChoices):
        PREPARING = "preparing", _("Preparing")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

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
        return f"data export {self.pk} of user {self.user_id}: {self.status}"  # i18n: data


class Follow(models.Model):
    """``follower`` follows ``followed``; two people who follow each other are friends
    (docs/accounts.md, "Friends and blocks")."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_out"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_in"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_unique_pair"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]
        indexes = [models.Index(fields=["followed", "follower"], name="follow_by_followed")]

    def __str__(self) -> str:
        return f"user {self.follower_id} follows user {self.followed_id}"  # i18n: data


class Block(models.Model):
    """``blocker`` has blocked ``blocked``: neither may challenge, offer a rematch to, follow or
    sit with the other, and the blocked person's table phrases are hidden from the blocker."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_out"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_in"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_by_blocked")]

    def __str__(self) -> str:
        return f"user {self.blocker_id} blocked user {self.blocked_id}"  # i18n: data


class ChallengeSetting(models.Model):
    """Who may challenge the person by name; a missing row means anyone."""

    class Who(models.TextChoices):
        ANYONE = "anyone", _("Anyone")
        PLAYED = "played", _("People I have played")
        FRIENDS = "friends", _("Friends (we follow each other)")
        NOBODY = "nobody", _("Nobody")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenge_setting"
    )
    who = models.CharField(
        _("Who may challenge me"), max_length=10, choices=Who.choices, default=Who.ANYONE
    )

    def __str__(self) -> str:
        return f"user {self.user_id} takes challenges from: {self.who}"  # i18n: data


class PlaySettings(models.Model):
    """How the table behaves for the person (docs/accounts.md, "Play settings"); a missing row
    means the defaults: moves confirmed on a touch screen only, no jump to the next table."""

    class Confirm(models.TextChoices):
        AUTO = "auto", _("On a touch screen only")
        ON = "on", _("Always")
        OFF = "off", _("Never")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_settings"
    )
    confirm_moves = models.CharField(
        _("Confirm each move"),
        max_length=4,
        choices=Confirm.choices,
        default=Confirm.AUTO,
        help_text=_("A first tap picks the move and asks; a second tap (or Confirm) makes it."),
    )
    next_table_at_once = models.BooleanField(
        _("Go to the next table waiting for me as soon as my move lands"),
        default=False,
        help_text=_(
            "Otherwise a “Next table waiting” link shows; never when the match just ended."
        ),
    )
    # Off until asked for (docs/accessibility.md, "Keyboard"): a single key makes a move, which
    # cannot be taken back, and speech input types words that would press them (WCAG 2.1.4).
    keyboard_shortcuts = models.BooleanField(
        _("Keyboard shortcuts on the table"),
        default=False,
        help_text=_("Single keys: 1 to 9 pick a card in your hand, d draws, ? lists them all."),
    )
    text_mode = models.BooleanField(
        _("Text mode: play by typing commands"),
        default=False,
        help_text=_("A command field above the table: type “hand”, “play 2”, “draw”, “help”."),
    )

    def __str__(self) -> str:
        return f"user {self.user_id} plays: confirm {self.confirm_moves}"  # i18n: data

"""Persistence for matches: thin rows, no rules. The engine decides; services write."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.engines import GAME_TITLES, records


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    # 63 bits keeps the seed inside a signed BigIntegerField on every database.
    return secrets.randbits(63)


def new_salt() -> str:
    """The secret salt of a match's seed commitment: 32 random bytes as lowercase hex."""
    return secrets.token_hex(records.SALT_BYTES)


class BotLevel(models.TextChoices):
    RANDOM = "random", _("Random")
    GREEDY = "greedy", _("Greedy")
    STRONG = "strong", _("Strong")


DEADLINE_CHOICES = [(1, _("1 day")), (3, _("3 days")), (7, _("7 days"))]
# Play now's "fill empty seats with a bot after N hours" (docs/quick-match.md).
BOT_FILL_CHOICES = [
    (1, _("1 hour")),
    (4, _("4 hours")),
    (12, _("12 hours")),
    (24, _("1 day")),
    (72, _("3 days")),
]


class RatingStatus(models.TextChoices):
    """Where a match stands with the ratings (``Match.rating_status``)."""

    NONE = "", _("Not finished")
    PENDING = "pending", _("Rating pending")
    RATED = "rated", _("Rated")
    UNRATED = "unrated", _("Not rated")


class Match(models.Model):
    """One played instance of a game: its seed, the engine snapshot and a version counter.

    ``state`` is the engine's dump of the current position only: its size does not grow with
    the match (each move's events live on its ``Move`` row). ``version`` goes up on every change
    a table may need to show (a seat taken, the start, each move, a new round), so a poll
    compares one integer. ``awaiting`` copies the engine's awaited seats at the last write, so
    tasks need no engine work to find a bot's turn; lists read ``Seat.awaited_since`` instead.
    ``ply`` counts the logged entries and ``head_hash`` is the newest link of the hash chain
    (docs/engine-contract.md), so a move needs neither an aggregate nor the previous row.
    """

    # The games come from the engines' one registry (a test holds models, forms, bots and
    # templates to it): FARAWAY = "faraway", "The Faraway Tree", and so on.
    Game = models.TextChoices(
        "Game",  # i18n: data (the class's name; the titles are kept as printed)
        {name.upper(): (name, title) for name, title in GAME_TITLES.items()},
    )

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        # Called off by its creator before it started; kept, not deleted, so the invite link
        # and the seated people's lists can say so (docs/leaving.md).
        CANCELLED = "cancelled", _("Cancelled")

    game = models.CharField(max_length=20, choices=Game.choices)
    num_players = models.PositiveSmallIntegerField()
    # Engine options exactly as passed to ``new_game`` once the match starts (the drawn dealer
    # included), so ``new_game(num_players, seed, options)`` + the move log replays the match.
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(default=new_seed)
    # The seed commitment (docs/records.md): ``commitment`` is shown from the first move, the
    # seed and ``salt`` only once the match is over. Set by ``match_create``.
    salt = models.CharField(max_length=64, default=new_salt)
    commitment = models.CharField(max_length=64, blank=True, default="")
    # Public: any signed-in user may watch it and its replay (public facts only) and find it in
    # the lobby. Private: its members only (the seated and the creator); others get a 404.
    public = models.BooleanField(default=False)
    state = models.JSONField(null=True, blank=True)
    # The deal's events (``engine.events`` of the new game), shown first in the table's log.
    start_events = models.JSONField(default=list, blank=True)
    ply = models.PositiveIntegerField(default=0)
    # Rounds dealt so far (Gulliver deals several; The Faraway Tree has one).
    rounds = models.PositiveSmallIntegerField(default=1)
    head_hash = models.CharField(max_length=64, blank=True, default="")
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    awaiting = models.JSONField(default=list, blank=True)
    invite_token = models.CharField(max_length=40, unique=True, default=new_invite_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A site setting, not an engine option: how long a person may take over a turn before the
    # greedy bot plays it for them (``None``: no limit).
    deadline_days = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=DEADLINE_CHOICES
    )
    # When the awaited move falls due: the turn deadline, or a challenge vote's closing time.
    # Set with every write of the state; ``None`` when nothing is due.
    deadline_at = models.DateTimeField(null=True, blank=True)
    # A site setting too: whether a seated person's holiday holds this match's deadlines for
    # them (docs/accounts.md, "Holidays"); the creator may refuse holidays for the match.
    holidays = models.BooleanField(default=True)
    # Ratings (docs/ratings.md). ``seed_fixed``: created with a chosen seed, so never rated.
    seed_fixed = models.BooleanField(default=False)
    # "" while not finished; "pending" from the transaction that ends the match until the
    # rating task has run; then "rated", or "unrated" with ``rating_note`` saying why.
    rating_status = models.CharField(
        max_length=10, choices=RatingStatus.choices, blank=True, default=""
    )
    rating_note = models.CharField(max_length=200, blank=True, default="")
    # The finished match this one replays ("Play again"): one rematch a match, so two people
    # offering at once make one offer (docs/invitations.md).
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    # Table phrases (docs/phrases.md): how many were said, raised instead of ``version`` so a
    # phrase never makes a concurrent move stale, and polled beside it; and a site setting
    # from the new-match form: whether watchers of a public match see the seats' phrases.
    phrase_count = models.PositiveIntegerField(default=0)
    phrases_watchers = models.BooleanField(default=False)
    # The "shown" mark (docs/live.md): raised by every change a page shows that is not a write
    # of the match itself (a phrase, a seated person's holiday starting or ending), so it never
    # makes a concurrent move stale; pages poll it beside ``version``.
    shown = models.PositiveIntegerField(default=0)
    # Play now (docs/quick-match.md): ``quick`` marks a public table opened by it (its creator
    # cancelling leaves it to the others seated, if any); ``rated``: the players' choice of a
    # rated table or not (a table from the new-match form is rated); ``bot_fill_at``: when the
    # greedy bot takes the seats still open and the match starts (``None``: it waits for people).
    quick = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)
    bot_fill_at = models.DateTimeField(null=True, blank=True)
    # A practice match (docs/lessons.md, "The first match, with hints"): one person against the
    # greedy bot after a game's last lesson, never rated; one unfinished a person and game.
    practice = models.BooleanField(default=False)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["status", "-updated_at"]),
            models.Index(fields=["status", "deadline_at"]),
            models.Index(fields=["public", "status", "-updated_at"], name="match_public_status"),
            models.Index(
                fields=["finished_at", "id"],
                condition=Q(rating_status="pending"),
                name="match_rating_pending",
            ),
            models.Index(
                fields=["bot_fill_at"],
                condition=Q(status="waiting", bot_fill_at__isnull=False),
                name="match_bot_fill_due",
            ),
        ]
        constraints = [
            # A double click on "Play a practice match" finds the first one instead of a second.
            models.UniqueConstraint(
                fields=["created_by", "game"],
                condition=Q(practice=True, status__in=["waiting", "active"]),
                name="match_one_practice_running",
            ),
        ]
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk} ({self.get_status_display()})"  # i18n: data


class Result(models.TextChoices):
    WON = "won", _("Won")
    LOST = "lost", _("Lost")
    DRAWN = "drawn", _("Drawn")


class Seat(models.Model):
    """A place at a table, held by a user or by a bot of some level, never both.

    Rows exist only for taken seats: a match is full when it has ``num_players`` of them.
    ``result``, ``score`` and ``rank`` are written in the transaction that ends the match (rank
    1 is best; tied seats share a rank); ``awaited_since`` is set while the match waits for this
    seat, so "your turn" lists and counts are indexed queries with no JSON parsing.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    # NULL, not "", for a person: the check constraint below reads "a user or a bot" plainly.
    bot_level = models.CharField(  # noqa: DJ001
        max_length=10, choices=BotLevel.choices, null=True, blank=True
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    result = models.CharField(  # noqa: DJ001 - NULL while the match is not over
        max_length=5, choices=Result.choices, null=True, blank=True
    )
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    awaited_since = models.DateTimeField(null=True, blank=True)
    # The ply of this seat's resignation entry (docs/leaving.md): from then on the greedy bot
    # plays the seat, and the person ranks below everyone still playing. ``None``: not resigned.
    resigned_ply = models.PositiveIntegerField(null=True, blank=True)
    # Hints on (docs/lessons.md, "The first match, with hints"): this seat's own page marks the
    # moves it may make and says beside the hand why a card picked cannot be played.
    hints = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "index"]
        indexes = [
            models.Index(fields=["user", "awaited_since"], name="seat_user_awaited"),
            models.Index(fields=["user", "result"], name="seat_user_result"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=Q(user__isnull=False), name="seat_unique_user"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False, bot_level__isnull=True)
                | Q(user__isnull=True, bot_level__isnull=False),
                name="seat_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        who = self.user.username if self.user_id is not None else f"{self.bot_level} bot"
        return f"{who} at seat {self.index} of match {self.match_id}"  # i18n: data

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None

    @property
    def resigned(self) -> bool:
        return self.resigned_ply is not None

    @property
    def bot_plays(self) -> bool:
        """A bot moves for this seat: a bot's seat, or a person's after they resigned."""
        return self.bot_level is not None or self.resigned_ply is not None


class Move(models.Model):
    """The append-only log: replaying ``new_game`` + every row by ply reproduces each
    ``chain_hash`` (``games.engines.replay``).

    ``seat`` is the seat number (``None`` for server entries such as Gulliver's ``next_round``).
    ``events`` are the engine events this entry produced, unredacted: server-side only, every
    page redacts them per seat through ``engine.redact``. ``chain_hash`` covers the state after
    the entry, the entry itself and the previous link, so the last one pins the whole history.
    ``auto`` says why the server made a person's move for them ("" for a move they chose).
    ``checkpoint`` is the engine's dump of the state after this entry on every
    ``CHECKPOINT_EVERY``-th ply (``None`` elsewhere), so a replay frame folds at most
    ``CHECKPOINT_EVERY - 1`` entries whatever the ply (docs/storage.md).
    """

    CHECKPOINT_EVERY = 20

    class Auto(models.TextChoices):
        CHOSEN = "", _("Chosen by the seat")
        DEADLINE = "deadline", _("Turn deadline passed")
        VOTE_CLOSED = "vote_closed", _("Challenge vote closed")
        RESIGNED = "resigned", _("The seat's person resigned")
        # An event's last day came (a league, docs/competitions.md): the bots played the match
        # to its end in every seat, so the event ended on the day it said it would.
        PLAYED_OUT = "played_out", _("Played out by the bots at the event's end")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    payload = models.JSONField()
    events = models.JSONField(default=list, blank=True)
    chain_hash = models.CharField(max_length=64)
    auto = models.CharField(max_length=20, choices=Auto.choices, blank=True, default="")
    checkpoint = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [models.UniqueConstraint(fields=["match", "ply"], name="move_unique_ply")]

    def __str__(self) -> str:
        who = "server" if self.seat is None else f"seat {self.seat}"
        return f"match {self.match_id} ply {self.ply}: {who} {self.payload}"  # i18n: data


class Rating(models.Model):
    """A subject's current skill at one game: a person's, or a bot level's (bots are rated
    like people). ``matches`` counts the rated matches behind it (under 10: provisional);
    ``last_played_at`` is when the newest of them finished (the leaderboard's 90 days)."""

    game = models.CharField(max_length=20, choices=Match.Game.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="ratings",
    )
    bot_level = models.CharField(  # noqa: DJ001 - NULL for a person, as on Seat
        max_length=10, choices=BotLevel.choices, null=True, blank=True
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="rating_unique_user"
            ),
            models.UniqueConstraint(
                fields=["game", "bot_level"],
                condition=Q(bot_level__isnull=False),
                name="rating_unique_bot",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False, bot_level__isnull=True)
                | Q(user__isnull=True, bot_level__isnull=False),
                name="rating_user_or_bot",
            ),
        ]
        indexes = [models.Index(fields=["game", "matches"], name="rating_game_matches")]

    def __str__(self) -> str:
        who = self.user.username if self.user_id is not None else f"{self.bot_level} bot"
        return f"{who} at {self.game}: mu {self.mu:.2f}, sigma {self.sigma:.2f}"  # i18n: data


class RatingChange(models.Model):
    """What one match did to one seat's rating: before and after, as stored and as shown.

    One row per match and seat under a unique constraint, so a rating task delivered twice
    rates once. ``ordinal_before/after`` are the whole numbers pages show; ``matches_after``
    is the rated count once this match was counted (for the provisional mark).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.IntegerField()
    ordinal_after = models.IntegerField()
    matches_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="rating_change_unique_seat")
        ]
        indexes = [models.Index(fields=["rating", "created_at"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}: {self.delta:+d}"  # i18n: data

    @property
    def delta(self) -> int:
        """The change as shown: +14, -9."""
        return self.ordinal_after - self.ordinal_before


class AnalysisStatus(models.TextChoices):
    """Where a match's post-game analysis stands (``MatchAnalysis.status``)."""

    PENDING = "pending", _("Waiting for a worker")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class MatchAnalysis(models.Model):
    """The strong bot's post-game analysis of a finished match: one per match (docs/analysis.md).

    ``decisions_total`` counts the decisions people made (their moves, less those the turn
    deadline made for them); ``decisions_done`` how many of them have an ``AnalysedDecision``
    row, so a killed run resumes where it stopped and the page shows the progress. The budget
    the run used is kept with it, for the figures it shows.
    """

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(
        max_length=10, choices=AnalysisStatus.choices, default=AnalysisStatus.PENDING
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="analyses_requested",
    )
    decisions_total = models.PositiveIntegerField(default=0)
    decisions_done = models.PositiveIntegerField(default=0)
    budget_ms = models.FloatField()
    iterations = models.PositiveIntegerField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True, default="")
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = _("match analyses")

    def __str__(self) -> str:
        return f"analysis of match {self.match_id}: {self.status}"  # i18n: data

    @property
    def percent(self) -> int:
        """How far the run has got, 0 to 100."""
        if self.status == AnalysisStatus.DONE:
            return 100
        if not self.decisions_total:
            return 0
        return min(100, self.decisions_done * 100 // self.decisions_total)


class AnalysedDecision(models.Model):
    """One decision a person made (the move at ``ply``, from seat ``seat``), as the strong bot
    judged it from that person's view at that moment.

    ``judged`` is false when there was nothing to judge (a single playable move, a challenge or
    a vote to reject): the chances and the best move are then empty. ``played_words`` and
    ``best_words`` are the moves in words, worded from the same view in every language of
    ``settings.LANGUAGES`` (``{"en-gb": "Draw from the pack", "de": ...}``), so each reader
    reads them in their own (``games.presentation.analysis.words_in``). Unique on the analysis
    and the ply, so a duplicated or retried run writes each decision once.
    """

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="decisions")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    judged = models.BooleanField(default=True)
    played = models.JSONField()
    played_words = models.JSONField(default=dict)  # a language code -> the move in its words
    best = models.JSONField(null=True, blank=True)
    best_words = models.JSONField(default=dict, blank=True)  # {} when not judged
    played_chance = models.FloatField(null=True, blank=True)
    best_chance = models.FloatField(null=True, blank=True)
    cost = models.FloatField(null=True, blank=True)
    deals = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["analysis", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "ply"], name="analysed_decision_unique_ply")
        ]

    def __str__(self) -> str:
        return f"analysis {self.analysis_id} ply {self.ply}: cost {self.cost}"  # i18n: data


class Invitation(models.Model):
    """A person asked to take one seat of a match being formed: by a challenge from the
    new-match form or a rematch offer (docs/invitations.md). Pending until accepted (they sit),
    declined (the seat is free again for the inviter) or expired (``expires_at`` passed)."""

    class Kind(models.TextChoices):
        CHALLENGE = "challenge", _("Challenge")
        REMATCH = "rematch", _("Rematch offer")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Expired")
        # Ended by a block between the two, either way: its own state, so it never reads as
        # declined by the person, even once the block is lifted.
        WITHDRAWN = "withdrawn", _("Withdrawn")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="invitations")
    seat_index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    # When its INVITATION mail went (claimed by one conditional UPDATE: sent once).
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One pending invitation a seat, and one a person at a match.
            models.UniqueConstraint(
                fields=["match", "seat_index"],
                condition=Q(status="pending"),
                name="invitation_one_pending_a_seat",
            ),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=Q(status="pending"),
                name="invitation_one_pending_a_person",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "status"], name="invitation_user_status"),
            models.Index(fields=["status", "expires_at"], name="invitation_status_expiry"),
        ]

    def __str__(self) -> str:
        return (
            f"{self.kind} to {self.user_id} "  # i18n: data
            f"for match {self.match_id} seat {self.seat_index}"
        )


class TablePhrase(models.Model):
    """A preset phrase a seated person said at the table (docs/phrases.md): its ``key`` from
    the game's list (``games.phrases``), never free text. ``ply`` is the match's ply when it
    was said, so the log shows it after that move."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="phrases")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_phrases"
    )
    seat = models.PositiveSmallIntegerField()
    ply = models.PositiveIntegerField()
    key = models.CharField(max_length=30)
    said_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "id"]
        indexes = [models.Index(fields=["match", "ply"], name="phrase_match_ply")]

    def __str__(self) -> str:
        return f"{self.key!r} by seat {self.seat} of match {self.match_id}"  # i18n: data


class MatchNotice(models.Model):
    """One person's notices about one match: seen, turn mail and deadline reminder times.
    Its table kept the name it had in ``accounts`` (a state-only move: games 0013)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_notices"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="notices")
    seen_at = models.DateTimeField(null=True, blank=True)
    turn_mailed_at = models.DateTimeField(null=True, blank=True)
    deadline_mailed_at = models.DateTimeField(null=True, blank=True)
    # When a turn push last reached one of the person's devices (once per turn; the turn mail
    # then waits longer: docs/notifications.md, "How push and mail share the work").
    turn_pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "accounts_matchnotice"
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="matchnotice_unique_user_match")
        ]

    def __str__(self) -> str:
        return f"notices of user {self.user_id} about match {self.match_id}"  # i18n: data


class LessonProgress(models.Model):
    """A person's best finish of one lesson (docs/lessons.md, "Stars"): the stars earned, best
    kept and never lowered, and when that best was first reached."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lesson_progress"
    )
    game = models.CharField(max_length=20)
    lesson = models.CharField(max_length=40)
    stars = models.PositiveSmallIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "lesson"], name="lessonprogress_unique_user_lesson"
            ),
            models.CheckConstraint(
                condition=Q(stars__gte=1, stars__lte=3), name="lessonprogress_stars_1_to_3"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.game}/{self.lesson}: {self.stars} stars for user {self.user_id}"  # i18n: data
        )


class LessonStepCount(models.Model):
    """How many runs of a lesson reached one step (``started``) and made its move
    (``finished``): counts only, no person, address or session (docs/lessons.md, "Figures")."""

    game = models.CharField(max_length=20)
    lesson = models.CharField(max_length=40)
    step = models.PositiveSmallIntegerField()
    started = models.PositiveIntegerField(default=0)
    finished = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "lesson", "step"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "lesson", "step"], name="lessonstepcount_unique_step"
            )
        ]

    def __str__(self) -> str:
        return (
            f"{self.game}/{self.lesson} step {self.step}: "  # i18n: data
            f"{self.started}/{self.finished}"
        )

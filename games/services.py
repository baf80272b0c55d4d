"""Every write to a match goes through here (HackSoft style: keyword-only, ``<entity>_<action>``).

Humans and bots reach the engine through ``move_submit`` alone; a rejection of any kind is a
``Rejected`` carrying a message a player can read and the HTTP status a view should use.

Work that must happen later (a bot's turn, Gulliver's next deal) is enqueued after the commit
of the write that made it due, as a task carrying the match id and the version it is due at.
Every such task goes back through a version-checked service here, so a duplicate, late or
swept-up task changes nothing (``StaleVersion``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from games import bots
from games.engines import Engine, IllegalMove, get_engine
from games.engines.base import seeded_rng
from games.models import DEADLINE_CHOICES, BotLevel, Match, Move, Seat

logger = logging.getLogger(__name__)

# A challenge vote with no turn deadline still closes after this long (RULINGS: 24 hours).
VOTE_DEADLINE_WITHOUT_TURN_DEADLINE = timedelta(hours=24)


class Rejected(Exception):
    """A request the rules or the match's state refuse; nothing was changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class MoveRejected(Rejected):
    """A move that was not played: stale version (409), not your turn (409), illegal (422)."""


class StaleVersion(MoveRejected):
    """The match moved on (or ended) since the version the caller saw: a late or repeated
    request. Tasks swallow exactly this; people get the table as it now stands."""


class JoinRejected(Rejected):
    """A seat that could not be taken."""


def match_create(
    *,
    game: str,
    num_players: int,
    created_by: AbstractBaseUser,
    options: dict[str, Any] | None = None,
    bots: Mapping[int, str] | None = None,
    creator_plays: bool = True,
    deadline_days: int | None = None,
    seed: int | None = None,
) -> Match:
    """A waiting match; the engine vets the player count and options.

    ``seed`` fixes the deal (tests, or replaying a known deal); it is drawn at random otherwise.
    ``bots`` maps seat numbers to bot levels. The creator takes the lowest seat left without a
    bot, unless ``creator_plays`` is false (they only watch). A table full at creation (every
    seat a bot, or the creator and bots) starts at once.
    """
    try:
        engine = get_engine(game)
    except KeyError as exc:
        raise Rejected(str(exc.args[0]), status=400) from exc
    options = dict(options or {})
    bots = dict(bots or {})
    if "dealer" in options:
        raise Rejected("The dealer is drawn from the seed, not chosen.", status=400)
    if deadline_days is not None and deadline_days not in dict(DEADLINE_CHOICES):
        raise Rejected("A turn deadline is 1, 3 or 7 days, or none.", status=400)
    for index, level in bots.items():
        if not 0 <= index < num_players:
            raise Rejected(f"There is no seat {index + 1} at a table of {num_players}.", 400)
        if level not in BotLevel.values:
            raise Rejected(f"There is no {level!r} bot.", status=400)
    free = [i for i in range(num_players) if i not in bots]
    if creator_plays and not free:
        raise Rejected("Leave a seat for yourself, or choose to watch.", status=400)
    with transaction.atomic():
        match = Match(
            game=game,
            num_players=num_players,
            options=options,
            created_by=created_by,
            deadline_days=deadline_days,
        )
        if seed is not None:
            match.seed = seed
        try:
            # Dealing once now means a bad option fails here, not when the last player sits.
            engine.new_game(num_players, match.seed, options)
        except ValueError as exc:
            raise Rejected(str(exc), status=400) from exc
        match.save()
        for index, level in sorted(bots.items()):
            Seat.objects.create(match=match, index=index, bot_level=level)
        if creator_plays:
            Seat.objects.create(match=match, index=free[0], user=created_by)
        if match.seats.count() == num_players:
            match_start(match=match)
    return match


def match_join(*, match: Match, user: AbstractBaseUser) -> Seat:
    """Seat ``user`` at the lowest free seat; the match starts when the last seat is taken.

    Joining twice returns the seat already held.
    """
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        held = locked.seats.filter(user=user).first()
        if held is not None:
            return held
        if locked.status != Match.Status.WAITING:
            raise JoinRejected("This match has already started; you can watch it.", status=409)
        taken = set(locked.seats.values_list("index", flat=True))
        free = [i for i in range(locked.num_players) if i not in taken]
        if not free:
            raise JoinRejected("Every seat at this table is taken.", status=409)
        try:
            with transaction.atomic():
                seat = Seat.objects.create(match=locked, index=free[0], user=user)
        except IntegrityError as exc:  # pragma: no cover - the row lock makes this unreachable
            raise JoinRejected("That seat was just taken; try again.", status=409) from exc
        locked.version += 1
        locked.save(update_fields=["version", "updated_at"])
        if len(taken) + 1 == locked.num_players:
            match_start(match=locked)
    _refresh(match, locked)
    return seat


def match_start(*, match: Match) -> Match:
    """Deal: draw the dealer from the seed, store the engine's first snapshot, go active."""
    engine = get_engine(match.game)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.WAITING:
            raise Rejected("This match has already started.", status=409)
        if locked.seats.count() != locked.num_players:
            raise Rejected("The match starts when every seat is taken.", status=409)
        dealer = seeded_rng(locked.seed, "dealer").randrange(locked.num_players)
        options = {**locked.options, "dealer": dealer}
        state = engine.new_game(locked.num_players, locked.seed, options)
        locked.options = options
        locked.dealer = dealer
        locked.state = engine.dump(state)
        locked.awaiting = list(engine.awaiting(state))
        locked.status = Match.Status.ACTIVE
        locked.started_at = timezone.now()
        locked.version += 1
        locked.deadline_at = _deadline(engine=engine, match=locked, state=state, previous=None)
        locked.save()
        _enqueue_due_work(match=locked, engine=engine, state=state, window=False)
    _refresh(match, locked)
    return match


def move_submit(
    *,
    match: Match,
    seat: Seat,
    move: dict[str, Any],
    expected_version: int,
    auto: str = Move.Auto.CHOSEN,
) -> Match:
    """Play ``move`` for ``seat`` if the match is still at ``expected_version``: one transaction.

    The match row is locked, so of two identical submissions one plays and the other finds the
    version moved on (409). ``auto`` records why the server played a person's move for them.
    Returns ``match`` refreshed to the committed row.
    """
    if seat.match_id != match.pk:
        raise MoveRejected("You do not have a seat at this table.", status=403)
    engine = get_engine(match.game)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status == Match.Status.WAITING:
            raise MoveRejected("The match has not started yet.", status=409)
        if locked.status == Match.Status.FINISHED:
            raise StaleVersion("The match is over.", status=409)
        if locked.version != expected_version:
            raise StaleVersion(
                "The table changed before your move arrived (another tab, or a double click); "
                "here it is as it stands now.",
                status=409,
            )
        before = engine.load(locked.state)
        if not engine.legal_moves(before, seat.index):
            raise MoveRejected("It is not your turn.", status=409)
        try:
            state = engine.apply(before, seat.index, move)
        except IllegalMove as exc:
            raise MoveRejected(str(exc), status=422) from exc
        Move.objects.create(
            match=locked,
            ply=_next_ply(locked),
            seat=seat.index,
            payload=move,
            state_hash=engine.state_hash(state),
            auto=auto,
            event_index=len(engine.events(before)),
        )
        _store_state(engine=engine, match=locked, state=state, previous=before)
        # A person's card may be challenged: bots hold back for the window before answering.
        window = (
            seat.bot_level is None
            and bool(locked.options.get("challenges"))
            and move.get("type") in {"play", "prepend"}
        )
        _enqueue_due_work(match=locked, engine=engine, state=state, window=window)
    _refresh(match, locked)
    return match


def match_next_round(*, match: Match, expected_version: int) -> Match:
    """Gulliver: deal the next round of a match whose round is over (the server's entry).

    Logged as a seatless ``{"type": "next_round"}`` Move so the log still replays. Called by the
    ``round_next`` task after a pause in which the table shows the round's result.
    """
    engine = get_engine(match.game)
    round_over = getattr(engine, "round_over", None)
    if round_over is None:
        raise Rejected(f"{match.get_game_display()} has no rounds.", status=400)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.ACTIVE or locked.version != expected_version:
            raise StaleVersion("The round was already dealt.", status=409)
        before = engine.load(locked.state)
        if not round_over(before):
            raise StaleVersion("The round is still being played.", status=409)
        state = engine.next_round(before)
        Move.objects.create(
            match=locked,
            ply=_next_ply(locked),
            seat=None,
            payload={"type": "next_round"},
            state_hash=engine.state_hash(state),
            event_index=len(engine.events(before)),
        )
        _store_state(engine=engine, match=locked, state=state, previous=before)
        _enqueue_due_work(match=locked, engine=engine, state=state, window=False)
    _refresh(match, locked)
    return match


def bot_seed(match: Match, seat: int) -> int:
    """Each decision its own reproducible seed: the match's, the version and the seat."""
    return (match.seed * 1_000_003 + match.version * 101 + seat) % (1 << 63)


def bot_move_play(*, match: Match, expected_version: int) -> Match | None:
    """Play the move of the first awaited bot seat, if the match is still at that version.

    The bot decides from ``engine.view(state, seat)`` alone, outside any transaction (the
    strong bot thinks for most of a second), and its move then goes through ``move_submit``
    like a person's, which re-checks the version under the row lock. Returns ``None`` when no
    bot is awaited; raises ``StaleVersion`` when the match moved on.
    """
    match.refresh_from_db()
    if match.status != Match.Status.ACTIVE or match.version != expected_version:
        raise StaleVersion("The match moved on before the bot's turn.", status=409)
    bot_seats = {s.index: s for s in match.seats.filter(bot_level__isnull=False)}
    seat = next((bot_seats[i] for i in match.awaiting if i in bot_seats), None)
    if seat is None:
        return None
    engine = get_engine(match.game)
    view = engine.view(engine.load(match.state), seat.index)
    budget = None
    if seat.bot_level == BotLevel.STRONG:
        budget = bots.Budget(time_ms=float(settings.PARLOUR_BOT_STRONG_BUDGET_MS))
    move = bots.choose_move(
        match.game, seat.bot_level, view, seed=bot_seed(match, seat.index), budget=budget
    )
    return move_submit(match=match, seat=seat, move=move, expected_version=expected_version)


def match_deadline_enforce(*, match: Match, now: Any = None) -> int:
    """Play what fell due: a person's turn by the greedy bot, or a vote's missing ballots.

    A challenge vote open past its deadline closes with every missing vote counted as
    accepting; a person's turn past the turn deadline is played by the greedy bot for them, to
    its end (a Faraway turn is a draw and then a card). Each move goes through ``move_submit``
    at the version read here, so a person who moves at the last moment wins the race and
    nothing is played for them. Returns the number of moves played.
    """
    now = now or timezone.now()
    engine = get_engine(match.game)
    played = 0
    # Stops when what is awaited next has a deadline still to come (the next person's turn).
    for _ in range(4 * match.num_players + 8):
        match.refresh_from_db()
        if (
            match.status != Match.Status.ACTIVE
            or match.deadline_at is None
            or match.deadline_at > now
            or not match.awaiting
        ):
            break
        state = engine.load(match.state)
        seats = {s.index: s for s in match.seats.all()}
        first = match.awaiting[0]
        if _vote_open(engine, state, first):
            seat = seats[first]
            move: dict[str, Any] = {"type": "vote", "accept": True}
            auto = Move.Auto.VOTE_CLOSED
        else:
            people = [i for i in match.awaiting if not seats[i].is_bot]
            if not people:
                break  # a bot's turn: the sweeper's business, not a deadline's
            seat = seats[people[0]]
            view = engine.view(state, seat.index)
            move = bots.choose_move(
                match.game, BotLevel.GREEDY, view, seed=bot_seed(match, seat.index)
            )
            auto = Move.Auto.DEADLINE
        try:
            move_submit(
                match=match, seat=seat, move=move, expected_version=match.version, auto=auto
            )
        except StaleVersion:
            logger.info("deadline on match %s: the table moved first", match.pk)
            break
        played += 1
    return played


def _vote_open(engine: Engine, state: Any, seat: int) -> bool:
    return any(m.get("type") == "vote" for m in engine.legal_moves(state, seat))


def _deadline(*, engine: Engine, match: Match, state: Any, previous: Any) -> Any:
    """When the move now awaited falls due (``None``: never).

    A turn of several moves by one seat (a Faraway draw, then a card) keeps the clock it
    started with. A vote's deadline runs from the challenge that opened it (the turn deadline,
    or 24 hours without one) and does not restart with each ballot.
    """
    awaiting = engine.awaiting(state)
    if engine.is_over(state) or not awaiting:
        return None
    prev_awaiting = [] if previous is None else engine.awaiting(previous)
    if _vote_open(engine, state, awaiting[0]):
        if prev_awaiting and _vote_open(engine, previous, prev_awaiting[0]):
            return match.deadline_at
        span = (
            timedelta(days=match.deadline_days)
            if match.deadline_days
            else VOTE_DEADLINE_WITHOUT_TURN_DEADLINE
        )
        return timezone.now() + span
    if match.deadline_days:
        if len(awaiting) == 1 and prev_awaiting == awaiting and match.deadline_at is not None:
            return match.deadline_at
        return timezone.now() + timedelta(days=match.deadline_days)
    return None


def _enqueue_due_work(*, match: Match, engine: Engine, state: Any, window: bool) -> None:
    """After commit: Gulliver's next deal after the pause, or the awaited bot's turn.

    One ``bot_turn`` per version: it plays the first awaited bot, and that move's own commit
    enqueues the next, so several bots awaited at once (a vote) each get their move in turn.
    """
    from games import tasks  # tasks call these services; import at use to avoid a cycle

    if match.status != Match.Status.ACTIVE:
        return
    pk, version = match.pk, match.version
    round_over = getattr(engine, "round_over", None)
    if round_over is not None and round_over(state):
        countdown = float(settings.PARLOUR_ROUND_PAUSE)
        transaction.on_commit(lambda: tasks.enqueue(tasks.round_next, pk, version, countdown))
        return
    bot_seats = set(
        Seat.objects.filter(match_id=pk, bot_level__isnull=False).values_list("index", flat=True)
    )
    if bot_seats.intersection(engine.awaiting(state)):
        countdown = float(settings.PARLOUR_BOT_WINDOW) if window else 0.0
        transaction.on_commit(lambda: tasks.enqueue(tasks.bot_turn, pk, version, countdown))


def _store_state(*, engine: Engine, match: Match, state: Any, previous: Any) -> None:
    match.state = engine.dump(state)
    match.awaiting = list(engine.awaiting(state))
    match.version += 1
    if engine.is_over(state):
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.final_state_hash = engine.state_hash(state)
    match.deadline_at = _deadline(engine=engine, match=match, state=state, previous=previous)
    match.save()


def _next_ply(match: Match) -> int:
    last = Move.objects.filter(match=match).aggregate(last=Max("ply"))["last"]
    return 1 if last is None else last + 1


def _refresh(target: Match, source: Match) -> None:
    """Copy the committed row into the caller's instance, so it never holds a stale version."""
    for field in Match._meta.concrete_fields:
        setattr(target, field.attname, getattr(source, field.attname))

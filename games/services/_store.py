"""The write funnel of a match: the one write of a new engine state (the start, every move and
every deal), the one finish, and the one announcement that the table changed (docs/live.md).

A write is: append the entry to the log (its events and the next link of the hash chain), store
the current state only, bump the version, keep the "awaited" and result columns in step, set the
deadline, and enqueue what falls due after the commit. Everything here costs the same at every
ply: no aggregate over the log, no re-reading of rows the caller already holds.

Every other change a page must refetch for goes through here too: ``match_bump`` (a join, a
leave, a cancel, an invitation answered), ``match_shown`` (a phrase, a holiday), ``match_finish``
and ``match_changed`` (a resignation), so this module (and the invitations' badge counts) alone
calls the live publisher (``tests/unit/test_layering.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import F
from django.utils import timezone

from games import queue
from games.engines import Engine, replay
from games.live import publish as live
from games.models import Match, Move, RatingStatus, Seat
from games.services.notifications import turn_mails_enqueue
from games.services.results import match_results_store
from games.signals import match_finished

# A vote (``Engine.vote_open``) with no turn deadline still closes after this long: a site
# setting (not a rule of the game), so a table never waits for ever on a voter who left.
VOTE_DEADLINE_WITHOUT_TURN_DEADLINE = timedelta(hours=24)

# What every state write changes on the match row (``save(update_fields=...)``).
STATE_FIELDS = ("state", "awaiting", "version", "ply", "head_hash", "deadline_at", "updated_at")


def seats_of(match: Match) -> list[Seat]:
    """The match's seats, by index (for writes that did not read them with the lock)."""
    return list(Seat.objects.filter(match_id=match.pk).order_by("index"))


def entry_log(
    *,
    engine: Engine,
    match: Match,
    seat: int | None,
    move: dict[str, Any],
    state: Any,
    auto: str,
    events: list[dict[str, Any]] | None = None,
) -> Move:
    """Append one entry: the events it produced, unredacted, its link of the hash chain and,
    on every ``Move.CHECKPOINT_EVERY``-th ply, the state it left (for replays). ``events``
    replaces the engine's for an entry the engine never saw (a resignation)."""
    match.ply += 1
    link = replay.chain_hash(match.head_hash, seat, move, engine.state_hash(state))
    checkpoint = engine.dump(state) if match.ply % Move.CHECKPOINT_EVERY == 0 else None
    entry = Move.objects.create(
        match=match,
        ply=match.ply,
        seat=seat,
        payload=move,
        events=engine.events(state) if events is None else events,
        chain_hash=link,
        auto=auto,
        checkpoint=checkpoint,
    )
    match.head_hash = link
    return entry


def state_store(
    *,
    engine: Engine,
    match: Match,
    state: Any,
    previous: Any,
    seats: Sequence[Seat],
    extra_fields: Sequence[str] = (),
) -> None:
    """Store ``state`` as the match's current state, with everything that follows from it."""
    awaited_before = list(match.awaiting)
    match.state = engine.dump(state)
    match.awaiting = list(engine.awaiting(state))
    match.version += 1
    fields = [*STATE_FIELDS, *extra_fields]
    over = engine.is_over(state)
    match.deadline_at = _deadline(engine=engine, match=match, state=state, previous=previous)
    if over:
        match_finish(match=match, outcome=engine.outcome(state), seats=seats, fields=fields)
    else:
        match.save(update_fields=fields)
        if match.awaiting != awaited_before:
            _awaited_mark(match, seats)
    # The seats recount their badges when whose turn it is changed or the match ended.
    recount = over or match.awaiting != awaited_before
    match_changed(match, recount=[s.user_id for s in seats] if recount else ())


def match_finish(
    *,
    match: Match,
    outcome: dict[str, Any],
    seats: Sequence[Seat],
    fields: Sequence[str],
    game_over: bool = True,
) -> None:
    """The one finish of a match, in the caller's transaction: status ``finished``, its time,
    the rating pending (rated after the commit: docs/ratings.md), saved with the caller's
    ``fields``, then each seat's result stored (``game_over`` false: resignations ended it
    before the game did). The caller announces it (``match_changed``, every seat recounting).
    ``games.signals.match_finished`` goes out last, in the same transaction."""
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.rating_status = RatingStatus.PENDING
    match.save(update_fields=[*fields, "status", "finished_at", "rating_status"])
    match_results_store(match=match, outcome=outcome, seats=seats, game_over=game_over)
    match_finished.send(sender=Match, match=match, seats=seats)


def match_changed(match: Match, *, recount: Iterable[int | None] = ()) -> None:
    """The one announcement that ``match``'s table changed: after the commit, open pages are
    told its current marks and the people in ``recount`` (whose badges may have changed with
    it) recount them (``games.live.publish``: no statement, nothing without Redis)."""
    live.table_changed(match, recount)


def match_bump(
    *, match: Match, fields: Sequence[str] = (), recount: Iterable[int | None] = ()
) -> None:
    """A change to a match that is not a state write (a seat taken or left, a cancel, an
    invitation answered, a name changed): the version goes up so open pages refetch and pages
    cached under the old one are not served again, saved with the caller's ``fields`` (on the
    locked row), and announced."""
    match.version += 1
    match.save(update_fields=["version", "updated_at", *fields])
    match_changed(match, recount=recount)


def match_shown(*, match: Match, counts: Sequence[str] = ()) -> None:
    """A change pages show that is no write of the match itself (a phrase said, a seated
    person's holiday starting or ending), on the locked row: the ``shown`` mark goes up, with
    the counters in ``counts`` (``phrase_count``), in one statement, and is announced. The
    version stays, so a move sent meanwhile is not stale (docs/live.md)."""
    raised = ("shown", *counts)
    Match.objects.filter(pk=match.pk).update(**{name: F(name) + 1 for name in raised})
    for name in raised:  # under the row lock: what the update wrote
        setattr(match, name, getattr(match, name) + 1)
    match_changed(match)


def _awaited_mark(match: Match, seats: Sequence[Seat]) -> None:
    """``Seat.awaited_since`` on the seats now awaited (kept if already set), cleared elsewhere.

    One plain statement, written out: it runs on nearly every move, and the ORM's
    ``update(Case(When(...)))`` measured 0.74 ms here against 0.22 ms for this (bench/web.py's
    machine, PostgreSQL 15); standard SQL, so SQLite runs the same text.
    """
    now = timezone.now()
    # A resigned person is never awaited: the greedy bot plays their seat (docs/leaving.md).
    values = {
        s.index: (s.awaited_since or now)
        if s.index in match.awaiting and s.resigned_ply is None
        else None
        for s in seats
    }
    table = connection.ops.quote_name(Seat._meta.db_table)
    column = connection.ops.quote_name(Seat._meta.get_field("awaited_since").column)
    index = connection.ops.quote_name(Seat._meta.get_field("index").column)
    match_col = connection.ops.quote_name(Seat._meta.get_field("match").column)
    if any(since is not None for since in values.values()):
        adapt = connection.ops.adapt_datetimefield_value  # SQLite stores naive UTC text
        value_sql = "CASE " + " ".join(f"WHEN {index} = %s THEN %s" for _ in values) + " END"
        params: list[Any] = [v for i, since in values.items() for v in (i, adapt(since))]
    else:  # nobody awaited (a round is over, or only resigned seats): a bare NULL, no CASE to
        # type (PostgreSQL cannot type a CASE whose every branch is a NULL parameter)
        value_sql, params = "NULL", []
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {column} = {value_sql} WHERE {match_col} = %s",
            [*params, match.pk],
        )
    newly = [s.user_id for s in seats if s.user_id and s.awaited_since is None and values[s.index]]
    for seat in seats:
        seat.awaited_since = values[seat.index]
    if newly:  # people (never bots) whose turn it now is: a mail, after commit (no statement)
        turn_mails_enqueue(match=match, user_ids=newly)


def deadline_span(match: Match) -> timedelta:
    """How long the awaited move is given: the turn deadline, or a vote's 24 hours without one."""
    if match.deadline_days:
        return timedelta(days=match.deadline_days)
    return VOTE_DEADLINE_WITHOUT_TURN_DEADLINE


def _deadline(*, engine: Engine, match: Match, state: Any, previous: Any) -> Any:
    """When the move now awaited falls due (``None``: never).

    A turn of several moves by one seat (a Faraway draw, then a card) keeps the clock it
    started with. A vote's deadline runs from the move that opened it (the turn deadline,
    or 24 hours without one) and does not restart with each ballot.
    """
    awaiting = match.awaiting
    if engine.is_over(state) or not awaiting:
        return None
    prev_awaiting = [] if previous is None else engine.awaiting(previous)
    if engine.vote_open(state, awaiting[0]):
        if prev_awaiting and engine.vote_open(previous, prev_awaiting[0]):
            return match.deadline_at
        return timezone.now() + deadline_span(match)
    if match.deadline_days:
        if len(awaiting) == 1 and prev_awaiting == awaiting and match.deadline_at is not None:
            return match.deadline_at
        return timezone.now() + timedelta(days=match.deadline_days)
    return None


def start_deadline(*, engine: Engine, match: Match, state: Any) -> Any:
    """When the first awaited move of a match dealt as ``state`` falls due (``None``: never),
    for a start written outside ``state_store`` (``matches_start_seated``, in bulk)."""
    return _deadline(engine=engine, match=match, state=state, previous=None)


def due_work_enqueue(
    *, match: Match, engine: Engine, state: Any, window: bool, seats: Sequence[Seat]
) -> None:
    """After commit: Gulliver's next deal after the pause, or the awaited bot's turn.

    One ``bot_turn`` per version: it plays the first awaited bot, and that move's own commit
    enqueues the next, so several bots awaited at once (a vote) each get their move in turn.
    """
    if match.status != Match.Status.ACTIVE:
        return
    pk, version = match.pk, match.version
    if engine.round_over(state):
        countdown = float(settings.PARLOUR_ROUND_PAUSE)
        queue.enqueue(queue.ROUND_NEXT, pk, version, countdown=countdown)
        return
    bot_seats = {s.index for s in seats if s.bot_plays}  # a resigned person's seat too
    if bot_seats.intersection(match.awaiting):
        countdown = float(settings.PARLOUR_BOT_WINDOW) if window else 0.0
        queue.enqueue(queue.BOT_TURN, pk, version, countdown=countdown)


def refresh(target: Match, source: Match) -> None:
    """Copy the committed row into the caller's instance, so it never holds a stale version."""
    if target is source:
        return
    for field in Match._meta.concrete_fields:
        setattr(target, field.attname, getattr(source, field.attname))

"""Every write to a match goes through here (HackSoft style: keyword-only, ``<entity>_<action>``).

Humans and, later, bots reach the engine through ``move_submit`` alone; a rejection of any kind
is a ``Rejected`` carrying a message a player can read and the HTTP status a view should use.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from games.engines import Engine, IllegalMove, get_engine
from games.engines.base import seeded_rng
from games.models import Match, Move, Seat


class Rejected(Exception):
    """A request the rules or the match's state refuse; nothing was changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class MoveRejected(Rejected):
    """A move that was not played: stale version (409), not your turn (409), illegal (422)."""


class JoinRejected(Rejected):
    """A seat that could not be taken."""


def match_create(
    *,
    game: str,
    num_players: int,
    created_by: AbstractBaseUser,
    options: dict[str, Any] | None = None,
) -> Match:
    """A waiting match with its creator at seat 0; the engine vets the player count and options."""
    try:
        engine = get_engine(game)
    except KeyError as exc:
        raise Rejected(str(exc.args[0]), status=400) from exc
    options = dict(options or {})
    if "dealer" in options:
        raise Rejected("The dealer is drawn from the seed, not chosen.", status=400)
    with transaction.atomic():
        match = Match(game=game, num_players=num_players, options=options, created_by=created_by)
        try:
            # Dealing once now means a bad option fails here, not when the last player sits.
            engine.new_game(num_players, match.seed, options)
        except ValueError as exc:
            raise Rejected(str(exc), status=400) from exc
        match.save()
        Seat.objects.create(match=match, index=0, user=created_by)
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
        locked.save()
        # Bots (issue 4): when the first awaited seat is a bot, enqueue its turn here too.
    _refresh(match, locked)
    return match


def move_submit(*, match: Match, seat: Seat, move: dict[str, Any], expected_version: int) -> Match:
    """Play ``move`` for ``seat`` if the match is still at ``expected_version``: one transaction.

    The match row is locked, so of two identical submissions one plays and the other finds the
    version moved on (409). Returns ``match`` refreshed to the committed row.
    """
    if seat.match_id != match.pk:
        raise MoveRejected("You do not have a seat at this table.", status=403)
    engine = get_engine(match.game)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status == Match.Status.WAITING:
            raise MoveRejected("The match has not started yet.", status=409)
        if locked.status == Match.Status.FINISHED:
            raise MoveRejected("The match is over.", status=409)
        if locked.version != expected_version:
            raise MoveRejected(
                "The table changed before your move arrived (another tab, or a double click); "
                "here it is as it stands now.",
                status=409,
            )
        state = engine.load(locked.state)
        if not engine.legal_moves(state, seat.index):
            raise MoveRejected("It is not your turn.", status=409)
        try:
            state = engine.apply(state, seat.index, move)
        except IllegalMove as exc:
            raise MoveRejected(str(exc), status=422) from exc
        ply = _next_ply(locked)
        Move.objects.create(
            match=locked,
            ply=ply,
            seat=seat.index,
            payload=move,
            state_hash=engine.state_hash(state),
        )
        state = _deal_next_round_if_needed(engine=engine, match=locked, state=state, ply=ply + 1)
        _store_state(engine=engine, match=locked, state=state)
        # Bots (issue 4): enqueue the awaited bot's turn here, after commit, e.g.
        # ``transaction.on_commit(lambda: bot_turn.delay(locked.pk, locked.version))``.
    _refresh(match, locked)
    return match


def _deal_next_round_if_needed(*, engine: Engine, match: Match, state: Any, ply: int) -> Any:
    """Gulliver: the server, never a player, deals the next round as soon as one ends.

    Logged as a seatless ``{"type": "next_round"}`` entry so the log still replays. The bots
    issue moves this to a worker task after a pause; it is the only caller to swap.
    """
    round_over = getattr(engine, "round_over", None)
    if round_over is None or engine.is_over(state) or not round_over(state):
        return state
    state = engine.next_round(state)
    Move.objects.create(
        match=match,
        ply=ply,
        seat=None,
        payload={"type": "next_round"},
        state_hash=engine.state_hash(state),
    )
    return state


def _store_state(*, engine: Engine, match: Match, state: Any) -> None:
    match.state = engine.dump(state)
    match.awaiting = list(engine.awaiting(state))
    match.version += 1
    if engine.is_over(state):
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.final_state_hash = engine.state_hash(state)
    match.save()


def _next_ply(match: Match) -> int:
    last = Move.objects.filter(match=match).aggregate(last=Max("ply"))["last"]
    return 1 if last is None else last + 1


def _refresh(target: Match, source: Match) -> None:
    """Copy the committed row into the caller's instance, so it never holds a stale version."""
    for field in Match._meta.concrete_fields:
        setattr(target, field.attname, getattr(source, field.attname))

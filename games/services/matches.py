"""A match's life before play: create it, take seats, deal when the last seat is taken."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.selectors.relations import blocked_with_any
from games.engines import Engine, get_engine, records
from games.engines.base import seeded_rng
from games.models import DEADLINE_CHOICES, BotLevel, Match, Seat
from games.services._store import (
    due_work_enqueue,
    match_bump,
    match_changed,
    refresh,
    seats_of,
    start_deadline,
    state_store,
)
from games.services.errors import JoinRejected, Rejected
from games.services.invitation_seats import invitation_mark_accepted, invitations_reserved
from games.services.notifications import turn_mails_enqueue

# A seat refused across a block (docs/accounts.md, "Friends and blocks"), whichever way it is
# asked for (a free seat, an invitation, a rematch): the words never say who blocked whom.
ACROSS_A_BLOCK = gettext_lazy(
    "A block stands between you and someone at this table: you cannot sit at it."
)


def seat_across_a_block(match: Match, seats: Sequence[Seat], user_id: int) -> bool:
    """Whether a block stands between the person and the match's creator or anyone seated,
    whichever of them made it. Read under the match's lock, so a block made meanwhile is seen."""
    people = {s.user_id for s in seats if s.user_id is not None} | {match.created_by_id}
    return blocked_with_any(user_id, people - {None, user_id})


def match_create(
    *,
    game: str,
    num_players: int,
    created_by: AbstractBaseUser,
    options: dict[str, Any] | None = None,
    bots: Mapping[int, str] | None = None,
    creator_plays: bool = True,
    deadline_days: int | None = None,
    holidays: bool = True,
    seed: int | None = None,
    public: bool = False,
    dealer: int | None = None,
    rematch_of: Match | None = None,
    phrases_watchers: bool = False,
    quick: bool = False,
    rated: bool = True,
    bot_fill_at: datetime.datetime | None = None,
    hints: bool = False,
    practice: bool = False,
    creator_first: bool = False,
    first_seat: int | None = None,
) -> Match:
    """A waiting match; the engine vets the player count and options.

    ``seed`` fixes the deal (tests, or replaying a known deal); it is drawn at random otherwise.
    The seed commitment is drawn here (``games.engines.records``). A ``public`` match may be
    watched by any signed-in user and is listed in the lobby; a private one is its members'.
    ``holidays=False`` refuses holidays: the turn deadline runs even for a person away
    (docs/accounts.md, "Holidays"). ``bots`` maps seat numbers to bot levels. The creator
    takes the lowest seat left without a bot, unless ``creator_plays`` is false (they only
    watch). A table full at creation (every seat a bot, or the creator and bots) starts at
    once. ``dealer`` and ``rematch_of`` are a rematch's (``games.services.invitations``): the
    seat that deals is then the one after the last match's dealer, not a draw.
    ``phrases_watchers``: watchers of a public match see the seats' table phrases
    (docs/phrases.md). ``quick``, ``rated`` and ``bot_fill_at`` are Play now's
    (``games.services.quick``, docs/quick-match.md): a table it opened, whether it is rated, and
    when the greedy bot takes the seats still open. ``hints``: the creator's seat starts with
    hints on; ``practice`` marks a practice match (never rated, one unfinished a person and
    game: ``games.services.practice``); ``creator_first`` chooses the dealer so that the creator
    moves first, when the game takes a chosen dealer (otherwise the deal decides);
    ``first_seat`` does the same for a seat by number (a ladder's challenged person).
    """
    try:
        engine = get_engine(game)
    except KeyError as exc:
        raise Rejected(str(exc.args[0]), status=400) from exc
    options = dict(options or {})
    bots = dict(bots or {})
    if "dealer" in options:
        raise Rejected(_("The dealer is drawn from the seed, not chosen."), status=400)
    if deadline_days is not None and deadline_days not in dict(DEADLINE_CHOICES):
        raise Rejected(_("A turn deadline is 1, 3 or 7 days, or none."), status=400)
    for index, level in bots.items():
        if not 0 <= index < num_players:
            raise Rejected(
                _("There is no seat %(seat)d at a table of %(seats)d.")
                % {"seat": index + 1, "seats": num_players},
                400,
            )
        if level not in BotLevel.values:
            raise Rejected(_("There is no %(level)r bot.") % {"level": level}, status=400)
    if dealer is not None:
        options["dealer"] = dealer % num_players
    free = [i for i in range(num_players) if i not in bots]
    if creator_plays and not free:
        raise Rejected(_("Leave a seat for yourself, or choose to watch."), status=400)
    with transaction.atomic():
        match = Match(
            game=game,
            num_players=num_players,
            options=options,
            created_by=created_by,
            deadline_days=deadline_days,
            holidays=holidays,
            public=public,
            rematch_of=rematch_of,
            phrases_watchers=phrases_watchers,
            quick=quick,
            rated=rated,
            bot_fill_at=bot_fill_at,
            practice=practice,
        )
        if seed is not None:
            match.seed = seed
            match.seed_fixed = True  # a chosen deal is never rated (docs/ratings.md)
        match.commitment = records.seed_commitment(match.salt, match.seed)
        try:
            # Dealing once now means a bad option fails here, not when the last player sits.
            engine.new_game(num_players, match.seed, options)
        except ValueError as exc:
            raise Rejected(str(exc), status=400) from exc
        if creator_plays and creator_first:
            match.options = _dealer_for_first(engine, match, options, free[0])
        elif first_seat is not None and 0 <= first_seat < num_players:
            match.options = _dealer_for_first(engine, match, options, first_seat)
        match.save()
        seats = [Seat(match=match, index=index, bot_level=level) for index, level in bots.items()]
        if creator_plays:
            seats.append(Seat(match=match, index=free[0], user=created_by, hints=hints))
        Seat.objects.bulk_create(sorted(seats, key=lambda s: s.index))
        if len(seats) == num_players:
            match_start(match=match)
    return match


def _dealer_for_first(
    engine: Engine, match: Match, options: dict[str, Any], seat: int
) -> dict[str, Any]:
    """``options`` with the dealer whose deal awaits ``seat`` first, asked of the engine itself
    (no rule restated); unchanged when no dealer does, or the game takes no chosen dealer."""
    for dealer in range(match.num_players):
        chosen = {**options, "dealer": dealer}
        try:
            dealt = engine.new_game(match.num_players, match.seed, chosen)
        except ValueError:
            return options
        if engine.awaiting(dealt) == [seat]:
            return chosen
    return options


@dataclass(frozen=True)
class SeatedTable:
    """A table whose people are known before it exists: their user ids in seat order."""

    user_ids: tuple[int, ...]


def matches_start_seated(
    *,
    game: str,
    tables: Sequence[SeatedTable],
    deadline_days: int | None,
    holidays: bool,
    rated: bool,
) -> list[Match]:
    """Private matches already dealt, each with the given people in the given seats, seat 0
    moving first when the game takes a chosen dealer (the engine is asked: ``_dealer_for_first``;
    otherwise the seed's draw decides, as in ``match_start``). Made in bulk, whatever the
    number of tables: one insert of the matches and one of their seats, in the caller's
    transaction (an event's pairing: docs/competitions.md). Seat 0's person is the creator (a
    private match's members are its seats). Each table starts as ``match_start`` would leave
    it: the first state, its events and hash, the awaited seats marked, the turn's deadline;
    after the commit the awaited people's turn notices go and their badges recount."""
    engine = get_engine(game)
    if deadline_days is not None and deadline_days not in dict(DEADLINE_CHOICES):
        raise Rejected(_("A turn deadline is 1, 3 or 7 days, or none."), status=400)
    now = timezone.now()
    made: list[tuple[Match, Any]] = []
    for table in tables:
        players = len(table.user_ids)
        if not engine.min_players <= players <= engine.max_players:
            raise Rejected(
                _("%(game)s is not played by %(count)d.")
                % {"game": engine.title, "count": players},
                status=400,
            )
        match = Match(
            game=game,
            num_players=players,
            created_by_id=table.user_ids[0],
            deadline_days=deadline_days,
            holidays=holidays,
            public=False,
            rated=rated,
            status=Match.Status.ACTIVE,
            started_at=now,
            version=1,
        )
        match.commitment = records.seed_commitment(match.salt, match.seed)
        options = _dealer_for_first(engine, match, {}, 0)
        if "dealer" not in options:
            options = {"dealer": seeded_rng(match.seed, "dealer").randrange(players)}
        state = engine.new_game(players, match.seed, options)
        match.options = options
        match.start_events = engine.events(state)
        match.head_hash = engine.state_hash(state)
        match.state = engine.dump(state)
        match.awaiting = list(engine.awaiting(state))
        match.deadline_at = start_deadline(engine=engine, match=match, state=state)
        made.append((match, state))
    Match.objects.bulk_create([match for match, _state in made])
    seats = [
        Seat(
            match=match,
            index=index,
            user_id=user_id,
            awaited_since=now if index in match.awaiting else None,
        )
        for (match, _state), table in zip(made, tables, strict=True)
        for index, user_id in enumerate(table.user_ids)
    ]
    Seat.objects.bulk_create(seats)
    for (match, _state), table in zip(made, tables, strict=True):
        awaited = [table.user_ids[i] for i in match.awaiting]
        turn_mails_enqueue(match=match, user_ids=awaited)
        match_changed(match, recount=table.user_ids)
    return [match for match, _ in made]


def match_join(*, match: Match, user: AbstractBaseUser) -> Seat:
    """Seat ``user`` at the lowest free seat; the match starts when the last seat is taken.

    Joining twice returns the seat already held.
    """
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        seats = list(Seat.objects.filter(match_id=locked.pk))
        held = next((s for s in seats if s.user_id == user.pk), None)
        if held is not None:
            return held
        if locked.status == Match.Status.CANCELLED:
            raise JoinRejected(_("This match was cancelled by its creator."), status=409)
        if locked.status != Match.Status.WAITING:
            raise JoinRejected(
                _("This match has already started: every seat is taken."), status=409
            )
        taken = {s.index for s in seats}
        # A seat a person is invited to is theirs until they answer (docs/invitations.md);
        # the invited person joining by the link takes it, as an accept.
        reserved = invitations_reserved(match_id=locked.pk)
        mine = [index for index, user_id in reserved.items() if user_id == user.pk]
        free = mine or [
            i for i in range(locked.num_players) if i not in taken and i not in reserved
        ]
        if not free and reserved:
            raise JoinRejected(_("The free seats are held for the people invited."), status=409)
        if not free:
            raise JoinRejected(_("Every seat at this table is taken."), status=409)
        if seat_across_a_block(locked, seats, user.pk):
            raise JoinRejected(ACROSS_A_BLOCK, status=403)
        try:
            with transaction.atomic():
                seat = Seat.objects.create(match=locked, index=free[0], user=user)
        except IntegrityError as exc:
            # PostgreSQL's row lock (or SQLite's write lock taken at BEGIN) makes this a race
            # that cannot happen; should it, the person gets a 409 and nothing changes.
            raise JoinRejected(_("That seat was just taken; try again."), status=409) from exc
        if mine:
            invitation_mark_accepted(match_id=locked.pk, user_id=user.pk)
        # Taking a held seat accepts its invitation: it leaves the person's notices and badge.
        match_bump(match=locked, recount=[user.pk] if mine else ())
        if len(taken) + 1 == locked.num_players:
            match_start(match=locked)
    refresh(match, locked)
    return seat


def match_start(*, match: Match) -> Match:
    """Deal: draw the dealer from the seed (a rematch's is set), store the first snapshot, go
    active.

    The deal's events go to ``Match.start_events`` and the first link of the hash chain (the
    state hash of the new game) to ``Match.head_hash``.
    """
    engine = get_engine(match.game)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status != Match.Status.WAITING:
            raise Rejected(_("This match has already started."), status=409)
        seats = seats_of(locked)
        if len(seats) != locked.num_players:
            raise Rejected(_("The match starts when every seat is taken."), status=409)
        dealer = locked.options.get("dealer")  # a rematch's: the seat after the last dealer
        if dealer is None:
            dealer = seeded_rng(locked.seed, "dealer").randrange(locked.num_players)
        options = {**locked.options, "dealer": dealer}
        state = engine.new_game(locked.num_players, locked.seed, options)
        locked.options = options
        locked.start_events = engine.events(state)
        locked.head_hash = engine.state_hash(state)
        locked.status = Match.Status.ACTIVE
        locked.started_at = timezone.now()
        state_store(
            engine=engine,
            match=locked,
            state=state,
            previous=None,
            seats=seats,
            extra_fields=("options", "start_events", "status", "started_at"),
        )
        due_work_enqueue(match=locked, engine=engine, state=state, window=False, seats=seats)
    refresh(match, locked)
    return match

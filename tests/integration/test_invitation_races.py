"""Invitations racing (docs/invitations.md): two accepts for the last seat, a double click,
an accept against the expiry, a block against a pending challenge, two rematch offers at once.
On whichever database the suite runs: PostgreSQL in CI, the SQLite file otherwise (as
``test_concurrency.py``). A race may refuse (409) but never fails (500) nor leaves a half."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.selectors.relations import has_blocked
from accounts.services.relations import block_add
from games.models import Invitation, Match, Seat
from games.services import match_create, match_join, match_resign
from games.services.invitations import (
    invitations_expire,
    match_challenge_create,
    rematch_offer,
)
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)
Status = Invitation.Status


def _challenged(ann, *others) -> Match:
    return match_challenge_create(
        created_by=ann,
        challenges={i + 1: user for i, user in enumerate(others)},
        game="faraway",
        num_players=len(others) + 1,
    )


def _people(*names):
    return [factories.user_make(name) for name in names]


def test_two_accepts_for_the_last_seats_at_once_seat_both_and_start_once():
    ann, bea, cal = _people("ann", "bea", "cal")
    match = _challenged(ann, bea, cal)
    ids = dict(Invitation.objects.values_list("user__username", "pk"))
    jobs = [
        lambda u=u: factories.client_for(u)
        .post(f"/invitations/{ids[u.username]}/accept/")
        .status_code
        for u in (bea, cal)
    ]
    assert factories.at_once(jobs, timeout=30) == [302, 302]
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.status == Match.Status.ACTIVE
    assert fresh.version == match.version + 3  # two seats taken, one start
    assert set(Invitation.objects.values_list("status", flat=True)) == {Status.ACCEPTED}


def test_the_same_accept_twice_at_once_seats_once():
    ann, bea = _people("ann", "bea")
    match = _challenged(ann, bea)
    pk = Invitation.objects.get().pk
    client = factories.client_for(bea)
    statuses = factories.at_once(
        [lambda: client.post(f"/invitations/{pk}/accept/").status_code] * 2, timeout=30
    )
    assert sorted(statuses) == [302, 409]
    assert Seat.objects.filter(match=match, user=bea).count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_an_accept_against_the_expiry_sweep_comes_out_one_way(attempt):
    ann, bea = _people("ann", "bea")
    match = _challenged(ann, bea)
    lapse = timezone.now() + timedelta(milliseconds=50 + 20 * attempt)
    Invitation.objects.update(expires_at=lapse)
    pk = Invitation.objects.get().pk

    def sweep():
        time.sleep(max(0.0, (lapse - timezone.now()).total_seconds()))
        return invitations_expire()

    def accept():
        time.sleep(max(0.0, (lapse - timezone.now()).total_seconds() - 0.01))
        return factories.client_for(bea).post(f"/invitations/{pk}/accept/").status_code

    swept, status = factories.at_once([sweep, accept], timeout=30)
    invitation = Invitation.objects.get()
    seated = Seat.objects.filter(match=match, user=bea).exists()
    if invitation.status == Status.ACCEPTED:
        assert status == 302 and seated and swept == 0
    else:
        assert invitation.status == Status.EXPIRED and status == 409 and not seated


@pytest.mark.parametrize("attempt", range(3))
def test_a_block_against_an_accept_comes_out_one_way(attempt):
    ann, bea = _people("ann", "bea")
    match = _challenged(ann, bea)
    pk = Invitation.objects.get().pk

    def block():
        return block_add(blocker_id=ann.pk, blocked_id=bea.pk)

    def accept():
        return factories.client_for(bea).post(f"/invitations/{pk}/accept/").status_code

    jobs = [block, accept] if attempt % 2 else [accept, block]
    factories.at_once(jobs, timeout=30)
    invitation = Invitation.objects.get()
    seated = Seat.objects.filter(match=match, user=bea).exists()
    assert has_blocked(ann.pk, bea.pk)
    assert (invitation.status, seated) in {(Status.ACCEPTED, True), (Status.WITHDRAWN, False)}


def test_two_rematch_offers_at_once_make_one_match_that_begins():
    ann, bea = _people("ann", "bea")
    old = factories.match_make(players=[ann], seats=2)
    match_join(match=old, user=bea)
    match_resign(match_id=old.pk, user=bea)
    answers = factories.at_once(
        [lambda u=u: rematch_offer(match_id=old.pk, user=u) for u in (ann, bea)], timeout=30
    )
    rematch = Match.objects.get(rematch_of=old)
    assert {a.match_id for a in answers} == {rematch.pk}
    assert rematch.status == Match.Status.ACTIVE
    assert set(rematch.seats.values_list("user__username", flat=True)) == {"ann", "bea"}


@pytest.mark.parametrize("attempt", range(3))
def test_a_bot_seated_against_a_join_for_the_last_seat_comes_out_one_way(attempt):
    ann, bea = _people("ann", "bea")
    match = match_create(game="faraway", num_players=2, created_by=ann, public=True)

    def bot():
        return (
            factories.client_for(ann)
            .post(f"/matches/{match.pk}/bot/", {"seat": "2", "level": "greedy"})
            .status_code
        )

    def join():
        return factories.client_for(bea).post(f"/matches/{match.pk}/join/").status_code

    jobs = [bot, join] if attempt % 2 else [join, bot]
    answers = dict(
        zip(
            ("bot", "join") if attempt % 2 else ("join", "bot"),
            factories.at_once(jobs, timeout=30),
            strict=True,
        )
    )
    fresh = Match.objects.get(pk=match.pk)
    seat = fresh.seats.get(index=1)
    assert fresh.status == Match.Status.ACTIVE and fresh.seats.count() == 2
    # The refused join comes back to the table with its message (a 302 either way).
    assert answers["join"] == 302
    if seat.bot_level:
        assert answers["bot"] == 302 and seat.user_id is None
    else:
        assert answers["bot"] == 409 and seat.user_id == bea.pk

"""Issue 33, "Invitation wording" and "Invitations and offers reach open pages": a rematch offer
names the match rematched; an invitation ended by a block does not read "declined"; a seat held
for a person invited reads as held (never "(open seat)"), is offered to nobody else and is not
counted free; every path that changes a person's invitation notices tells their badge."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services.relations import block_add, block_remove
from games.live import publish as live
from games.models import Invitation, Match, Seat
from games.services import match_create, match_join, match_resign
from games.services.invitations import invitations_expire, rematch_offer
from tests import factories

pytestmark = pytest.mark.django_db
Status = Invitation.Status


@pytest.fixture
def people():
    return [factories.user_make(name) for name in ("ann", "bea", "cal", "dan")]


@pytest.fixture
def told(monkeypatch):
    """Whose badges the invitation services said to recount (after the commit, on Redis)."""
    names: list[int] = []
    monkeypatch.setattr(live, "badges_changed", lambda ids: names.extend(ids))
    monkeypatch.setattr(live, "table_changed", lambda match, ids=(): names.extend(ids))
    return names


def _challenge(client, name="bea", **extra):
    data = {"game": "faraway", "num_players": "2", "seat_0": "me", "visibility": "private"}
    data.update({"seat_1": "challenge", "challenge_1": name})
    data.update({k: str(v) for k, v in extra.items()})
    return client.post("/matches/new/", data)


def _finished(players) -> Match:
    match = match_create(game="faraway", num_players=len(players), created_by=players[0])
    for user in players[1:]:
        match_join(match=match, user=user)
    for user in players[1:]:
        match_resign(match_id=match.pk, user=user)
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
    assert match.status == Match.Status.FINISHED
    return match


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- A rematch offer names the match rematched ----------------------------------------------


def test_a_rematch_offer_names_and_links_the_match_rematched_not_only_the_new_table(people):
    ann, bea, _, _ = people
    old = _finished([ann, bea])
    rematch_offer(match_id=old.pk, user=ann)
    new = Match.objects.get(rematch_of=old)
    page = factories.client_for(bea).get("/notices/").content.decode()
    text = _text(page)
    assert f"ann offers a rematch of The Faraway Tree #{old.pk}" in text
    assert f"at the new table #{new.pk}" in text
    assert f'href="/matches/{old.pk}/" class="rematch-of-link"' in page
    assert f'href="/matches/{new.pk}/" class="rematch-new-link"' in page


# --- An invitation ended by a block ---------------------------------------------------------


@pytest.mark.parametrize("who_blocks", ["invited", "inviter"])
def test_an_invitation_ended_by_a_block_does_not_read_declined(people, who_blocks):
    ann, bea, _, _ = people
    _challenge(factories.client_for(ann), visibility="public")
    match = Match.objects.get()
    if who_blocks == "invited":
        block_add(blocker_id=bea.pk, blocked_id=ann.pk)
    else:
        block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    assert Invitation.objects.get().status == Status.WITHDRAWN
    notices = _text(factories.client_for(ann).get("/notices/").content.decode())
    table = _text(factories.client_for(ann).get(f"/matches/{match.pk}/").content.decode())
    for page in (notices, table):
        assert "bea, seat 2 of 2: can no longer be accepted" in page
        assert "bea, seat 2 of 2: declined" not in page and "blocked" not in page


def test_answering_an_invitation_the_inviters_block_ended_does_not_say_declined(people):
    ann, bea, _, _ = people
    _challenge(factories.client_for(ann))
    invitation = Invitation.objects.get()
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    answer = factories.client_for(bea).post(f"/invitations/{invitation.pk}/accept/")
    words = answer.content.decode()
    assert answer.status_code == 409 and "This invitation can no longer be accepted." in words
    assert "declined" not in words and "blocked" not in words


@pytest.mark.parametrize("who_blocks", ["invited", "inviter"])
def test_an_invitation_ended_by_a_block_since_lifted_still_does_not_read_declined(
    people, who_blocks
):
    ann, bea, _, _ = people
    _challenge(factories.client_for(ann), visibility="public")
    match, invitation = Match.objects.get(), Invitation.objects.get()
    blocker, blocked = (bea, ann) if who_blocks == "invited" else (ann, bea)
    block_add(blocker_id=blocker.pk, blocked_id=blocked.pk)
    block_remove(blocker_id=blocker.pk, blocked_id=blocked.pk)
    notices = _text(factories.client_for(ann).get("/notices/").content.decode())
    table = _text(factories.client_for(ann).get(f"/matches/{match.pk}/").content.decode())
    for page in (notices, table):
        assert "bea, seat 2 of 2: can no longer be accepted" in page
        assert "bea, seat 2 of 2: declined" not in page and "blocked" not in page
    answer = factories.client_for(bea).post(f"/invitations/{invitation.pk}/accept/")
    words = answer.content.decode()
    assert answer.status_code == 409 and "This invitation can no longer be accepted." in words
    assert "declined" not in words and "blocked" not in words
    assert not Seat.objects.filter(match=match, user=bea).exists()


def test_an_invitation_declined_by_its_person_still_reads_declined(people):
    ann, bea, _, _ = people
    _challenge(factories.client_for(ann))
    invitation = Invitation.objects.get()
    factories.client_for(bea).post(f"/invitations/{invitation.pk}/decline/")
    notices = _text(factories.client_for(ann).get("/notices/").content.decode())
    assert "bea, seat 2 of 2: declined" in notices


# --- A seat held for a person invited -------------------------------------------------------


def test_a_held_seat_reads_held_by_name_to_members_and_anonymously_to_others(people):
    ann, bea, cal, _ = people
    _challenge(factories.client_for(ann), visibility="public", num_players=3, seat_2="person")
    match = Match.objects.get()
    for member in (ann, bea):
        page = _text(factories.client_for(member).get(f"/matches/{match.pk}/").content.decode())
        assert "held for bea (invited)" in page
        assert "(open seat)" in page  # seat 3, which anyone may take
    creator = _text(factories.client_for(ann).get(f"/matches/{match.pk}/").content.decode())
    assert "1 seat still free, 1 held for the player invited" in creator
    other = _text(factories.client_for(cal).get(f"/matches/{match.pk}/").content.decode())
    assert "held for an invited player" in other and "bea" not in other
    assert "An invited player, seat 2 of 3: invited, not answered yet" in other


def test_a_table_whose_free_seats_are_all_held_offers_no_seat_to_others(people):
    ann, bea, cal, _ = people
    _challenge(factories.client_for(ann), visibility="public")
    match = Match.objects.get()
    creator = _text(factories.client_for(ann).get(f"/matches/{match.pk}/").content.decode())
    assert "0 seats still free, 1 held for the player invited" in creator
    assert "1 seat still free" not in creator
    other = factories.client_for(cal).get(f"/matches/{match.pk}/").content.decode()
    assert 'id="take-seat"' not in other and "(open seat)" not in other
    link = factories.client_for(cal).get(f"/matches/join/{match.invite_token}/").content.decode()
    assert 'id="take-seat"' not in link and "held for an invited player" in link
    assert "Every free seat is held for the people invited" in link
    # The person invited may still take it (as an accept), from the table or the link.
    invited = factories.client_for(bea).get(f"/matches/{match.pk}/").content.decode()
    assert 'id="take-seat"' in invited
    invited_link = factories.client_for(bea).get(f"/matches/join/{match.invite_token}/")
    assert 'id="take-seat"' in invited_link.content.decode()


def test_the_lobby_lists_no_table_whose_free_seats_are_all_held_but_to_the_invited(people):
    ann, bea, cal, dan = people
    _challenge(factories.client_for(ann), visibility="public")
    full = Match.objects.get()
    _challenge(
        factories.client_for(dan), name="bea", visibility="public", num_players=3, seat_2="person"
    )
    partly = Match.objects.exclude(pk=full.pk).get()
    lobby = factories.client_for(cal).get("/matches/").content.decode()
    assert f'data-match-id="{full.pk}"' not in lobby
    assert f'data-match-id="{partly.pk}"' in lobby
    row = _text(lobby.split(f'data-match-id="{partly.pk}"')[1].split("</li>")[0])
    assert "held for an invited player" in row and "(open seat)" in row and "bea" not in row
    # The invited person finds both, each with its Join, which takes the held seat.
    theirs = factories.client_for(bea).get("/matches/").content.decode()
    assert f'data-match-id="{full.pk}"' in theirs
    factories.client_for(bea).post(f"/matches/{full.pk}/join/")
    assert Seat.objects.get(match=full, user=bea).index == 1
    # The creator's own list names the person.
    mine = _text(factories.client_for(dan).get("/matches/").content.decode())
    assert "held for bea (invited)" in mine


# --- Every change to a person's invitation notices reaches their badge ---------------------


def test_a_decline_tells_the_inviters_badge_too(people, told):
    ann, bea, _, _ = people
    _challenge(factories.client_for(ann))
    invitation = Invitation.objects.get()
    told.clear()
    factories.client_for(bea).post(f"/invitations/{invitation.pk}/decline/")
    assert {ann.pk, bea.pk} <= set(told)


def test_a_lapse_marked_by_the_sweep_tells_the_inviters_badge_too(people, told):
    ann, bea, _, _ = people
    _challenge(factories.client_for(ann))
    Invitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    told.clear()
    assert invitations_expire() == 1
    assert {ann.pk, bea.pk} <= set(told)


def test_taking_the_held_seat_by_the_link_tells_the_invited_persons_badge(people, told):
    ann, bea, _, _ = people
    _challenge(factories.client_for(ann), num_players=3, seat_2="person")
    match = Match.objects.get()
    told.clear()
    factories.client_for(bea).post(f"/matches/join/{match.invite_token}/")
    assert Invitation.objects.get().status == Status.ACCEPTED
    assert bea.pk in told


def test_a_cancel_tells_the_inviter_whose_notices_listed_a_declined_seat(people, told):
    ann, bea, _, _ = people
    _challenge(factories.client_for(ann), num_players=3, seat_2="challenge", challenge_2="cal")
    match = Match.objects.get()
    declined = Invitation.objects.get(user=bea)
    factories.client_for(bea).post(f"/invitations/{declined.pk}/decline/")
    told.clear()
    factories.client_for(ann).post(f"/matches/{match.pk}/cancel/", {"confirm": "yes"})
    assert Match.objects.get().status == Match.Status.CANCELLED
    assert ann.pk in told


def test_the_history_row_of_a_forming_match_counts_a_held_seat_as_held_not_open(people):
    ann = people[0]
    _challenge(factories.client_for(ann), num_players=3, seat_2="person")
    page = _text(factories.client_for(ann).get("/history/").content.decode())
    assert "(1 open seat, 1 held for the player invited)" in page
    assert "2 open seats" not in page

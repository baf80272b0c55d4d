"""Invitations (docs/invitations.md): challenges by name from the new-match form, rematch
offers from a finished table, their answers, expiry, blocks, and what each refusal says."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import ChallengeSetting
from accounts.selectors.relations import has_blocked
from accounts.services.deletion import account_delete
from accounts.services.relations import block_add, challenge_setting_save, follow_add
from games import tasks
from games.live import publish as live
from games.models import BotLevel, Invitation, Match, Seat
from games.selectors.invitations import (
    challenge_candidates,
    invitations_pending,
    invitations_pending_count,
)
from games.services import match_create, match_join, match_resign
from games.services.invitations import invitations_expire, rematch_offer
from tests import factories

pytestmark = pytest.mark.django_db
Status = Invitation.Status


@pytest.fixture
def people():
    return [factories.user_make(name) for name in ("ann", "bea", "cal")]


def _form(**extra):
    data = {"game": "faraway", "num_players": "2", "seat_0": "me", "visibility": "private"}
    data.update({k: str(v) for k, v in extra.items()})
    return data


def _challenge(client, name="bea", **extra):
    return client.post("/matches/new/", _form(seat_1="challenge", challenge_1=name, **extra))


def _finished(players, *, bots=None, deadline_days=None) -> Match:
    """A finished match: ``players`` seated in order (then ``bots``), the last person resigns."""
    bots = bots or {}
    match = match_create(
        game="faraway",
        num_players=len(players) + len(bots),
        created_by=players[0],
        bots=bots,
        deadline_days=deadline_days,
    )
    for user in players[1:]:
        match_join(match=match, user=user)
    for user in players[1:] or players:
        match_resign(match_id=match.pk, user=user)
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
    assert match.status == Match.Status.FINISHED
    return match


# --- Challenges by name ---------------------------------------------------------------------


def test_a_challenge_holds_the_seat_until_accepted_and_the_match_then_begins(people):
    ann, bea, cal = people
    response = _challenge(factories.client_for(ann))
    assert response.status_code == 302
    match = Match.objects.get()
    invitation = Invitation.objects.get()
    assert (invitation.user, invitation.invited_by, invitation.seat_index) == (bea, ann, 1)
    assert invitation.kind == Invitation.Kind.CHALLENGE and invitation.status == Status.PENDING
    lapse = invitation.expires_at - timezone.now()
    assert timedelta(days=2, hours=23) < lapse <= timedelta(days=3)
    bea_client = factories.client_for(bea)
    page = bea_client.get(f"/matches/{match.pk}/")  # a private match: she is invited
    assert page.status_code == 200
    assert f'id="invitation-accept-{invitation.pk}"' in page.content.decode()
    assert factories.client_for(cal).get(f"/matches/{match.pk}/").status_code == 404
    answer = bea_client.post(f"/invitations/{invitation.pk}/accept/")
    assert answer.status_code == 302 and answer.url == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert Seat.objects.get(match=match, index=1).user == bea
    invitation.refresh_from_db()
    assert invitation.status == Status.ACCEPTED and invitation.answered_at is not None
    again = bea_client.post(f"/invitations/{invitation.pk}/accept/")  # a double click
    assert again.status_code == 409
    assert "already accepted" in again.content.decode()


def test_the_profile_link_prefills_a_challenge_seat(people):
    page = factories.client_for(people[0]).get("/matches/new/?challenge=bea").content.decode()
    assert '<option value="challenge" selected>' in page
    assert 'name="challenge_1" value="bea"' in page


def test_a_challenge_the_person_does_not_allow_is_refused_and_makes_nothing(people):
    ann, bea, _ = people
    challenge_setting_save(user_id=bea.pk, who=ChallengeSetting.Who.NOBODY)
    response = _challenge(factories.client_for(ann))
    assert response.status_code == 400
    assert "bea does not take challenges." in response.content.decode()
    assert not Match.objects.exists() and not Invitation.objects.exists()


@pytest.mark.parametrize(
    ("name", "words"),
    [("nobody-here", "There is no player named nobody-here."), ("", "Type the name")],
)
def test_an_unknown_or_missing_name_is_refused_and_makes_nothing(people, name, words):
    response = _challenge(factories.client_for(people[0]), name=name)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Match.objects.exists()


def test_challenging_yourself_or_one_person_twice_is_refused(people):
    client = factories.client_for(people[0])
    assert "cannot challenge yourself" in _challenge(client, name="ann").content.decode()
    twice = client.post(
        "/matches/new/",
        _form(num_players=3, seat_1="challenge", challenge_1="bea")
        | {"seat_2": "challenge", "challenge_2": "bea"},
    )
    assert twice.status_code == 400 and "bea is challenged twice." in twice.content.decode()
    assert not Match.objects.exists()


def test_a_challenged_seat_is_not_taken_from_the_lobby_until_declined(people):
    ann, bea, cal = people
    _challenge(factories.client_for(ann), visibility="public")
    match = Match.objects.get()
    cal_client = factories.client_for(cal)
    refused = cal_client.post(f"/matches/{match.pk}/join/", follow=True)
    assert "The free seats are held for the people invited." in refused.content.decode()
    assert not Seat.objects.filter(user=cal).exists()
    invitation = Invitation.objects.get()
    bea_client = factories.client_for(bea)
    assert bea_client.post(f"/invitations/{invitation.pk}/decline/").status_code == 302
    invitation.refresh_from_db()
    assert invitation.status == Status.DECLINED
    # The inviter is told: their notices, and the table.
    assert [i.id for i in invitations_pending(ann.pk)] == [invitation.pk]
    table = factories.client_for(ann).get(f"/matches/{match.pk}/").content.decode()
    assert "bea, seat 2 of 2: declined" in table
    late = bea_client.post(f"/invitations/{invitation.pk}/accept/")
    assert late.status_code == 409 and "was declined" in late.content.decode()
    cal_client.post(f"/matches/{match.pk}/join/")
    assert Seat.objects.get(match=match, index=1).user == cal


def test_the_invited_person_joining_by_the_link_takes_the_held_seat(people):
    ann, bea, _ = people
    _challenge(factories.client_for(ann), num_players=3, seat_2="person")
    match = Match.objects.get()
    factories.client_for(bea).post(f"/matches/join/{match.invite_token}/")
    assert Seat.objects.get(match=match, user=bea).index == 1
    assert Invitation.objects.get().status == Status.ACCEPTED


def test_a_lapsed_challenge_is_refused_when_read_and_marked_by_the_sweep(people):
    ann, bea, _ = people
    _challenge(factories.client_for(ann))
    invitation = Invitation.objects.get()
    Invitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert invitations_pending(bea.pk) == []  # lazily, before any sweep
    assert [i.status for i in invitations_pending(ann.pk)] == ["expired"]
    answer = factories.client_for(bea).post(f"/invitations/{invitation.pk}/accept/")
    assert answer.status_code == 409 and "has expired" in answer.content.decode()
    invitation.refresh_from_db()
    assert invitation.status == Status.EXPIRED
    assert not Seat.objects.filter(user=bea).exists()
    Invitation.objects.update(status=Status.PENDING)
    version = Match.objects.get().version
    assert tasks.invitations_expire() == 1
    assert Invitation.objects.get().status == Status.EXPIRED
    assert Match.objects.get().version == version + 1
    assert invitations_expire() == 0


def test_refusals_answer_htmx_in_place_and_outsiders_a_404(people):
    ann, bea, cal = people
    _challenge(factories.client_for(ann))
    invitation = Invitation.objects.get()
    cal_client = factories.client_for(cal)
    for action in ("accept", "decline", "block"):
        assert cal_client.post(f"/invitations/{invitation.pk}/{action}/").status_code == 404
        assert cal_client.post(f"/invitations/99999/{action}/").status_code == 404
    assert cal_client.get(f"/invitations/{invitation.pk}/accept/").status_code == 405
    bea_client = factories.client_for(bea)
    bea_client.post(f"/invitations/{invitation.pk}/decline/")
    refused = bea_client.post(
        f"/invitations/{invitation.pk}/accept/", headers={"HX-Request": "true"}
    )
    assert refused.status_code == 409
    body = refused.content.decode()
    assert 'id="invitation-refused"' in body and "<html" not in body
    assert Invitation.objects.get().status == Status.DECLINED


def test_an_htmx_accept_signed_out_is_a_worded_401_and_changes_nothing(people):
    ann, _, _ = people
    _challenge(factories.client_for(ann))
    invitation = Invitation.objects.get()
    answer = Client().post(f"/invitations/{invitation.pk}/accept/", headers={"HX-Request": "true"})
    assert answer.status_code == 401 and "HX-Redirect" not in answer
    assert 'href="/accounts/login/?next=/"' in answer.content.decode()
    assert Invitation.objects.get().status == invitation.status
    assert Seat.objects.filter(match_id=invitation.match_id, user__isnull=False).count() == 1


def test_htmx_accept_follows_to_the_table(people):
    ann, bea, _ = people
    _challenge(factories.client_for(ann))
    invitation = Invitation.objects.get()
    answer = factories.client_for(bea).post(
        f"/invitations/{invitation.pk}/accept/", headers={"HX-Request": "true"}
    )
    assert answer.status_code == 200
    assert answer.headers["HX-Redirect"] == f"/matches/{invitation.match_id}/"


def test_accepting_a_challenge_to_a_cancelled_match_is_refused(people):
    ann, bea, _ = people
    _challenge(factories.client_for(ann))
    match, invitation = Match.objects.get(), Invitation.objects.get()
    factories.client_for(ann).post(f"/matches/{match.pk}/cancel/", {"confirm": "yes"})
    answer = factories.client_for(bea).post(f"/invitations/{invitation.pk}/accept/")
    assert answer.status_code == 409 and "cancelled" in answer.content.decode()
    assert not Seat.objects.filter(user=bea).exists()


# --- Blocks -----------------------------------------------------------------------------------


def test_block_beside_decline_declines_and_blocks(people):
    ann, bea, _ = people
    _challenge(factories.client_for(ann))
    invitation = Invitation.objects.get()
    answer = factories.client_for(bea).post(f"/invitations/{invitation.pk}/block/")
    assert answer.status_code == 302
    assert Invitation.objects.get().status == Status.WITHDRAWN
    assert has_blocked(bea.pk, ann.pk)


def test_a_block_either_way_declines_what_is_pending_between_the_two_only(people):
    ann, bea, _ = people
    client = factories.client_for(ann)
    _challenge(client)
    _challenge(client, name="cal")
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)  # the inviter blocks
    statuses = dict(Invitation.objects.values_list("user__username", "status"))
    assert statuses == {"bea": Status.WITHDRAWN, "cal": Status.PENDING}


def test_a_blocked_person_cannot_be_challenged(people):
    ann, bea, _ = people
    block_add(blocker_id=bea.pk, blocked_id=ann.pk)
    response = _challenge(factories.client_for(ann))
    assert response.status_code == 400
    assert "bea does not take challenges from you." in response.content.decode()
    assert not Match.objects.exists()


# --- Rematch ---------------------------------------------------------------------------------


def test_play_again_invites_the_others_with_the_same_game_and_the_deal_passed_on(people):
    ann, bea, cal = people
    old = _finished([ann, bea], deadline_days=3)
    page = factories.client_for(ann).get(f"/matches/{old.pk}/").content.decode()
    assert 'id="rematch-offer"' in page
    assert (
        'id="rematch-offer"'
        not in factories.client_for(cal).get(f"/matches/{old.pk}/").content.decode()
    )
    offer = factories.client_for(ann).post(f"/matches/{old.pk}/rematch/")
    new = Match.objects.get(rematch_of=old)
    assert offer.status_code == 302 and offer.url == f"/matches/{new.pk}/"
    assert (new.game, new.num_players, new.deadline_days) == (old.game, 2, 3)
    assert new.status == Match.Status.WAITING and new.created_by == ann
    seats = {s.index: s.user for s in old.seats.all()}
    assert {s.index: s.user for s in new.seats.all()} == {0: seats[0]}
    invitation = Invitation.objects.get(match=new)
    assert (invitation.user, invitation.kind) == (bea, Invitation.Kind.REMATCH)
    assert timedelta(days=2, hours=23) < invitation.expires_at - timezone.now() <= timedelta(days=3)
    # Offering twice does nothing more.
    factories.client_for(ann).post(f"/matches/{old.pk}/rematch/")
    assert Match.objects.filter(rematch_of=old).count() == 1
    assert Invitation.objects.count() == 1
    # The other's "Play again" accepts the offer.
    factories.client_for(bea).post(f"/matches/{old.pk}/rematch/")
    new.refresh_from_db()
    assert new.status == Match.Status.ACTIVE
    assert new.options["dealer"] == (old.options["dealer"] + 1) % 2
    assert Invitation.objects.get().status == Status.ACCEPTED


def test_a_rematch_offer_without_a_deadline_stays_open_seven_days(people):
    ann, bea, _ = people
    old = _finished([ann, bea])
    rematch_offer(match_id=old.pk, user=bea)
    lapse = Invitation.objects.get().expires_at - timezone.now()
    assert timedelta(days=6, hours=23) < lapse <= timedelta(days=7)


def test_a_rematch_with_only_bots_besides_the_offerer_begins_at_once(people):
    ann = people[0]
    old = _finished([ann], bots={1: BotLevel.GREEDY})
    answered = rematch_offer(match_id=old.pk, user=ann)
    new = Match.objects.get(pk=answered.match_id)
    assert answered.started and new.status == Match.Status.ACTIVE
    assert new.seats.get(index=1).bot_level == BotLevel.GREEDY
    assert not Invitation.objects.exists()


def test_a_blocked_pair_gets_no_rematch_offer_and_the_seat_stays_open(people):
    ann, bea, cal = people
    old = _finished([ann, bea, cal])
    block_add(blocker_id=bea.pk, blocked_id=ann.pk)
    rematch_offer(match_id=old.pk, user=ann)
    new = Match.objects.get(rematch_of=old)
    assert set(Invitation.objects.values_list("user__username", flat=True)) == {"cal"}
    assert new.seats.count() == 1 and new.status == Match.Status.WAITING


def test_a_declined_rematch_seat_is_filled_by_a_bot_and_the_match_begins(people):
    ann, bea, cal = people
    old = _finished([ann, bea, cal])
    rematch_offer(match_id=old.pk, user=ann)
    new = Match.objects.get(rematch_of=old)
    held = {i.user.username: i for i in Invitation.objects.filter(match=new)}
    ann_client = factories.client_for(ann)
    # While both are asked, no seat is free for a bot.
    assert 'id="seat-bot"' not in ann_client.get(f"/matches/{new.pk}/").content.decode()
    factories.client_for(bea).post(f"/invitations/{held['bea'].pk}/decline/")
    page = ann_client.get(f"/matches/{new.pk}/").content.decode()
    bea_seat = held["bea"].seat_index + 1
    assert f'<option value="{bea_seat}">{bea_seat}</option>' in page
    assert (
        'id="seat-bot"' not in factories.client_for(cal).get(f"/matches/{new.pk}/").content.decode()
    )
    # cal's seat is still held for cal.
    cal_seat = held["cal"].seat_index + 1
    refused = ann_client.post(f"/matches/{new.pk}/bot/", {"seat": cal_seat, "level": "greedy"})
    assert refused.status_code == 409 and b"held for the person invited" in refused.content
    answer = ann_client.post(f"/matches/{new.pk}/bot/", {"seat": bea_seat, "level": "greedy"})
    assert answer.status_code == 302 and answer.url == f"/matches/{new.pk}/"
    new.refresh_from_db()
    assert new.status == Match.Status.WAITING
    assert new.seats.get(index=bea_seat - 1).bot_level == BotLevel.GREEDY
    factories.client_for(cal).post(f"/invitations/{held['cal'].pk}/accept/")
    new.refresh_from_db()
    assert new.status == Match.Status.ACTIVE


def test_a_bot_takes_the_last_free_seat_under_htmx_and_the_match_begins(people):
    ann = people[0]
    match = match_create(game="faraway", num_players=2, created_by=ann)
    answer = factories.client_for(ann).post(
        f"/matches/{match.pk}/bot/",
        {"seat": "2", "level": "strong"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200 and answer["HX-Redirect"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.seats.get(index=1).bot_level == BotLevel.STRONG


@pytest.mark.parametrize("htmx", [False, True])
def test_seating_a_bot_refused_says_why_and_changes_nothing(people, htmx):
    ann, bea, cal = people
    headers = {"HX-Request": "true"} if htmx else {}
    waiting = match_create(game="faraway", num_players=3, created_by=ann, public=True)
    match_join(match=waiting, user=bea)
    private = match_create(game="faraway", num_players=2, created_by=ann)
    running = factories.match_make(players=[ann, bea], public=True)
    cases = [
        (bea, waiting, {"seat": "3", "level": "greedy"}, 403, "Only the person who made"),
        (cal, private, {"seat": "2", "level": "greedy"}, 404, ""),
        (ann, waiting, {"seat": "2", "level": "greedy"}, 409, "That seat was just taken."),
        (ann, waiting, {"seat": "4", "level": "greedy"}, 400, "There is no such seat"),
        (ann, waiting, {"seat": "0", "level": "greedy"}, 400, "There is no such seat"),
        (ann, waiting, {"seat": "x" * 500, "level": "greedy"}, 400, "Pick one of the free"),
        (ann, waiting, {"seat": "3", "level": "genius"}, 400, "Pick one of the bots."),
        (ann, waiting, {"seat": "3"}, 400, "Pick one of the bots."),
        (ann, running, {"seat": "2", "level": "greedy"}, 409, "already started"),
    ]
    before = sorted(Seat.objects.values_list("match_id", "index", "user_id", "bot_level"))
    versions = dict(Match.objects.values_list("pk", "version"))
    for user, match, data, status, words in cases:
        answer = factories.client_for(user).post(f"/matches/{match.pk}/bot/", data, headers=headers)
        assert answer.status_code == status, (data, answer.status_code)
        assert words in answer.content.decode()
    assert sorted(Seat.objects.values_list("match_id", "index", "user_id", "bot_level")) == before
    assert dict(Match.objects.values_list("pk", "version")) == versions
    assert factories.client_for(ann).get(f"/matches/{waiting.pk}/bot/").status_code == 405


def test_play_again_is_refused_to_outsiders_and_on_a_match_not_over(people):
    ann, bea, cal = people
    old = _finished([ann, bea])
    assert factories.client_for(cal).post(f"/matches/{old.pk}/rematch/").status_code == 404
    running = factories.match_make(players=[ann, bea], public=True)
    refused = factories.client_for(cal).post(f"/matches/{running.pk}/rematch/")
    assert refused.status_code == 409
    assert factories.client_for(ann).post(f"/matches/{running.pk}/rematch/").status_code == 409
    assert not Match.objects.filter(rematch_of__isnull=False).exists()


# --- Reads ------------------------------------------------------------------------------------


def test_the_notice_reads_cost_the_same_for_one_and_many(people):
    ann, bea, _ = people
    client = factories.client_for(ann)

    def statements(read):
        with CaptureQueriesContext(connection) as queries:
            read()
        return len(queries)

    _challenge(client)
    one = statements(lambda: invitations_pending(bea.pk))
    for _ in range(6):
        _challenge(client)
    assert len(invitations_pending(bea.pk)) == 7
    assert statements(lambda: invitations_pending(bea.pk)) == one == 1
    assert statements(lambda: invitations_pending_count(bea.pk)) == 1
    assert invitations_pending_count(bea.pk) == 7


def test_the_partial_lists_accept_and_decline_in_place(people):
    from django.template.loader import render_to_string

    from games.presentation.invitations import invitation_lines

    ann, bea, _ = people
    _challenge(factories.client_for(ann))
    invitation = Invitation.objects.get()
    html = render_to_string(
        "games/_invitation_notices.html",
        {"invitation_notices": invitation_lines(invitations_pending(bea.pk), bea.pk)},
    )
    assert "ann challenges you to The Faraway Tree" in html
    assert f'action="/invitations/{invitation.pk}/accept/"' in html
    assert f'action="/invitations/{invitation.pk}/decline/"' in html


def test_challenge_candidates_are_friends_then_people_played_without_blocked(people):
    ann, bea, cal = people
    dan = factories.user_make("dan")
    follow_add(follower_id=ann.pk, followed_id=dan.pk)
    follow_add(follower_id=dan.pk, followed_id=ann.pk)
    factories.match_make(players=[ann, cal])
    factories.match_make(players=[ann, bea])
    assert challenge_candidates(ann.pk) == ["dan", "bea", "cal"]
    block_add(blocker_id=cal.pk, blocked_id=ann.pk)
    assert challenge_candidates(ann.pk) == ["dan", "bea"]


# --- The INVITATION mail ---------------------------------------------------------------------


def test_each_invitation_mails_its_person_once_with_one_click_unsubscribe(
    people, mailoutbox, django_capture_on_commit_callbacks
):
    ann, _, _ = people
    with django_capture_on_commit_callbacks(execute=True):
        _challenge(factories.client_for(ann))
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["bea@example.com"] and mail.subject == "ann challenges you"
    assert "seat 2 of 2 is held for you" in mail.body
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert tasks.invitation_mail(Invitation.objects.get().pk) is False  # a second delivery
    assert len(mailoutbox) == 1


def test_no_invitation_mail_when_turned_off_or_no_confirmed_address(
    people, mailoutbox, django_capture_on_commit_callbacks
):
    from accounts.models import NotificationSettings

    ann, bea, cal = people
    NotificationSettings.objects.update_or_create(user=bea, defaults={"email_invitations": False})
    cal.email = ""
    cal.save()
    client = factories.client_for(ann)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        _challenge(client)
        _challenge(client, name="cal")
    mail_tasks = [c for c in callbacks if c.__qualname__.startswith("enqueue.")]
    assert len(mail_tasks) == 2 and mailoutbox == []  # the mail tasks ran, and sent nothing


def test_a_rematch_offer_mails_the_invited(people, mailoutbox, django_capture_on_commit_callbacks):
    ann, bea, _ = people
    old = _finished([ann, bea])
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rematch_offer(match_id=old.pk, user=ann)
    # The match played, by its number, not the new table's (issue 33); the new table after.
    assert [m.subject for m in mailoutbox] == [
        f"ann offers a rematch of The Faraway Tree #{old.pk}"
    ]
    assert f"offers to play The Faraway Tree #{old.pk} again" in mailoutbox[0].body
    assert f"at a new table (#{old.pk + 1})" in mailoutbox[0].body


def test_the_invited_person_taking_a_seat_at_a_private_table_accepts(people):
    ann, bea, cal = people
    _challenge(factories.client_for(ann))
    match = Match.objects.get()
    assert factories.client_for(cal).post(f"/matches/{match.pk}/join/").status_code == 404
    factories.client_for(bea).post(f"/matches/{match.pk}/join/")
    assert Seat.objects.get(match=match, index=1).user == bea
    assert Invitation.objects.get().status == Status.ACCEPTED
    assert Match.objects.get().status == Match.Status.ACTIVE


def test_beat_marks_lapsed_invitations(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["invitations-expire"]
    assert entry["task"] == "games.invitations_expire"
    assert entry["schedule"] == settings.PARLOUR_INVITATIONS_EVERY


def test_the_data_export_holds_the_invitations_sent_and_received(people, settings, tmp_path):
    import json

    from accounts.services.data_export import data_export_request, data_export_write, export_path

    settings.DATA_DIR = tmp_path
    ann, _, cal = people
    _challenge(factories.client_for(ann))
    _challenge(factories.client_for(cal), name="ann")
    export = data_export_write(export_id=data_export_request(user=ann).pk)
    body = json.loads(export_path(export.file_name).read_text())
    assert [(i["from"], i["to"], i["kind"], i["status"]) for i in body["invitations"]] == [
        ("ann", "bea", "challenge", "pending"),
        ("cal", "ann", "challenge", "pending"),
    ]


def test_the_invited_person_polls_a_private_forming_table_until_the_invitation_lapses(people):
    ann, bea, cal = people
    _challenge(factories.client_for(ann))
    match = Match.objects.get()
    url = f"/matches/{match.pk}/table/?version={match.version}"
    htmx = {"HX-Request": "true"}
    bea_client = factories.client_for(bea)
    with CaptureQueriesContext(connection) as queries:
        assert bea_client.get(url, headers=htmx).status_code == 204
    assert sum("games_invitation" in q["sql"] for q in queries.captured_queries) == 1
    assert factories.client_for(cal).get(url, headers=htmx).status_code == 404
    Invitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert bea_client.get(url, headers=htmx).status_code == 404


# --- Issue 33: cancelled matches end their invitations; a block holds at a third's table ------


def test_cancelling_a_match_ends_its_challenges_in_the_notices_and_badge(people, monkeypatch):
    ann, bea, _ = people
    _challenge(factories.client_for(ann))
    match, invitation = Match.objects.get(), Invitation.objects.get()
    assert invitations_pending_count(bea.pk) == 1
    told: list[int] = []
    monkeypatch.setattr(live, "badges_changed", lambda ids: told.extend(ids))
    factories.client_for(ann).post(f"/matches/{match.pk}/cancel/", {"confirm": "yes"})
    assert Match.objects.get().status == Match.Status.CANCELLED
    assert Invitation.objects.get().status == Status.EXPIRED
    assert invitations_pending(bea.pk) == [] and invitations_pending_count(bea.pk) == 0
    assert bea.pk in told
    answer = factories.client_for(bea).post(f"/invitations/{invitation.pk}/decline/")
    assert answer.status_code == 409 and "cancelled" in answer.content.decode()


def test_a_match_cancelled_by_its_creators_deletion_ends_its_challenges(people):
    ann, bea, _ = people
    _challenge(factories.client_for(ann))
    account_delete(user=ann)
    assert Match.objects.get().status == Match.Status.CANCELLED
    assert Invitation.objects.get().status == Status.EXPIRED
    assert invitations_pending_count(bea.pk) == 0


def test_a_block_keeps_two_challenged_people_apart_at_a_third_persons_table(people):
    ann, bea, cal = people
    three = _form(num_players=3, seat_1="challenge", challenge_1="ann")
    three.update(seat_2="challenge", challenge_2="bea")
    assert factories.client_for(cal).post("/matches/new/", three).status_code == 302
    match = Match.objects.get()
    mine = {i.user_id: i for i in Invitation.objects.all()}
    factories.client_for(ann).post(f"/invitations/{mine[ann.pk].pk}/accept/")
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    answer = factories.client_for(bea).post(f"/invitations/{mine[bea.pk].pk}/accept/")
    assert answer.status_code == 403
    assert "A block stands between you and someone at this table" in answer.content.decode()
    assert not Seat.objects.filter(user=bea).exists()
    assert Invitation.objects.get(pk=mine[bea.pk].pk).status == Status.PENDING
    assert Match.objects.get().status == Match.Status.WAITING == match.status


def test_a_rematch_across_a_block_offers_no_accept_and_refuses_in_words(people):
    ann, bea, cal = people
    old = _finished([ann, bea, cal])
    block_add(blocker_id=bea.pk, blocked_id=ann.pk)
    rematch_offer(match_id=old.pk, user=ann)
    new = Match.objects.get(rematch_of=old)
    bea_client = factories.client_for(bea)
    page = bea_client.get(f"/matches/{old.pk}/").content.decode()
    assert "Accept the rematch" not in page and 'id="rematch-open"' in page
    assert (
        "Accept the rematch"
        in factories.client_for(cal).get(f"/matches/{old.pk}/").content.decode()
    )
    answer = bea_client.post(f"/matches/{old.pk}/rematch/")
    assert answer.status_code == 403
    assert "A block stands between you and someone at this table" in answer.content.decode()
    assert not Seat.objects.filter(match=new, user=bea).exists()
    assert not Invitation.objects.filter(user=bea).exists()


def test_a_rematch_seat_not_held_for_you_is_refused_in_words(people):
    ann, bea, _ = people
    old = _finished([ann, bea])
    rematch_offer(match_id=old.pk, user=ann)
    invitation = Invitation.objects.get(user=bea)
    factories.client_for(bea).post(f"/invitations/{invitation.pk}/decline/")
    client = factories.client_for(bea)
    assert "Accept the rematch" not in client.get(f"/matches/{old.pk}/").content.decode()
    answer = client.post(f"/matches/{old.pk}/rematch/")
    assert answer.status_code == 409 and "No seat at this rematch waits for you" in (
        answer.content.decode()
    )
    assert Match.objects.get(rematch_of=old).seats.count() == 1

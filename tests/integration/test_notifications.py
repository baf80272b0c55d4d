"""Being told it is your turn: the turn mail, its rate limit and suppressions, the deadline
reminder, unsubscribing, the settings page and the nav badge (docs/notifications.md).

Tasks run eagerly here with no delay: a move's on-commit callbacks (captured with
pytest-django's ``django_capture_on_commit_callbacks``) send the mail at once. Holding the
callbacks back and running them later stands for ``PARLOUR_TURN_MAIL_DELAY``.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import NotificationSettings
from accounts.selectors import notify
from games import queue
from games.models import Match, MatchNotice, Seat
from games.selectors.notifications import turn_mails_due
from games.services import match_create, move_submit
from games.services.notifications import turn_mail_send, turn_notices_later
from games.tasks import deadline_reminders, turn_mail, turn_mails_sweep
from tests import factories

pytestmark = pytest.mark.django_db

# The badge's one statement: every wanted kind's count at once (games.selectors.counts), the
# matches awaiting the person among them.
BADGE_COUNT_SQL = re.compile(
    r'SELECT \(SELECT COUNT\(.*FROM "games_seat".*"awaited_since" IS NOT NULL', re.S
)


@pytest.fixture(autouse=True)
def _mail_without_delay(settings) -> None:
    settings.PARLOUR_TURN_MAIL_DELAY = 0
    settings.PARLOUR_SITE_URL = "https://parlour.example"


def _clients(*pairs) -> dict[int, Client]:
    return {user.pk: client for user, client in pairs}


def _turn_play(match: Match, clients: dict[int, Client]) -> int:
    """The awaited person plays their whole turn (a Faraway draw and card, say) through the
    move view, until someone else is awaited; returns the seat that played."""
    match.refresh_from_db()
    seat = match.awaiting[0]
    user_id = match.seats.get(index=seat).user_id
    while match.status == Match.Status.ACTIVE and match.awaiting == [seat]:
        move = factories.legal_moves(match, seat)[0]
        response = factories.post_move(clients[user_id], match, move)
        assert response.status_code == 200, response.content.decode()[:300]
        match.refresh_from_db()
    return seat


def _mails_to(user) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.to == [user.email]]


def _badge(client: Client) -> int:
    response = client.get("/accounts/badge/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    return int(re.search(r'data-count="(\d+)"', response.content.decode()).group(1))


def _awaited_user(match: Match):
    match.refresh_from_db()
    return match.seats.get(index=match.awaiting[0]).user


def _other(match: Match, user):
    return match.seats.exclude(user=user).get().user


# --- The turn mail ----------------------------------------------------------------------------


def test_a_mail_goes_when_it_becomes_a_persons_turn(
    ann, bea, ann_client, bea_client, mailoutbox, django_capture_on_commit_callbacks
):
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    mover = _awaited_user(match)
    waiting = _other(match, mover)
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)
    assert _awaited_user(match) == waiting
    [sent] = mailoutbox
    assert sent.to == [waiting.email]
    assert sent.subject == f"Your turn in The Faraway Tree #{match.pk}"
    table = f"https://parlour.example/matches/{match.pk}/"
    assert table in sent.body
    html, kind = sent.alternatives[0]
    assert kind == "text/html" and f'href="{table}"' in html
    # The one-click unsubscribe link, in the body and the RFC 8058 headers.
    link = re.search(r"https://parlour\.example(/accounts/unsubscribe/[^/\s]+/)", sent.body)
    assert link is not None
    assert sent.extra_headers["List-Unsubscribe"] == f"<https://parlour.example{link.group(1)}>"
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Nothing secret rides along: no seed, no salt.
    assert str(match.salt) not in sent.body
    assert f"seed {match.seed}" not in sent.body.lower()


def test_a_second_turn_within_12_hours_in_the_same_match_sends_no_second_mail(
    ann, bea, ann_client, bea_client, mailoutbox, django_capture_on_commit_callbacks
):
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    first = _awaited_user(match)
    second = _other(match, first)
    # Callbacks run as each block ends: after each whole turn, as a delayed task would.
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)  # second's turn: mailed
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)  # first's turn: mailed (their first in this match)
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)  # second's turn again, within 12 hours: not mailed
    assert len(_mails_to(second)) == 1
    assert len(_mails_to(first)) == 1
    # Once 12 hours have passed since the last one, the next turn is mailed again.
    MatchNotice.objects.filter(user=first, match=match).update(
        turn_mailed_at=timezone.now() - timedelta(hours=12, minutes=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)
    assert len(_mails_to(first)) == 2


def test_no_mail_while_the_person_is_watching_the_table(
    ann, bea, ann_client, bea_client, mailoutbox, django_capture_on_commit_callbacks
):
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    waiting = _other(match, _awaited_user(match))
    version = match.version
    with django_capture_on_commit_callbacks() as held:  # the delay: not run yet
        _turn_play(match, clients)
    # Their open tab's poll re-renders the changed table: they are marked seen.
    response = clients[waiting.pk].get(
        f"/matches/{match.pk}/table/?version={version}", headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    notice = MatchNotice.objects.get(user=waiting, match=match)
    assert notice.seen_at >= Seat.objects.get(match=match, user=waiting).awaited_since
    for callback in held:
        callback()
    assert _mails_to(waiting) == []
    assert MatchNotice.objects.get(pk=notice.pk).turn_mailed_at is None  # nothing claimed


def test_a_look_before_the_turn_does_not_suppress_its_mail(
    ann, bea, ann_client, bea_client, mailoutbox, django_capture_on_commit_callbacks
):
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    waiting = _other(match, _awaited_user(match))
    assert clients[waiting.pk].get(f"/matches/{match.pk}/").status_code == 200
    assert MatchNotice.objects.get(user=waiting, match=match).seen_at is not None
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)
    assert len(_mails_to(waiting)) == 1


def test_a_poll_re_rendered_before_the_turn_marks_nothing_and_the_turns_mail_goes(
    ann, bea, ann_client, bea_client, mailoutbox, django_capture_on_commit_callbacks
):
    """The poll writes the seen mark only where it changes what the mark decides: a seat not
    awaited is not marked (a later turn begins after any mark anyway), so its mail still goes;
    awaited, its first re-render marks it, and the next ones of the same turn write nothing."""
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    waiting = _other(match, _awaited_user(match))
    stale = f"/matches/{match.pk}/table/?version={match.version - 1}"
    response = clients[waiting.pk].get(stale, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert not MatchNotice.objects.filter(user=waiting, seen_at__isnull=False).exists()
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)
    assert len(_mails_to(waiting)) == 1
    marks = []
    for _ in range(2):
        response = clients[waiting.pk].get(stale, headers={"HX-Request": "true"})
        assert response.status_code == 200
        marks.append(MatchNotice.objects.get(user=waiting, match=match).seen_at)
    assert marks[0] is not None and marks[0] == marks[1]
    assert marks[0] >= Seat.objects.get(match=match, user=waiting).awaited_since


def test_the_204_poll_marks_nobody_seen(ann, bea, bea_client):
    match = factories.match_make(players=[ann, bea], seed=4)
    with CaptureQueriesContext(connection) as queries:
        response = bea_client.get(
            f"/matches/{match.pk}/table/?version={match.version}", headers={"HX-Request": "true"}
        )
    assert response.status_code == 204
    assert not MatchNotice.objects.exists()
    # It reads the mark (in its one statement, for the re-render's decision) but writes none.
    writes = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith("SELECT")]
    assert len(queries) == 3 and writes == []


def test_no_mail_after_opting_out(
    ann, bea, ann_client, bea_client, mailoutbox, django_capture_on_commit_callbacks
):
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    waiting = _other(match, _awaited_user(match))
    response = clients[waiting.pk].post(
        "/accounts/notifications/", {"email_deadline": "on"}
    )  # the turn box left unticked
    assert response.status_code == 302
    assert NotificationSettings.objects.get(user=waiting).email_turn is False
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)
    assert _mails_to(waiting) == []


def test_no_mail_once_they_have_moved(
    ann, bea, ann_client, bea_client, mailoutbox, django_capture_on_commit_callbacks
):
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    waiting = _other(match, _awaited_user(match))
    with django_capture_on_commit_callbacks() as held:
        _turn_play(match, clients)
    with django_capture_on_commit_callbacks():  # their own move; its callbacks are dropped
        _turn_play(match, clients)
    for callback in held:  # the delayed check finds them no longer awaited
        callback()
    assert _mails_to(waiting) == []


def test_a_late_turn_mail_task_of_an_earlier_turn_does_not_mail_a_new_one(
    ann, bea, ann_client, bea_client, mailoutbox, django_capture_on_commit_callbacks
):
    """A mail belongs to one turn: the task sent for turn T runs after the person played T and
    is awaited again (turn T2, just begun, they are at the table) and sends nothing."""
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    waiting = _other(match, _awaited_user(match))
    with django_capture_on_commit_callbacks() as held:  # turn T's mail task, held for its delay
        _turn_play(match, clients)
    first_since = Seat.objects.get(match=match, user=waiting).awaited_since
    assert clients[waiting.pk].get(f"/matches/{match.pk}/").status_code == 200  # seen in T
    with django_capture_on_commit_callbacks():  # their move, then the other's: T2 begins
        _turn_play(match, clients)
        _turn_play(match, clients)
    assert _awaited_user(match) == waiting
    seat = Seat.objects.get(match=match, user=waiting)
    assert seat.awaited_since > first_since  # a new turn, not yet seen
    for callback in held:  # T's task fires now, in T2
        callback()
    assert _mails_to(waiting) == []
    assert MatchNotice.objects.get(user=waiting, match=match).turn_mailed_at is None
    # T2's own check (as the sweep runs it) still mails T2: nothing was used up.
    assert turn_mail_send(match_id=match.pk, user_id=waiting.pk) is True
    assert len(_mails_to(waiting)) == 1


def test_a_turn_mail_task_queued_without_its_turn_mails_only_a_turn_awaited_the_whole_delay(
    ann, bea, mailoutbox, settings
):
    """A task queued before tasks carried their turn (``turn_mail(match, user, version)``) still
    runs: it mails as the sweep would, never a turn that began less than the delay ago."""
    settings.PARLOUR_TURN_MAIL_DELAY = 180
    match = factories.match_make(players=[ann, bea], seed=4)
    person = _awaited_user(match)
    assert turn_mail.apply((match.pk, person.pk, match.version)).get() is False  # just begun
    assert mailoutbox == []
    Seat.objects.filter(match=match, user=person).update(
        awaited_since=timezone.now() - timedelta(seconds=181)
    )
    assert turn_mail.apply((match.pk, person.pk, match.version)).get() is True
    assert [m.to for m in mailoutbox] == [[person.email]]


def test_bots_are_never_mailed_and_a_person_without_an_address_is_skipped(
    ann, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            game="faraway", num_players=2, created_by=ann, bots={1: "random"}, seed=4
        )
        match.refresh_from_db()
    for _ in range(6):  # a few turns each way, bots answering through their task
        if match.status != Match.Status.ACTIVE or not match.awaiting:
            break
        seat = match.seats.get(index=match.awaiting[0])
        if seat.user_id is None:
            break
        with django_capture_on_commit_callbacks(execute=True):
            move_submit(
                match=match,
                seat=seat,
                move=factories.legal_moves(match, seat.index)[0],
                expected_version=match.version,
            )
        match.refresh_from_db()
    # Ann was mailed for her turns; the bot seat never was (it has no user to mail).
    assert mailoutbox and all(m.to == [ann.email] for m in mailoutbox)
    ann.email = ""
    ann.save()
    MatchNotice.objects.update(turn_mailed_at=None)
    assert turn_mail.apply((match.pk, ann.pk, match.version)).get() is False


def test_without_a_worker_a_delayed_turn_mail_is_not_sent_inside_the_request(
    ann, bea, ann_client, bea_client, mailoutbox, settings, django_capture_on_commit_callbacks
):
    settings.PARLOUR_TURN_MAIL_DELAY = 180  # eager tasks cannot wait: nothing is sent
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    with django_capture_on_commit_callbacks(execute=True) as ran:
        _turn_play(match, clients)
    assert ran  # the hook did run on commit
    assert mailoutbox == []
    assert not MatchNotice.objects.exists()


def test_a_duplicate_turn_mail_task_sends_once(ann, bea, mailoutbox):
    match = factories.match_make(players=[ann, bea], seed=4)
    person = _awaited_user(match)
    assert turn_mail.apply((match.pk, person.pk, match.version)).get() is True
    assert turn_mail.apply((match.pk, person.pk, match.version)).get() is False
    assert len(mailoutbox) == 1


def test_the_sweep_sends_a_turn_mail_whose_task_never_ran_once_and_only_when_due(
    ann, bea, ann_client, bea_client, mailoutbox, settings, django_capture_on_commit_callbacks
):
    """The turn began while its task could not run (here: the delay holds it back, and no task
    is ever sent): the sweep sends that mail once it is due, once, and not after a look."""
    settings.PARLOUR_TURN_MAIL_DELAY = 180
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    with django_capture_on_commit_callbacks(execute=True):
        _turn_play(match, clients)
    waiting = _awaited_user(match)
    seat = Seat.objects.get(match=match, user=waiting)
    assert turn_mails_sweep.apply().get() == 0  # not due yet: 180 s have not passed
    Seat.objects.filter(pk=seat.pk).update(awaited_since=timezone.now() - timedelta(seconds=181))
    assert turn_mails_due(now=timezone.now()) == [(match.pk, waiting.pk)]
    assert turn_mails_sweep.apply().get() == 1
    assert [m.to for m in mailoutbox] == [[waiting.email]]
    assert turn_mails_sweep.apply().get() == 0  # mailed this turn: not again
    # The original task, redelivered late, finds it sent: still one mail.
    assert turn_mail.apply((match.pk, waiting.pk, match.version)).get() is False
    assert len(mailoutbox) == 1


def test_the_sweep_skips_people_who_looked_moved_or_opted_out(
    ann, bea, cal, ann_client, bea_client, mailoutbox, settings
):
    settings.PARLOUR_TURN_MAIL_DELAY = 180
    long_ago = timezone.now() - timedelta(hours=1)
    looked = factories.match_make(players=[ann, bea], seed=4)
    opted_out = factories.match_make(players=[cal, bea], seed=5)
    for match in (looked, opted_out):
        Seat.objects.filter(match=match, awaited_since__isnull=False).update(awaited_since=long_ago)
    looker = _awaited_user(looked)
    MatchNotice.objects.create(user=looker, match=looked, seen_at=timezone.now())
    NotificationSettings.objects.update_or_create(
        user=_awaited_user(opted_out), defaults={"email_turn": False}
    )
    # The seats not awaited have moved; the awaited ones looked or opted out: nobody is due.
    assert turn_mails_due(now=timezone.now()) == []
    assert turn_mails_sweep.apply().get() == 0
    assert mailoutbox == []


# --- Deadline reminders -----------------------------------------------------------------------


def _deadline_match(ann, bea, *, left: timedelta) -> Match:
    match = factories.match_make(players=[ann, bea], seed=4)
    Match.objects.filter(pk=match.pk).update(deadline_days=1, deadline_at=timezone.now() + left)
    match.refresh_from_db()
    return match


def test_the_deadline_reminder_goes_once_when_80_percent_has_gone(ann, bea, mailoutbox):
    early = _deadline_match(ann, bea, left=timedelta(hours=6))  # 75% gone
    assert deadline_reminders.apply().get() == 0
    Match.objects.filter(pk=early.pk).update(deadline_at=timezone.now() + timedelta(hours=4))
    assert deadline_reminders.apply().get() == 1
    person = _awaited_user(early)
    [sent] = mailoutbox
    assert sent.to == [person.email]
    assert sent.subject == f"Your move in The Faraway Tree #{early.pk} is due soon"
    assert f"https://parlour.example/matches/{early.pk}/" in sent.body
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/accounts/unsubscribe/" in sent.extra_headers["List-Unsubscribe"]
    # Once per turn: the next beat sends nothing more.
    assert deadline_reminders.apply().get() == 0
    assert len(mailoutbox) == 1


def test_a_new_turn_gets_its_own_reminder(ann, bea, mailoutbox):
    match = _deadline_match(ann, bea, left=timedelta(hours=4))
    person = _awaited_user(match)
    assert deadline_reminders.apply().get() == 1
    # Their next turn (awaited afresh, later than the reminder) is reminded again.
    Seat.objects.filter(match=match, user=person).update(
        awaited_since=timezone.now() + timedelta(seconds=1)
    )
    assert deadline_reminders.apply().get() == 1
    assert len(_mails_to(person)) == 2


def test_no_reminder_after_opting_out_nor_once_the_deadline_passed(ann, bea, mailoutbox):
    match = _deadline_match(ann, bea, left=timedelta(hours=4))
    person = _awaited_user(match)
    NotificationSettings.objects.create(user=person, email_deadline=False)
    assert deadline_reminders.apply().get() == 0
    NotificationSettings.objects.filter(user=person).update(email_deadline=True)
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    assert deadline_reminders.apply().get() == 0
    assert mailoutbox == []


# --- Unsubscribing ----------------------------------------------------------------------------


def _unsubscribe_path(sent: mail.EmailMessage) -> str:
    return re.search(r"https://parlour\.example(/accounts/unsubscribe/[^/\s]+/)", sent.body).group(
        1
    )


def test_the_unsubscribe_link_works_signed_out_get_confirms_post_unsubscribes(ann, mailoutbox):
    match = factories.match_make(players=[ann, factories.user_make("bea")], seed=4)
    person = _awaited_user(match)
    assert turn_mail.apply((match.pk, person.pk, match.version)).get() is True
    path = _unsubscribe_path(mailoutbox[0])
    visitor = Client(enforce_csrf_checks=True)  # signed out, no CSRF cookie
    page = visitor.get(path)
    assert page.status_code == 200
    assert 'id="unsubscribe-confirm"' in page.content.decode()
    assert not NotificationSettings.objects.filter(user=person).exists()  # GET changes nothing
    done = visitor.post(path, {"List-Unsubscribe": "One-Click"})  # as a mail client sends it
    assert done.status_code == 200
    assert 'id="unsubscribe-done"' in done.content.decode()
    chosen = NotificationSettings.objects.get(user=person)
    assert (chosen.email_turn, chosen.email_deadline) == (False, True)
    # The deadline reminder's link turns off that kind only.
    visitor.post(f"/accounts/unsubscribe/{notify.unsubscribe_token(person.pk, 'deadline')}/")
    chosen.refresh_from_db()
    assert (chosen.email_turn, chosen.email_deadline) == (False, False)


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_forged_or_tampered_unsubscribe_token_is_refused(ann, bea, method):
    good = notify.unsubscribe_token(bea.pk, "turn")
    forged = signing.dumps(
        {"u": bea.pk, "k": "turn"}, key="not-the-key", salt=notify.UNSUBSCRIBE_SALT
    )
    tampered = good[:-3] + ("aaa" if not good.endswith("aaa") else "bbb")
    visitor = Client(enforce_csrf_checks=True)
    for token in (forged, tampered, "nonsense", notify.unsubscribe_token(bea.pk, "everything")):
        response = getattr(visitor, method)(f"/accounts/unsubscribe/{token}/")
        assert response.status_code == 400, token
        assert 'id="unsubscribe-invalid"' in response.content.decode()
    assert not NotificationSettings.objects.exists()
    assert visitor.get(f"/accounts/unsubscribe/{good}/").status_code == 200  # the real one works


def test_the_settings_page_needs_a_sign_in_and_saves_both_boxes(ann, ann_client):
    assert Client().get("/accounts/notifications/").status_code == 302
    page = ann_client.get("/accounts/notifications/")
    assert page.status_code == 200
    body = page.content.decode()
    assert 'name="email_turn"' in body and 'name="email_deadline"' in body
    assert "checked" in body  # both on by default
    assert ann_client.post("/accounts/notifications/", {}).status_code == 302
    chosen = NotificationSettings.objects.get(user=ann)
    assert (chosen.email_turn, chosen.email_deadline) == (False, False)
    ann_client.post("/accounts/notifications/", {"email_turn": "on", "email_deadline": "on"})
    chosen.refresh_from_db()
    assert (chosen.email_turn, chosen.email_deadline) == (True, True)
    profile = ann_client.get(f"/players/{ann.username}/").content.decode()
    assert 'id="profile-notifications-link"' in profile


# --- The badge --------------------------------------------------------------------------------


def test_the_badge_counts_matches_waiting_for_the_users_move_as_moves_happen(
    ann, bea, cal, ann_client, bea_client, cal_client
):
    clients = _clients((ann, ann_client), (bea, bea_client), (cal, cal_client))
    assert [_badge(c) for c in clients.values()] == [0, 0, 0]
    one = factories.match_make(players=[ann, bea], seed=4)
    two = factories.match_make(players=[ann, cal], seed=9)
    counts = {u.pk: 0 for u in (ann, bea, cal)}
    for match in (one, two):
        counts[_awaited_user(match).pk] += 1
    assert {pk: _badge(c) for pk, c in clients.items()} == counts
    _turn_play(one, clients)  # the other of ann and bea is awaited now
    counts = {u.pk: 0 for u in (ann, bea, cal)}
    for match in (one, two):
        counts[_awaited_user(match).pk] += 1
    assert {pk: _badge(c) for pk, c in clients.items()} == counts
    # The page prints it in the nav.
    page = ann_client.get("/matches/").content.decode()
    assert re.search(rf'id="turn-badge"[^>]*data-count="{counts[ann.pk]}"', page, re.S)


def test_the_badge_counts_every_voter_of_a_gulliver_challenge(
    ann, bea, cal, ann_client, bea_client, cal_client
):
    clients = {ann.pk: ann_client, bea.pk: bea_client, cal.pk: cal_client}
    match = factories.match_make(
        game="gulliver", players=[ann, bea, cal], seed=5, options={"challenges": True}
    )
    seats = {s.index: s for s in match.seats.all()}
    player = match.awaiting[0]
    assert {pk: _badge(c) for pk, c in clients.items()} == {
        s.user_id: int(i == player) for i, s in seats.items()
    }
    card = next(m for m in factories.legal_moves(match, player) if m["type"] == "play")
    assert factories.post_move(clients[seats[player].user_id], match, card).status_code == 200
    match.refresh_from_db()
    challenger = next(
        i
        for i in range(3)
        if i != player and {"type": "challenge"} in factories.legal_moves(match, i)
    )
    challenge = factories.post_move(
        clients[seats[challenger].user_id], match, {"type": "challenge"}
    )
    assert challenge.status_code == 200
    match.refresh_from_db()
    voters = set(match.awaiting)
    assert len(voters) >= 2  # a vote awaits several seats at once
    assert {pk: _badge(c) for pk, c in clients.items()} == {
        s.user_id: int(i in voters) for i, s in seats.items()
    }


def test_the_badge_is_one_count_on_a_page_and_none_in_the_table_partials(
    ann, bea, ann_client, bea_client
):
    match = factories.match_make(players=[ann, bea], seed=4)
    clients = _clients((ann, ann_client), (bea, bea_client))
    mover = clients[_awaited_user(match).pk]

    def badge_counts(queries: CaptureQueriesContext) -> int:
        return sum(bool(BADGE_COUNT_SQL.search(q["sql"])) for q in queries.captured_queries)

    with CaptureQueriesContext(connection) as page:
        assert mover.get(f"/matches/{match.pk}/").status_code == 200
    assert badge_counts(page) == 1
    with CaptureQueriesContext(connection) as partial:
        response = mover.get(
            f"/matches/{match.pk}/table/?version={match.version - 1}",
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 200 and 'id="turn-badge"' not in response.content.decode()
    assert badge_counts(partial) == 0
    move = factories.legal_moves(match, match.awaiting[0])[0]
    with CaptureQueriesContext(connection) as post:
        assert factories.post_move(mover, match, move).status_code == 200
    assert badge_counts(post) == 0
    # The move's locked seat read joins the players' holidays (the table's "on holiday" line,
    # docs/accounts.md); nothing else of the accounts' tables is read.
    assert not any(
        "accounts_" in q["sql"].replace('"accounts_holiday"', "") for q in post.captured_queries
    )
    with CaptureQueriesContext(connection) as poll:
        assert mover.get("/accounts/badge/", headers={"HX-Request": "true"}).status_code == 200
    assert badge_counts(poll) == 1


def test_signed_out_visitors_have_no_badge_and_its_poll_stops(ann):
    page = Client().get("/").content.decode()
    assert 'id="turn-badge"' not in page
    response = Client().get("/accounts/badge/", headers={"HX-Request": "true"})
    assert response.status_code == 286  # htmx stops polling


# --- Races ------------------------------------------------------------------------------------


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
def test_two_workers_deciding_the_same_turn_mail_at_once_send_one(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=4)
    person = _awaited_user(match)

    def decide() -> bool:
        return turn_mail_send(match_id=match.pk, user_id=person.pk)

    for _round in range(5):  # each round a fresh race for the same mail
        MatchNotice.objects.filter(user=person, match=match).update(turn_mailed_at=None)
        mail.outbox = []
        results = factories.at_once([decide, decide])  # raises what either decision raised
        assert sorted(results) == [False, True]
        assert len(mail.outbox) == 1


def test_the_turn_notice_runs_the_sooner_notice_and_counts_the_later_from_the_turn(settings):
    """The turn's one task (``games.turn_notice``) runs when the sooner notice is due: that one
    now, the other as its own task with what is left of its delay from the turn's stamp."""
    settings.PARLOUR_TURN_PUSH_DELAY, settings.PARLOUR_TURN_MAIL_DELAY = 10, 180
    turn = timezone.now()

    def plan(after: float, turn=turn) -> list[tuple[str, float]]:
        return turn_notices_later(turn=turn, now=turn + timedelta(seconds=after))

    assert plan(12) == [(queue.TURN_PUSH, 0.0), (queue.TURN_MAIL, 168.0)]  # 2 s late
    assert plan(9.5) == [(queue.TURN_PUSH, 0.0), (queue.TURN_MAIL, 170.5)]  # clocks apart
    settings.PARLOUR_TURN_MAIL_DELAY = 5  # the mail first, then the push
    assert plan(5) == [(queue.TURN_MAIL, 0.0), (queue.TURN_PUSH, 5.0)]
    assert plan(30) == [(queue.TURN_MAIL, 0.0), (queue.TURN_PUSH, 0.0)]  # both due: both now
    settings.PARLOUR_TURN_MAIL_DELAY = 10  # due together: the push first (it may put the mail off)
    assert [task for task, _ in plan(10)] == [queue.TURN_PUSH, queue.TURN_MAIL]

"""The notices page (``/notices/``) and the badge that counts what it lists: matches waiting for
the person's move, finished matches they have not seen since the end, each kind off by its box,
at the same statements for 5 and 500 notices, and never a match the person does not sit at."""

from __future__ import annotations

import datetime
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import NotificationSettings
from accounts.selectors import notify
from games.models import Match, MatchNotice, Seat
from games.services import move_submit
from games.views.notice_sources import NOTICE_SOURCES, notice_badge_count, notice_counts
from tests import factories

pytestmark = pytest.mark.django_db


def _bulk(n: int, users: list, *, status: str, awaited: int | None, result: str = "") -> list[int]:
    """``n`` matches of ``users`` in ``status`` written straight as rows (no deal: the notices
    read only the rows); ``awaited`` is the seat index awaited, ``result`` seat 0's result."""
    now = timezone.now()
    matches = Match.objects.bulk_create(
        [
            Match(
                game="faraway",
                num_players=len(users),
                status=status,
                created_by=users[0],
                finished_at=now if status == Match.Status.FINISHED else None,
            )
            for _ in range(n)
        ]
    )
    seats = []
    for match in matches:
        for index, user in enumerate(users):
            finished = status == Match.Status.FINISHED
            seats.append(
                Seat(
                    match=match,
                    index=index,
                    user=user,
                    awaited_since=now if index == awaited else None,
                    result=(result if index == 0 else "lost") if finished else None,
                    rank=(1 if index == 0 else 2) if finished else None,
                )
            )
    Seat.objects.bulk_create(seats)
    return [m.pk for m in matches]


def _count(client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_page_lists_turns_and_unseen_finished_matches_with_open_links() -> None:
    ann, bea, cal = (factories.user_make(n) for n in ("ann", "bea", "cal"))
    [turn] = _bulk(1, [ann, bea], status=Match.Status.ACTIVE, awaited=0)
    [won] = _bulk(1, [ann, bea], status=Match.Status.FINISHED, awaited=None, result="won")
    [theirs] = _bulk(1, [bea, cal], status=Match.Status.ACTIVE, awaited=0)  # not ann's
    [not_ann] = _bulk(1, [ann, bea], status=Match.Status.ACTIVE, awaited=1)  # bea's move
    page = factories.client_for(ann).get("/notices/").content.decode()
    turns = page.split('id="notices-turns"')[1].split("</section>")[0]
    finished = page.split('id="notices-finished"')[1].split("</section>")[0]
    assert f'href="/matches/{turn}/"' in turns and "with bea" in turns and ">Open<" in turns
    assert f'href="/matches/{won}/"' in finished and "You won" in finished
    assert f"/matches/{theirs}/" not in page and f"/matches/{not_ann}/" not in page
    assert notice_badge_count(ann.pk) == 2
    assert notice_badge_count(cal.pk) == 0


def test_a_finished_table_served_in_full_is_seen_and_leaves_the_notices() -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    [done] = _bulk(1, [ann, bea], status=Match.Status.FINISHED, awaited=None, result="won")
    client = factories.client_for(ann)
    assert f"/matches/{done}/" in client.get("/notices/").content.decode()
    client.get(f"/matches/{done}/")
    assert MatchNotice.objects.get(user=ann, match_id=done).seen_at is not None
    assert f"/matches/{done}/" not in client.get("/notices/").content.decode()
    assert notice_badge_count(ann.pk) == 0
    assert notice_badge_count(bea.pk) == 1  # bea has not looked


def test_a_seen_mark_from_before_the_finish_does_not_count() -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    [done] = _bulk(1, [ann, bea], status=Match.Status.FINISHED, awaited=None, result="won")
    earlier = timezone.now() - datetime.timedelta(hours=1)
    MatchNotice.objects.create(user=ann, match_id=done, seen_at=earlier)
    assert notice_badge_count(ann.pk) == 1


def test_an_old_finished_match_is_history_not_a_notice() -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    [old] = _bulk(1, [ann, bea], status=Match.Status.FINISHED, awaited=None, result="won")
    Match.objects.filter(pk=old).update(finished_at=timezone.now() - datetime.timedelta(days=30))
    assert notice_badge_count(ann.pk) == 0


def test_the_last_move_marks_the_finish_seen_for_the_mover() -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=3)
    seats = {s.index: s for s in match.seats.all()}
    rng = random.Random(5)
    while True:  # play through the services until one move is left, then post it as its person
        match.refresh_from_db()
        seat = match.awaiting[0]
        move = rng.choice(factories.legal_moves(match, seat))
        move_submit(match=match, seat=seats[seat], move=move, expected_version=match.version)
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
    # The same deal and the same choices again, up to the last move: that one is a POST.
    last = factories.match_make(players=[ann, bea], seed=3)
    rng = random.Random(5)
    seats = {s.index: s for s in last.seats.all()}
    while True:
        last.refresh_from_db()
        seat = last.awaiting[0]
        move = rng.choice(factories.legal_moves(last, seat))
        if last.ply == match.ply - 1:
            mover = ann if seats[seat].user_id == ann.pk else bea
            other = bea if mover is ann else ann
            response = factories.post_move(factories.client_for(mover), last, move)
            assert response.status_code in (200, 302)
            break
        move_submit(match=last, seat=seats[seat], move=move, expected_version=last.version)
    last.refresh_from_db()
    assert last.status == Match.Status.FINISHED
    assert MatchNotice.objects.get(user=mover, match=last).seen_at >= last.finished_at
    assert notice_badge_count(mover.pk) == 1  # the first match, never opened
    assert notice_badge_count(other.pk) == 2


@pytest.mark.parametrize("kind", ["turns", "finished"])
def test_each_kind_is_off_by_its_box_on_the_page_and_the_badge(kind: str) -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    [turn] = _bulk(1, [ann, bea], status=Match.Status.ACTIVE, awaited=0)
    [done] = _bulk(1, [ann, bea], status=Match.Status.FINISHED, awaited=None, result="won")
    NotificationSettings.objects.create(user=ann, **{f"notice_{kind}": False})
    page = factories.client_for(ann).get("/notices/").content.decode()
    hidden, shown = (turn, done) if kind == "turns" else (done, turn)
    assert f'id="notices-{kind}"' not in page and 'id="notices-off"' in page
    assert f"/matches/{hidden}/" not in page and f"/matches/{shown}/" in page
    assert notice_badge_count(ann.pk) == 1
    badge = factories.client_for(ann).get("/accounts/badge/", HTTP_HX_REQUEST="true")
    assert 'data-count="1"' in badge.content.decode()


def test_challenges_and_offers_are_off_by_their_box_on_the_page_and_the_badge() -> None:
    from games.services.invitations import match_challenge_create

    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    [turn] = _bulk(1, [ann, bea], status=Match.Status.ACTIVE, awaited=0)
    challenged = match_challenge_create(
        created_by=bea, challenges={1: ann}, game="faraway", num_players=2
    )
    client = factories.client_for(ann)
    page = client.get("/notices/").content.decode()
    assert 'id="invitation-notices"' in page and f"/matches/{challenged.pk}/" in page
    assert notice_badge_count(ann.pk) == 2
    NotificationSettings.objects.create(user=ann, notice_invitations=False)
    page = client.get("/notices/").content.decode()
    assert 'id="invitation-notices"' not in page and f"/matches/{challenged.pk}/" not in page
    assert f"/matches/{turn}/" in page
    assert notice_badge_count(ann.pk) == 1
    badge = client.get("/accounts/badge/", HTTP_HX_REQUEST="true")
    assert 'data-count="1"' in badge.content.decode()


def test_the_nav_badge_links_to_the_notices_and_counts_every_wanted_kind() -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    _bulk(2, [ann, bea], status=Match.Status.ACTIVE, awaited=0)
    _bulk(3, [ann, bea], status=Match.Status.FINISHED, awaited=None, result="drawn")
    page = factories.client_for(ann).get("/matches/").content.decode()
    assert re.search(r'<a href="/notices/" id="turn-badge"[^>]*data-count="5"', page, re.S)
    assert "<title>(5) " in page


def test_the_badge_reads_every_wanted_kinds_count_in_one_statement() -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    _bulk(3, [ann, bea], status=Match.Status.ACTIVE, awaited=0)
    _bulk(2, [ann, bea], status=Match.Status.FINISHED, awaited=None, result="drawn")
    assert len(NOTICE_SOURCES) >= 4  # games' three kinds and the ladder's
    with CaptureQueriesContext(connection) as queries:
        counts = notice_counts(ann.pk)
    assert len(queries) == 2  # the settings row, then every kind's count at once
    # each kind's share is what counting its rows alone says
    assert counts == {s.kind: s.pending(ann.pk).count() for s in NOTICE_SOURCES}
    assert counts[notify.NOTICE_TURNS] == 3 and counts[notify.NOTICE_FINISHED] == 2
    NotificationSettings.objects.create(user=ann, notice_turns=False)
    with CaptureQueriesContext(connection) as queries:
        assert notice_badge_count(ann.pk) == 2
    assert len(queries) == 2
    NotificationSettings.objects.filter(user=ann).update(
        **{field: False for field in notify.NOTICE_KINDS.values()}
    )
    with CaptureQueriesContext(connection) as queries:
        assert notice_badge_count(ann.pk) == 0
    assert len(queries) == 1  # no kind wanted: nothing to count


def test_counts_at_once_refuses_a_count_that_would_not_be_its_rows() -> None:
    from games.selectors.counts import counts_at_once

    assert counts_at_once({}) == {}
    with pytest.raises(ValueError):
        counts_at_once({"sliced": Match.objects.all()[:3]})
    with pytest.raises(ValueError):
        counts_at_once({"distinct": Match.objects.distinct()})


def test_the_page_and_badge_cost_the_same_for_5_and_500_notices() -> None:
    ann = factories.user_make("ann")
    small, large = factories.user_make("few"), factories.user_make("many")
    for owner, n in ((small, 5), (large, 500)):
        _bulk(n, [owner, ann], status=Match.Status.ACTIVE, awaited=0)
        _bulk(n, [owner, ann], status=Match.Status.FINISHED, awaited=None, result="won")
    few, few_page = _count(factories.client_for(small), "/notices/")
    many, many_page = _count(factories.client_for(large), "/notices/")
    assert few_page.count(">Open<") == 10 and many_page.count(">Open<") == 1000
    assert few == many
    badge_few, _ = _count(factories.client_for(small), "/accounts/badge/")
    badge_many, _ = _count(factories.client_for(large), "/accounts/badge/")
    assert badge_few == badge_many


def test_the_page_and_badge_cost_the_same_for_5_and_500_invitations() -> None:
    """Challenges and rematch offers awaiting the person, and those they sent that were
    declined or lapsed, are notices too: 5 or 500 of each kind cost the same statements."""
    from games.models import Invitation

    lapse = timezone.now() + datetime.timedelta(days=3)
    past = timezone.now() - datetime.timedelta(minutes=1)
    counted = {}
    for name, n in (("few", 5), ("many", 500)):
        me, other = factories.user_make(name), factories.user_make(f"{name}-rival")
        to_me = _bulk(n, [other], status=Match.Status.WAITING, awaited=None)
        from_me = _bulk(n, [me], status=Match.Status.WAITING, awaited=None)
        Invitation.objects.bulk_create(
            [
                Invitation(
                    match_id=pk,
                    seat_index=1,
                    user=me,
                    invited_by=other,
                    kind=Invitation.Kind.CHALLENGE if i % 2 else Invitation.Kind.REMATCH,
                    expires_at=lapse,
                )
                for i, pk in enumerate(to_me)
            ]
            + [
                Invitation(
                    match_id=pk,
                    seat_index=1,
                    user=other,
                    invited_by=me,
                    kind=Invitation.Kind.CHALLENGE,
                    status=Invitation.Status.DECLINED if i % 2 else Invitation.Status.PENDING,
                    expires_at=lapse if i % 2 else past,
                )
                for i, pk in enumerate(from_me)
            ]
        )
        client = factories.client_for(me)
        statements, page = _count(client, "/notices/")
        assert page.count('class="invitation-accept"') == n
        assert page.count('class="invitation-notice"') == 2 * n
        badge, _ = _count(client, "/accounts/badge/")
        counted[n] = (statements, badge)
    assert counted[5] == counted[500]


def test_a_finished_match_shows_only_public_facts() -> None:
    ann, bea = factories.user_make("ann"), factories.user_make("bea")
    match = factories.match_make(players=[ann, bea], seed=3, public=False)
    factories.play_random(match, random.Random(2))
    match.refresh_from_db()
    page = factories.client_for(ann).get("/notices/").content.decode()
    item = page.split(f'data-match-id="{match.pk}"')[1].split("</li>")[0]
    # the game, the other seat, the person's result, the date and the link: nothing of the state
    assert "with bea" in item and f"/matches/{match.pk}/" in item
    outsider = factories.client_for(factories.user_make("cal")).get("/notices/")
    assert f"/matches/{match.pk}/" not in outsider.content.decode()


def test_signed_out_is_sent_to_log_in_and_post_is_refused() -> None:
    from django.test import Client

    response = Client().get("/notices/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    ann = factories.user_make("ann")
    assert factories.client_for(ann).post("/notices/").status_code == 405

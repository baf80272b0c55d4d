"""Follow, unfollow, block and unblock from a profile; the friends page; who may challenge me
and the blocked people on the account page; a block keeps people out of each other's free
seats (games/views/profiles.py, games/selectors/friends.py, games/services/matches.py
``match_join``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Block, ChallengeSetting, Follow
from accounts.selectors.relations import are_friends, challenge_setting, pair_facts
from accounts.services.closure import account_close
from accounts.services.relations import block_add, block_remove, challenge_setting_save, follow_add
from games.models import Match, Seat
from games.services import JoinRejected, match_create, match_join
from games.services.challenges import challenge_refusal
from tests import factories

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
Who = ChallengeSetting.Who


@pytest.fixture
def ann():
    return factories.user_make("ann")


@pytest.fixture
def bea():
    return factories.user_make("bea")


def relation_rows() -> tuple[list, list]:
    return (
        sorted(Follow.objects.values_list("follower_id", "followed_id")),
        sorted(Block.objects.values_list("blocker_id", "blocked_id")),
    )


# --- The profile's buttons ---------------------------------------------------------------------


def test_profile_shows_follow_challenge_block_to_others_and_none_on_ones_own(ann, bea):
    page = factories.client_for(ann).get("/players/bea/").content.decode()
    assert 'id="profile-follow"' in page
    assert 'href="/matches/new/?challenge=bea"' in page
    assert 'href="/players/bea/block/"' in page
    own = factories.client_for(bea).get("/players/bea/").content.decode()
    assert 'id="profile-actions"' not in own


def test_follow_then_follow_back_makes_friends_and_double_posts_change_nothing(ann, bea):
    ann_client, bea_client = factories.client_for(ann), factories.client_for(bea)
    answer = ann_client.post("/players/bea/follow/")
    assert answer.status_code == 302 and answer["Location"] == "/players/bea/"
    assert ann_client.post("/players/bea/follow/").status_code == 302  # a double click
    assert Follow.objects.count() == 1
    page = bea_client.get("/players/ann/").content.decode()
    assert "Follow back" in page and "ann follows you." in page
    answer = bea_client.post("/players/ann/follow/", **HX)
    assert answer.status_code == 200
    swapped = answer.content.decode()
    assert (
        swapped.startswith('<section class="profile-actions"')
        and "You follow each other" in swapped
    )
    assert 'id="profile-unfollow"' in swapped and "<html" not in swapped
    assert are_friends(ann.pk, bea.pk)
    assert ann_client.post("/players/bea/unfollow/", **HX).status_code == 200
    assert ann_client.post("/players/bea/unfollow/").status_code == 302  # nothing to undo
    assert relation_rows() == ([(bea.pk, ann.pk)], [])


def test_refusals_say_why_and_change_nothing(ann, bea):
    client = factories.client_for(ann)
    answer = client.post("/players/ann/follow/")
    assert answer.status_code == 400 and b"You cannot follow yourself." in answer.content
    answer = client.post("/players/nobody/follow/")
    assert answer.status_code == 404 and b"There is no such player." in answer.content
    assert client.post("/players/nobody/block/", {"confirm": "yes"}).status_code == 404
    answer = client.post("/players/ann/block/", {"confirm": "yes"}, **HX)
    assert answer.status_code == 400 and b"You cannot block yourself." in answer.content
    answer = client.post("/players/bea/block/")  # without the confirmation's field
    assert answer.status_code == 400 and b"Confirm the block with its button." in answer.content
    assert client.get("/players/ann/block/").status_code == 400
    assert client.get("/players/bea/follow/").status_code == 405
    assert relation_rows() == ([], [])


def test_a_closed_account_cannot_be_followed_or_blocked(ann, bea):
    account_close(user=bea)
    client = factories.client_for(ann)
    assert client.post("/players/bea/follow/").status_code == 404
    assert client.post("/players/bea/block/", {"confirm": "yes"}).status_code == 404
    assert client.get("/players/bea/block/").status_code == 404
    assert relation_rows() == ([], [])


def test_block_asks_first_then_blocks_drops_follows_and_is_undone(ann, bea):
    follow_add(follower_id=ann.pk, followed_id=bea.pk)
    follow_add(follower_id=bea.pk, followed_id=ann.pk)
    client = factories.client_for(ann)
    ask = client.get("/players/bea/block/").content.decode()
    assert "Block bea?" in ask and "hides no public match" in ask
    # a block withdraws the invitations between them (Invitation.Status.WITHDRAWN), so the
    # page says so rather than "declined", a decision the other person never made
    assert "pending challenges between you are withdrawn" in ask and "declined" not in ask
    assert 'name="confirm" value="yes"' in ask
    answer = client.post("/players/bea/block/", {"confirm": "yes"}, **HX)
    assert answer.status_code == 200 and 'id="profile-unblock"' in answer.content.decode()
    assert client.post("/players/bea/block/", {"confirm": "yes"}).status_code == 302  # twice
    assert relation_rows() == ([], [(ann.pk, bea.pk)])
    page = client.get("/players/bea/").content.decode()
    assert "bea does not take challenges from you." in page
    assert 'href="/matches/new/?challenge=bea"' not in page
    # Across the block, neither may follow: bea is offered no Follow, and a forged one is
    # refused (htmx: the buttons swapped with why).
    assert (
        'id="profile-follow"' not in factories.client_for(bea).get("/players/ann/").content.decode()
    )
    answer = factories.client_for(bea).post("/players/ann/follow/", **HX)
    assert answer.status_code == 409 and b"You cannot follow this player." in answer.content
    assert factories.client_for(bea).post("/players/ann/follow/").status_code == 409
    # bea cannot undo ann's block.
    factories.client_for(bea).post("/players/ann/unblock/")
    assert relation_rows() == ([], [(ann.pk, bea.pk)])
    answer = client.post("/players/bea/unblock/", {"back": "account"})
    assert answer.status_code == 302 and answer["Location"] == "/accounts/#account-blocked"
    assert relation_rows() == ([], [])


def test_challenge_link_follows_the_targets_choice(ann, bea):
    client = factories.client_for(ann)
    challenge_setting_save(user_id=bea.pk, who=Who.NOBODY)
    page = client.get("/players/bea/").content.decode()
    assert "bea does not take challenges." in page and "?challenge=bea" not in page
    challenge_setting_save(user_id=bea.pk, who=Who.FRIENDS)
    assert "?challenge=bea" not in client.get("/players/bea/").content.decode()
    follow_add(follower_id=ann.pk, followed_id=bea.pk)
    follow_add(follower_id=bea.pk, followed_id=ann.pk)
    assert "?challenge=bea" in client.get("/players/bea/").content.decode()


# The session, the viewer, the owner, the profile's figures, the follows, blocks and challenge
# choice between the two (one), the ratings and the badge (its settings row and every wanted
# kind's count at once: docs/notifications.md): the same for 5 follows as for 500.
# With the profile's leagues and ladder places (two: competitions.profile_events; no match
# listed here, so no mark query).
PROFILE_STATEMENTS = 13


@pytest.mark.parametrize("size", [5, 500])
def test_profile_statements_do_not_grow_with_follows(ann, bea, size, django_assert_num_queries):
    User = type(ann)
    User.objects.bulk_create([User(username=f"f{i}") for i in range(size)])
    made = list(User.objects.filter(username__startswith="f"))
    Follow.objects.bulk_create(
        [Follow(follower=p, followed=bea) for p in made]
        + [Follow(follower=bea, followed=p) for p in made]
        + [Follow(follower=ann, followed=p) for p in made]
        + [Follow(follower=p, followed=ann) for p in made]
    )
    follow_add(follower_id=ann.pk, followed_id=bea.pk)
    challenge_setting_save(user_id=bea.pk, who=Who.FRIENDS)
    client = factories.client_for(ann)
    client.get("/players/bea/")  # the session's first use
    with django_assert_num_queries(PROFILE_STATEMENTS):
        page = client.get("/players/bea/")
    assert page.status_code == 200 and b"bea does not take challenges from you." in page.content


@pytest.mark.parametrize("who", list(Who))
def test_pair_facts_give_the_same_refusal_as_the_plain_reads(
    ann, bea, who, django_assert_num_queries
):
    challenge_setting_save(user_id=bea.pk, who=who)
    cal = factories.user_make("cal")
    follow_add(follower_id=ann.pk, followed_id=bea.pk)
    follow_add(follower_id=bea.pk, followed_id=ann.pk)
    block_add(blocker_id=cal.pk, blocked_id=bea.pk)
    for viewer in (ann, cal):
        with django_assert_num_queries(1):
            facts = pair_facts(viewer.pk, bea.pk)
        plain = challenge_refusal(challenger_id=viewer.pk, target_id=bea.pk, target_name="bea")
        read = challenge_refusal(
            challenger_id=viewer.pk, target_id=bea.pk, target_name="bea", facts=facts
        )
        assert read == plain
    assert pair_facts(ann.pk, bea.pk).friends
    assert pair_facts(bea.pk, cal.pk).blocked and not pair_facts(bea.pk, cal.pk).blocked_by_viewer


# --- The account page's sections ---------------------------------------------------------------


def test_who_may_challenge_me_is_saved_and_garbage_refused(ann):
    client = factories.client_for(ann)
    page = client.get("/accounts/").content.decode()
    assert 'id="account-challenges"' in page and 'value="friends"' in page
    answer = client.post("/accounts/challenges/", {"who": "friends"})
    assert answer.status_code == 302 and answer["Location"] == "/accounts/#account-challenges"
    assert challenge_setting(ann.pk) == Who.FRIENDS
    for garbage in ({"who": "everyone"}, {}, {"who": ["nobody", "x" * 5000]}):
        answer = client.post("/accounts/challenges/", garbage)
        assert answer.status_code == 400
        assert b"Nothing changed: choose one of the offered answers." in answer.content
    assert challenge_setting(ann.pk) == Who.FRIENDS
    assert client.get("/accounts/challenges/").status_code == 405


def test_blocked_people_are_listed_with_unblock(ann, bea):
    client = factories.client_for(ann)
    assert b"You have blocked nobody." in client.get("/accounts/").content
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    page = client.get("/accounts/").content.decode()
    assert 'data-username="bea"' in page and 'action="/players/bea/unblock/"' in page
    client.post("/players/bea/unblock/", {"back": "account"})
    assert not Block.objects.exists()


# --- Seats across a block ----------------------------------------------------------------------


@pytest.mark.parametrize("blocker_is_creator", [True, False])
def test_a_block_keeps_people_out_of_each_others_free_seats(ann, bea, blocker_is_creator):
    cal = factories.user_make("cal")
    match = match_create(game="faraway", num_players=3, created_by=ann, public=True)
    if blocker_is_creator:
        block_add(blocker_id=ann.pk, blocked_id=bea.pk)
    else:
        block_add(blocker_id=bea.pk, blocked_id=ann.pk)
    with pytest.raises(JoinRejected) as refused:
        match_join(match=match, user=bea)
    assert refused.value.status == 403
    assert "A block stands between you and someone at this table" in refused.value.message
    # Through the lobby's "Take a seat" and the invite link: the message, no seat.
    client = factories.client_for(bea)
    answer = client.post(f"/matches/{match.pk}/join/", follow=True)
    assert b"A block stands between you and someone at this table" in answer.content
    client.get(f"/matches/join/{match.invite_token}/")
    client.post(f"/matches/join/{match.invite_token}/", follow=True)
    assert list(Seat.objects.filter(match=match).values_list("user_id", flat=True)) == [ann.pk]
    # Someone else sits; a block between bea and that seat's holder keeps bea out too.
    match_join(match=match, user=cal)
    block_remove(blocker_id=ann.pk, blocked_id=bea.pk)
    block_remove(blocker_id=bea.pk, blocked_id=ann.pk)
    block_add(blocker_id=cal.pk, blocked_id=bea.pk)
    with pytest.raises(JoinRejected):
        match_join(match=match, user=bea)
    block_remove(blocker_id=cal.pk, blocked_id=bea.pk)
    assert match_join(match=match, user=bea).index == 2


# --- The friends page --------------------------------------------------------------------------


def _match(game: str, status: str, people: list, *, public: bool, awaited=None) -> Match:
    now = timezone.now()
    match = Match.objects.create(
        game=game,
        num_players=len(people),
        status=status,
        public=public,
        created_by=people[0],
        started_at=now,
        finished_at=now if status == Match.Status.FINISHED else None,
    )
    Seat.objects.bulk_create(
        [
            Seat(
                match=match,
                index=i,
                user=p,
                awaited_since=now if p == awaited else None,
                result=("won" if i == 0 else "lost") if status == Match.Status.FINISHED else None,
            )
            for i, p in enumerate(people)
        ]
    )
    return match


def _friends(a, b) -> None:
    follow_add(follower_id=a.pk, followed_id=b.pk)
    follow_add(follower_id=b.pk, followed_id=a.pk)


def test_friends_page_lists_friends_matches_results_waits_and_one_way_follows(ann, bea):
    cal, dot, eve = (factories.user_make(n) for n in ("cal", "dot", "eve"))
    _friends(ann, bea)
    follow_add(follower_id=ann.pk, followed_id=cal.pk)  # cal does not follow back
    follow_add(follower_id=dot.pk, followed_id=ann.pk)  # ann does not follow dot
    watch = _match("faraway", Match.Status.ACTIVE, [bea, eve], public=True)
    hidden = _match("gulliver", Match.Status.ACTIVE, [bea, eve], public=False)
    mine = _match("faraway", Match.Status.ACTIVE, [bea, ann], public=False, awaited=ann)
    theirs = _match("gulliver", Match.Status.ACTIVE, [ann, bea], public=False, awaited=bea)
    done = _match("faraway", Match.Status.FINISHED, [bea, eve], public=True)
    secret_done = _match("faraway", Match.Status.FINISHED, [bea, eve], public=False)
    page = factories.client_for(ann).get("/friends/").content.decode()
    friends_part = page.split('id="friends-following"')[0]
    assert 'data-username="bea"' in friends_part and 'data-username="cal"' not in friends_part
    assert f'data-match="{watch.pk}"' in page and f"/matches/{watch.pk}/" in page
    assert f'data-match="{hidden.pk}"' not in page and f"/matches/{hidden.pk}/" not in page
    assert f'data-match="{secret_done.pk}"' not in page
    assert f'data-match="{done.pk}" data-result="won"' in page
    mine_row = page.split(f'data-match="{mine.pk}"')[1].split("</li>")[0]
    theirs_row = page.split(f'data-match="{theirs.pk}"')[1].split("</li>")[0]
    assert "waiting for you" in mine_row and "you wait for them" in theirs_row
    following, followers = page.split('id="friends-following"')[1].split('id="friends-followers"')
    assert 'data-username="cal"' in following and 'data-username="dot"' in followers
    assert 'id="follow-back-1"' in followers
    answer = factories.client_for(ann).post("/players/dot/follow/", {"back": "friends"})
    assert answer["Location"] == "/friends/" and are_friends(ann.pk, dot.pk)


def test_a_friend_who_closed_their_account_is_gone_from_the_page(ann, bea):
    _friends(ann, bea)
    account_close(user=bea)
    assert b'data-username="bea"' not in factories.client_for(ann).get("/friends/").content


def test_friends_page_requires_sign_in():
    answer = Client().get("/friends/")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


# The session, the viewer, the follows, the friends' matches in play, their results, the badge
# (its settings row and every wanted kind's count at once).
FRIENDS_STATEMENTS = 7


@pytest.mark.parametrize("size", [5, 500])
def test_friends_page_statements_do_not_grow(ann, size, django_assert_num_queries):
    User = type(ann)
    User.objects.bulk_create([User(username=f"g{i}") for i in range(size)])
    people = list(User.objects.filter(username__startswith="g"))
    Follow.objects.bulk_create(
        [Follow(follower=ann, followed=p) for p in people]
        + [Follow(follower=p, followed=ann) for p in people]
    )
    now = timezone.now()
    matches = Match.objects.bulk_create(
        [
            Match(
                game="faraway",
                num_players=2,
                status=Match.Status.ACTIVE if i % 2 else Match.Status.FINISHED,
                public=True,
                created_by=p,
                started_at=now,
                finished_at=None if i % 2 else now - timedelta(minutes=i),
            )
            for i, p in enumerate(people * 2)
        ]
    )
    Seat.objects.bulk_create(
        [
            Seat(match=m, index=j, user=u, result=None if i % 2 else "won")
            for i, (m, p) in enumerate(zip(matches, people * 2, strict=True))
            for j, u in enumerate([p, ann])
        ]
    )
    client = factories.client_for(ann)
    client.get("/friends/")
    with django_assert_num_queries(FRIENDS_STATEMENTS):
        page = client.get("/friends/")
    assert page.status_code == 200 and page.content.count(b'class="friend"') == size
    assert page.content.count(b"with you") >= size // 2

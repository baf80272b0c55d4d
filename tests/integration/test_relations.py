"""Follows, friends, blocks and who may challenge whom (accounts/services/relations.py,
accounts/selectors/relations.py): the rules, one query each, and a block's effects in one
transaction."""

from __future__ import annotations

import pytest

from accounts.errors import AccountRefused
from accounts.models import Block, ChallengeSetting, Follow
from accounts.selectors.relations import (
    are_friends,
    blocked_between,
    blocked_ids,
    challenge_setting,
    friend_ids,
    has_blocked,
)
from accounts.services.relations import (
    block_add,
    block_remove,
    challenge_setting_save,
    follow_add,
    follow_remove,
)
from accounts.signals import person_blocked
from games.selectors.friends import played_together
from games.services.challenges import challenge_refusal
from tests import factories

pytestmark = pytest.mark.django_db
Who = ChallengeSetting.Who


@pytest.fixture
def people():
    return [factories.user_make(name) for name in ("ann", "bea", "cal")]


def test_mutual_follows_are_friends_and_one_way_is_not(people):
    ann, bea, cal = people
    assert follow_add(follower_id=ann.pk, followed_id=bea.pk)
    assert not follow_add(follower_id=ann.pk, followed_id=bea.pk)  # a double click
    assert not are_friends(ann.pk, bea.pk)
    follow_add(follower_id=bea.pk, followed_id=ann.pk)
    follow_add(follower_id=ann.pk, followed_id=cal.pk)
    assert are_friends(ann.pk, bea.pk)
    assert friend_ids(ann.pk) == {bea.pk}
    assert friend_ids(cal.pk) == set()
    assert follow_remove(follower_id=bea.pk, followed_id=ann.pk)
    assert not follow_remove(follower_id=bea.pk, followed_id=ann.pk)
    assert friend_ids(ann.pk) == set()


def test_no_one_follows_or_blocks_themselves_or_nobody(people):
    ann = people[0]
    for act in (follow_add, block_add):
        key = "follower_id" if act is follow_add else "blocker_id"
        other = "followed_id" if act is follow_add else "blocked_id"
        with pytest.raises(AccountRefused):
            act(**{key: ann.pk, other: ann.pk})
        with pytest.raises(AccountRefused):
            act(**{key: ann.pk, other: 999_999})
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_a_block_drops_the_follows_both_ways_stops_new_ones_and_signals(people):
    ann, bea, _ = people
    follow_add(follower_id=ann.pk, followed_id=bea.pk)
    follow_add(follower_id=bea.pk, followed_id=ann.pk)
    heard = []

    def hear(sender, blocker_id, blocked_id, **kwargs):
        heard.append((blocker_id, blocked_id))

    person_blocked.connect(hear)
    try:
        assert block_add(blocker_id=bea.pk, blocked_id=ann.pk)
        assert not block_add(blocker_id=bea.pk, blocked_id=ann.pk)
    finally:
        person_blocked.disconnect(hear)
    assert heard == [(bea.pk, ann.pk)]
    assert not Follow.objects.exists()
    assert blocked_between(ann.pk, bea.pk) and blocked_between(bea.pk, ann.pk)
    assert blocked_ids(ann.pk) == {bea.pk} and blocked_ids(bea.pk) == {ann.pk}
    assert has_blocked(bea.pk, ann.pk) and not has_blocked(ann.pk, bea.pk)
    for a, b in ((ann, bea), (bea, ann)):
        with pytest.raises(AccountRefused):
            follow_add(follower_id=a.pk, followed_id=b.pk)
    assert not block_remove(blocker_id=ann.pk, blocked_id=bea.pk)  # not ann's to undo
    assert block_remove(blocker_id=bea.pk, blocked_id=ann.pk)
    assert not blocked_between(ann.pk, bea.pk)


def test_who_may_challenge_follows_the_targets_choice_and_any_block(people):
    ann, bea, cal = people
    ask = challenge_refusal
    assert ask(challenger_id=ann.pk, target_id=bea.pk, target_name="bea") is None  # anyone
    assert ask(challenger_id=ann.pk, target_id=ann.pk, target_name="ann")
    challenge_setting_save(user_id=bea.pk, who=Who.FRIENDS)
    assert ask(challenger_id=ann.pk, target_id=bea.pk, target_name="bea") == (
        "bea does not take challenges from you."
    )
    follow_add(follower_id=ann.pk, followed_id=bea.pk)
    follow_add(follower_id=bea.pk, followed_id=ann.pk)
    assert ask(challenger_id=ann.pk, target_id=bea.pk, target_name="bea") is None
    challenge_setting_save(user_id=bea.pk, who=Who.PLAYED)
    assert ask(challenger_id=cal.pk, target_id=bea.pk, target_name="bea")
    factories.match_make(game="faraway", players=[cal, bea])
    assert ask(challenger_id=cal.pk, target_id=bea.pk, target_name="bea") is None
    challenge_setting_save(user_id=bea.pk, who=Who.NOBODY)
    assert ask(challenger_id=cal.pk, target_id=bea.pk, target_name="bea") == (
        "bea does not take challenges."
    )
    challenge_setting_save(user_id=bea.pk, who=Who.ANYONE)
    block_add(blocker_id=ann.pk, blocked_id=bea.pk)  # either side's block stops both
    assert ask(challenger_id=bea.pk, target_id=ann.pk, target_name="ann")
    assert ask(challenger_id=ann.pk, target_id=bea.pk, target_name="bea")
    with pytest.raises(AccountRefused):
        challenge_setting_save(user_id=bea.pk, who="everyone!")


def test_each_read_is_one_query(people, django_assert_num_queries):
    ann, bea, _ = people
    for read in (
        lambda: blocked_between(ann.pk, bea.pk),
        lambda: blocked_ids(ann.pk),
        lambda: are_friends(ann.pk, bea.pk),
        lambda: friend_ids(ann.pk),
        lambda: played_together(ann.pk, bea.pk),
        lambda: challenge_setting(ann.pk),
    ):
        with django_assert_num_queries(1):
            read()

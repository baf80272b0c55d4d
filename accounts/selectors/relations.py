"""Follows, friends and blocks, read (docs/accounts.md, "Friends and blocks"): plain reads of
three small tables, never cached: a block made in one web process must hold at once in every
other and in the workers. A person follows another; two who follow each other are friends; a
block stands between two people whichever of them made it. (django-friendship caches follower
and block lists in Django's cache, which is per process here; its friends are accepted requests,
not mutual follows. So it is not used: docs/accounts.md says more.) Who may challenge whom is
``games.services.challenges``, from these facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, Subquery

from accounts.models import Block, ChallengeSetting, Follow

Who = ChallengeSetting.Who


def blocked_between(a_id: int, b_id: int) -> bool:
    """Whether either of the two has blocked the other (one query)."""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def blocked_ids(user_id: int) -> set[int]:
    """Everyone a block stands between the person and: those they blocked and those who
    blocked them (one query)."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {a if b == user_id else b for a, b in pairs}


def blocked_with_any(user_id: int, other_ids: set[int]) -> bool:
    """Whether a block stands between the person and any of ``other_ids`` (one query; none
    when ``other_ids`` is empty)."""
    if not other_ids:
        return False
    return Block.objects.filter(
        Q(blocker_id=user_id, blocked_id__in=other_ids)
        | Q(blocked_id=user_id, blocker_id__in=other_ids)
    ).exists()


def blocked_names(user_id: int) -> list[str]:
    """The names of those the person blocked, newest block first (one query)."""
    names = (
        Block.objects.filter(blocker_id=user_id)
        .order_by("-pk")
        .values_list("blocked__username", flat=True)
    )
    return list(names)


def has_blocked(blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id`` (one direction: for the profile's button)."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def follows(follower_id: int, followed_id: int) -> bool:
    return Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


def are_friends(a_id: int, b_id: int) -> bool:
    """Whether each follows the other (one query)."""
    pairs = Follow.objects.filter(
        Q(follower_id=a_id, followed_id=b_id) | Q(follower_id=b_id, followed_id=a_id)
    )
    return pairs.count() == 2


def friend_ids(user_id: int) -> set[int]:
    """The people the person follows who follow them back (one query)."""
    return set(
        Follow.objects.filter(
            follower_id=user_id,
            followed__follows_out__followed_id=user_id,
        ).values_list("followed_id", flat=True)
    )


def challenge_setting(user_id: int) -> str:
    """Who may challenge the person (a ``Who`` value; no row: anyone)."""
    found = ChallengeSetting.objects.filter(user_id=user_id).values_list("who", flat=True).first()
    return found or Who.ANYONE


@dataclass(frozen=True)
class PairFacts:
    """What stands between a viewer and another person, read at once (``pair_facts``)."""

    following: bool  # the viewer follows them
    followed_by: bool  # they follow the viewer
    blocked_by_viewer: bool
    blocked_by_them: bool
    their_challenge_setting: str  # a ``Who`` value

    @property
    def friends(self) -> bool:
        return self.following and self.followed_by

    @property
    def blocked(self) -> bool:
        return self.blocked_by_viewer or self.blocked_by_them


def pair_facts(viewer_id: int, other_id: int) -> PairFacts:
    """The follows and blocks both ways between two people and the other's challenge choice, in
    one query (for a profile's buttons, however many follows and blocks exist)."""
    follow = Follow.objects.filter
    block = Block.objects.filter
    found = (
        get_user_model()
        .objects.filter(pk=other_id)
        .annotate(
            following=Exists(follow(follower_id=viewer_id, followed_id=OuterRef("pk"))),
            followed_by=Exists(follow(follower_id=OuterRef("pk"), followed_id=viewer_id)),
            blocked_by_viewer=Exists(block(blocker_id=viewer_id, blocked_id=OuterRef("pk"))),
            blocked_by_them=Exists(block(blocker_id=OuterRef("pk"), blocked_id=viewer_id)),
            who=Subquery(ChallengeSetting.objects.filter(user_id=OuterRef("pk")).values("who")[:1]),
        )
        .values_list("following", "followed_by", "blocked_by_viewer", "blocked_by_them", "who")
        .first()
    )
    if found is None:
        return PairFacts(False, False, False, False, Who.ANYONE)
    following, followed_by, by_viewer, by_them, who = found
    return PairFacts(following, followed_by, by_viewer, by_them, who or Who.ANYONE)


def blocked_pairs_among(user_ids: set[int]) -> set[frozenset[int]]:
    """Every pair of ``user_ids`` a block stands between, whichever made it (one query, however
    many people: a league's pairing reads its people's blocks at once)."""
    if not user_ids:
        return set()
    pairs = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids).values_list(
        "blocker_id", "blocked_id"
    )
    return {frozenset(pair) for pair in pairs}

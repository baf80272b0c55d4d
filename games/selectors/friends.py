"""What two people share at tables, read as data (docs/accounts.md, "Friends and blocks"):
whether they have played together (for a challenge taken only from such people), and the
friends page (``/friends/``): the person's friends (mutual follows), for each their matches in
play the person may watch or shares with them (and in a shared one who waits on whom), their
latest results; then the people they follow who do not follow back, and the people who follow
them (to follow back). ``games.presentation.friends`` words it.

Three queries, whatever the number of friends, matches or follows: the follows touching the
person, the friends' seats in matches in play, and their latest finished seats (a window keeps
the last few per friend). Only matches the person may see are read (``matches_visible_q``): a
friend's private match with others stays invisible.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, F, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber

from accounts.models import Follow
from accounts.selectors.closure import hidden_people_on
from games.models import Match, Seat
from games.selectors.access import matches_visible_q

IN_PLAY_PER_FRIEND = 5
RESULTS_PER_FRIEND = 3

YOU_WAIT = "you"  # in a shared match, the person's friend is awaited
THEY_WAIT = "they"  # the person is awaited: the friend waits for them


@dataclass(frozen=True)
class FriendMatch:
    match_id: int
    game: str
    shared: bool  # the person sits at it too
    waiting: str  # in a shared match: THEY_WAIT, YOU_WAIT, or "" (neither: someone else)


@dataclass(frozen=True)
class FriendResult:
    match_id: int
    game: str
    result: str  # "won", "lost", "drawn"
    finished_at: datetime | None


@dataclass
class Friend:
    username: str
    in_play: list[FriendMatch] = field(default_factory=list)
    results: list[FriendResult] = field(default_factory=list)


@dataclass(frozen=True)
class FriendsPage:
    friends: list[Friend]
    following_only: list[str]  # followed by the person, not following back
    followers_only: list[str]  # following the person, not followed back


def _follows(user_id: int) -> tuple[dict[int, str], dict[int, str]]:
    """Whom the person follows and who follows them, by id with names (one query; closed and
    deleted accounts left out)."""
    rows = (
        Follow.objects.filter(Q(follower_id=user_id) | Q(followed_id=user_id))
        .exclude(Q(follower_id=user_id) & hidden_people_on("followed"))
        .exclude(Q(followed_id=user_id) & hidden_people_on("follower"))
        .values_list("follower_id", "followed_id", "follower__username", "followed__username")
    )
    following: dict[int, str] = {}
    followers: dict[int, str] = {}
    for follower_id, followed_id, follower_name, followed_name in rows:
        if follower_id == user_id:
            following[followed_id] = followed_name
        else:
            followers[follower_id] = follower_name
    return following, followers


def played_together(a_id: int, b_id: int) -> bool:
    """Whether the two have sat at one match (begun or over, any game; one query)."""
    return Seat.objects.filter(
        user_id=a_id,
        match__seats__user_id=b_id,
        match__status__in=[Match.Status.ACTIVE, Match.Status.FINISHED],
    ).exists()


def friends_page_data(*, viewer: AbstractBaseUser) -> FriendsPage:
    """Everything the friends page shows ``viewer`` (three queries)."""
    following, followers = _follows(viewer.pk)
    friend_ids = following.keys() & followers.keys()
    friends = {
        pk: Friend(username=following[pk])
        for pk in sorted(friend_ids, key=lambda pk: following[pk].lower())
    }
    if friends:
        mine = Seat.objects.filter(match_id=OuterRef("match_id"), user_id=viewer.pk)
        in_play = (
            Seat.objects.filter(user_id__in=friends.keys(), match__status=Match.Status.ACTIVE)
            .filter(matches_visible_q(viewer, via="match"))
            .annotate(
                shared=Exists(mine),
                my_awaited=Subquery(mine.values("awaited_since")[:1]),
                nth=Window(
                    RowNumber(),
                    partition_by=[F("user_id")],
                    order_by=[F("match__updated_at").desc(), F("match_id").desc()],
                ),
            )
            .filter(nth__lte=IN_PLAY_PER_FRIEND)
            .values_list(
                "user_id", "match_id", "match__game", "shared", "awaited_since", "my_awaited"
            )
        )
        for user_id, match_id, game, shared, awaited, my_awaited in in_play:
            waiting = ""
            if shared and my_awaited is not None:
                waiting = THEY_WAIT
            elif shared and awaited is not None:
                waiting = YOU_WAIT
            friends[user_id].in_play.append(FriendMatch(match_id, game, shared, waiting))
        results = (
            Seat.objects.filter(
                user_id__in=friends.keys(),
                match__status=Match.Status.FINISHED,
                result__isnull=False,
            )
            .filter(matches_visible_q(viewer, via="match"))
            .annotate(
                nth=Window(
                    RowNumber(),
                    partition_by=[F("user_id")],
                    order_by=[F("match__finished_at").desc(), F("match_id").desc()],
                )
            )
            .filter(nth__lte=RESULTS_PER_FRIEND)
            .values_list("user_id", "match_id", "match__game", "result", "match__finished_at")
        )
        for user_id, match_id, game, result, finished_at in results:
            friends[user_id].results.append(FriendResult(match_id, game, result, finished_at))
    for friend in friends.values():
        friend.in_play.sort(key=lambda m: (not m.waiting, not m.shared, -m.match_id))
        friend.results.sort(key=lambda r: -r.match_id)
    return FriendsPage(
        friends=list(friends.values()),
        following_only=sorted(
            (n for pk, n in following.items() if pk not in friend_ids), key=str.lower
        ),
        followers_only=sorted(
            (n for pk, n in followers.items() if pk not in friend_ids), key=str.lower
        ),
    )

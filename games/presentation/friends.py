"""The friends page's words (docs/accounts.md, "Friends and blocks"): each match's game title
and who waits on whom, from ``games.selectors.friends``' data."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from games.engines import get_engine

if TYPE_CHECKING:
    from games.selectors.friends import FriendsPage

WAITING_WORDS = {"you": "you wait for them", "they": "waiting for you", "": ""}


@dataclass(frozen=True)
class FriendMatchLine:
    match_id: int
    title: str
    shared: bool  # the person sits at it too
    waiting: str  # in a shared match, who waits on whom; "" when neither


@dataclass(frozen=True)
class FriendResultLine:
    match_id: int
    title: str
    result: str  # "won", "lost", "drawn"
    finished_at: datetime | None


@dataclass(frozen=True)
class FriendLines:
    username: str
    in_play: list[FriendMatchLine]
    results: list[FriendResultLine]


@dataclass(frozen=True)
class FriendsPageWords:
    friends: list[FriendLines]
    following_only: list[str]
    followers_only: list[str]


def friends_page_words(page: FriendsPage) -> FriendsPageWords:
    """The page's data with each game's title and the waiting in words."""
    return FriendsPageWords(
        friends=[
            FriendLines(
                username=friend.username,
                in_play=[
                    FriendMatchLine(
                        m.match_id, get_engine(m.game).title, m.shared, WAITING_WORDS[m.waiting]
                    )
                    for m in friend.in_play
                ],
                results=[
                    FriendResultLine(r.match_id, get_engine(r.game).title, r.result, r.finished_at)
                    for r in friend.results
                ],
            )
            for friend in page.friends
        ],
        following_only=page.following_only,
        followers_only=page.followers_only,
    )

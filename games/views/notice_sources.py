"""The kinds of notice the notices page lists and the badge counts, as one list.

Each ``NoticeSource`` names its kind (an ``accounts.selectors.notify.NOTICE_*`` key: the person
turns it off with its box on the notifications page), a badge count (one query), the page's items
(constant statements however many) and the partial template that lists them: challenges and
rematch offers (docs/invitations.md), matches waiting for the person's move, finished matches
they have not seen. A further kind joins by one more entry in ``NOTICE_SOURCES``; the page, the
badge and their tests follow the list. A capability above games (``competitions``: the ladder's
results) adds its kind at start-up with ``notice_source_add``, as games never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from accounts.selectors import notify
from games.presentation.invitations import invitation_lines
from games.presentation.notices import match_notice_lines
from games.selectors.invitations import invitations_pending, invitations_pending_count
from games.selectors.notices import (
    finished_unseen,
    finished_unseen_count,
    turns_waiting,
    turns_waiting_count,
)


@dataclass(frozen=True)
class NoticeSource:
    kind: str  # an ``accounts.selectors.notify.NOTICE_KINDS`` key
    heading: str
    count: Callable[[int], int]  # user id -> the badge's share, one query
    items: Callable[[int], Any]  # user id -> what ``template`` lists (``items``), in words
    template: str  # a partial given ``items``
    empty: str  # what the page says when there is none


NOTICE_SOURCES: list[NoticeSource] = [
    NoticeSource(
        kind=notify.NOTICE_INVITATIONS,
        heading="Challenges and rematch offers",
        count=invitations_pending_count,
        items=lambda user_id: invitation_lines(invitations_pending(user_id), user_id),
        template="games/_notices_invitations.html",
        empty="No challenge or rematch offer waits for you.",
    ),
    NoticeSource(
        kind=notify.NOTICE_TURNS,
        heading="Waiting for your move",
        count=turns_waiting_count,
        items=lambda user_id: match_notice_lines(turns_waiting(user_id)),
        template="games/_notices_turns.html",
        empty="No match is waiting for your move.",
    ),
    NoticeSource(
        kind=notify.NOTICE_FINISHED,
        heading="Finished since you last looked",
        count=finished_unseen_count,
        items=lambda user_id: match_notice_lines(finished_unseen(user_id)),
        template="games/_notices_finished.html",
        empty="No finished match you have not seen.",
    ),
]


def notice_source_add(source: NoticeSource) -> None:
    """Add a kind of notice from a capability above games (in its ``AppConfig.ready``); adding
    the same kind twice keeps one."""
    if all(s.kind != source.kind for s in NOTICE_SOURCES):
        NOTICE_SOURCES.append(source)


def wanted_sources(user_id: int) -> list[NoticeSource]:
    """The sources whose box the person keeps on (one query: their settings row)."""
    chosen = notify.settings_for(user_id)
    return [s for s in NOTICE_SOURCES if getattr(chosen, notify.NOTICE_KINDS[s.kind])]


def notice_badge_count(user_id: int) -> int:
    """The badge: every wanted kind's count added up (one query for the settings, then one per
    wanted kind: five with the four kinds, the ladder's added by competitions)."""
    return sum(notice_counts(user_id).values())


def notice_counts(user_id: int) -> dict[str, int]:
    """Each wanted kind's count by its key (the badge's parts; the same queries)."""
    return {source.kind: source.count(user_id) for source in wanted_sources(user_id)}

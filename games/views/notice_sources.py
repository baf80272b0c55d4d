"""The kinds of notice the notices page lists and the badge counts, as one list.

Each ``NoticeSource`` names its kind (an ``accounts.selectors.notify.NOTICE_*`` key: the person
turns it off with its box on the notifications page), the rows its badge share counts (a query
set: every wanted kind's count is read in one statement, ``games.selectors.counts``), the
page's items (constant statements however many) and the partial template that lists them:
challenges and rematch offers (docs/invitations.md), matches waiting for the person's move,
finished matches they have not seen. A further kind joins by one more entry in
``NOTICE_SOURCES``; the page, the badge and their tests follow the list. A capability above
games (``competitions``: the ladder's results) adds its kind at start-up with
``notice_source_add``, as games never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from accounts.selectors import notify
from games.presentation.invitations import invitation_lines
from games.presentation.notices import match_notice_lines
from games.selectors.counts import counts_at_once
from games.selectors.invitations import invitations_pending, invitations_pending_rows
from games.selectors.notices import (
    finished_unseen,
    finished_unseen_rows,
    turns_waiting,
    turns_waiting_rows,
)


@dataclass(frozen=True)
class NoticeSource:
    kind: str  # an ``accounts.selectors.notify.NOTICE_KINDS`` key
    heading: str
    pending: Callable[[int], QuerySet[Any]]  # user id -> the rows the badge's share counts
    items: Callable[[int], Any]  # user id -> what ``template`` lists (``items``), in words
    template: str  # a partial given ``items``
    empty: str  # what the page says when there is none


NOTICE_SOURCES: list[NoticeSource] = [
    NoticeSource(
        kind=notify.NOTICE_INVITATIONS,
        heading="Challenges and rematch offers",
        pending=invitations_pending_rows,
        items=lambda user_id: invitation_lines(invitations_pending(user_id), user_id),
        template="games/_notices_invitations.html",
        empty="No challenge or rematch offer waits for you.",
    ),
    NoticeSource(
        kind=notify.NOTICE_TURNS,
        heading="Waiting for your move",
        pending=turns_waiting_rows,
        items=lambda user_id: match_notice_lines(turns_waiting(user_id)),
        template="games/_notices_turns.html",
        empty="No match is waiting for your move.",
    ),
    NoticeSource(
        kind=notify.NOTICE_FINISHED,
        heading="Finished since you last looked",
        pending=finished_unseen_rows,
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
    """The badge: every wanted kind's count added up (two statements however many kinds: the
    person's settings, then every wanted kind's count at once)."""
    return sum(notice_counts(user_id).values())


def notice_counts(user_id: int) -> dict[str, int]:
    """Each wanted kind's count by its key (the badge's parts; the same two statements, one
    when the person wants none)."""
    return counts_at_once({s.kind: s.pending(user_id) for s in wanted_sources(user_id)})

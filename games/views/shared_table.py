"""The table partial of a public match as its watchers see it, rendered once and shared; its
replay frames alike.

Every viewer of a public match who is not one of its members (creator, seat, invited) sees the
same ``#table`` fragment at a version, except for what the reader's own settings put in it:
their time zone (the deadline's and holidays' times), their phrase filter (muted, blocks) and,
while a deadline is shown, the minute (its "in 3 hours"). The fragment is cached under a key
holding every one of those, in the ``watchers`` cache (Redis on the full stack, so every web
node shares it; per-process memory on the embedded default). docs/live.md, "Watchers share one
render".
A replay frame seen by someone holding no seat there is the same for every such reader of a
public match (the position, the perspective, the analysis' state, the site's address): its
frames are shared too, keyed by those.

Only a running or finished public match is shared: a forming one offers a watcher "Take a
seat", a form with their own CSRF token. A fragment holding a CSRF token is never stored
(a belt to those braces), and a member's table never comes here.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import caches
from django.utils import timezone, translation

from accounts.models import NotificationSettings
from accounts.selectors.relations import blocked_ids
from games.models import Match

WATCHER_CACHE = "watchers"
logger = logging.getLogger("parlour.watchers")
SHARED_STATUSES = (Match.Status.ACTIVE, Match.Status.FINISHED)


def watcher_shareable(match: Match, user: AbstractBaseUser) -> bool:
    """Whether ``user``'s table at ``match`` may be the watchers' shared one: a public running
    or finished match, of which ``user`` is not the creator (the caller has found no seat and
    no invitation)."""
    return (
        settings.PARLOUR_WATCHER_RENDER_SECONDS > 0
        and match.public
        and match.status in SHARED_STATUSES
        and user.is_authenticated
        and match.created_by_id != user.pk
    )


def watcher_table_key(match: Match, viewer_id: int) -> str:
    """The cache key of the watchers' fragment: the match at its version and shown mark, its
    status and rating status (and its row's stamps), and everything of the reader's that the
    fragment prints."""
    parts: list[object] = [
        match.pk,
        # The row's own stamps: a match made again under the same id (a test database, a
        # restore) is another entry, and so is any write to the row a version does not count.
        match.created_at.timestamp(),
        match.updated_at.timestamp(),
        match.version,
        match.shown,
        match.status,
        match.rating_status,
        timezone.get_current_timezone_name(),
        translation.get_language(),
        _phrase_filter(match, viewer_id),
    ]
    if match.status == Match.Status.ACTIVE and match.deadline_at is not None:
        parts.append(int(time.time() // 60))  # "in 2 hours, 5 minutes" (timeuntil)
    return "parlour:watch:" + ":".join(str(p) for p in parts)


def watcher_frame_key(match: Match, *, ply: int, perspective: str, analysis: str, host: str) -> str:
    """The cache key of a replay frame as every non-member sees it: the match at its version,
    the position and perspective, the analysis' state (its marks appear once it is done) and
    the address the frame's share link prints (``host``: scheme and host) and the language it
    is worded in. Nothing else of the reader's is in a spectator's frame."""
    parts: list[object] = [
        match.pk,
        match.created_at.timestamp(),
        match.updated_at.timestamp(),
        match.version,
        match.status,
        ply,
        perspective,
        analysis,
        host,
        translation.get_language(),
    ]
    return "parlour:frame:" + ":".join(str(p) for p in parts)


def phrases_for_watchers(match: Match) -> bool:
    """Whether phrases show to the match's watchers: then each reader's phrase filter is in
    their fragment's key; else the fragment is the same for every reader of a time zone."""
    return match.phrase_count > 0 and match.phrases_watchers


def _phrase_filter(match: Match, viewer_id: int) -> str:
    """What of the reader decides which phrases they see (``phrases_visible``): nothing while
    none may show to watchers; else the mute box, and the people a block stands between
    them and (hashed). Two queries, only at a match whose watchers see phrases."""
    if not phrases_for_watchers(match):
        return "-"
    if NotificationSettings.objects.filter(user_id=viewer_id, mute_phrases=True).exists():
        return "muted"
    hidden = sorted(blocked_ids(viewer_id))
    if not hidden:
        return "all"
    return hashlib.sha256(",".join(map(str, hidden)).encode()).hexdigest()[:16]


def watcher_table(key: str, render: Callable[[], bytes | None]) -> bytes | None:
    """The fragment (a table, a replay frame) under ``key``, rendered by ``render`` only when
    not stored yet. ``render`` answers ``None`` when it found the reader to be a member after
    all (nothing stored); a fragment holding a CSRF token is served to its reader and never
    stored."""
    cache = caches[WATCHER_CACHE]
    try:
        content = cache.get(key)
    except Exception as exc:  # the cache down (Redis): each watcher renders their own
        logger.warning("watchers' cache unreadable (%s): rendering", type(exc).__name__)
        return render()
    if content is not None:
        return content
    content = render()
    if content is None or b"csrfmiddlewaretoken" in content:
        return content
    try:
        cache.set(key, content, settings.PARLOUR_WATCHER_RENDER_SECONDS)
    except Exception as exc:
        logger.warning("watchers' cache unwritable (%s)", type(exc).__name__)
    return content

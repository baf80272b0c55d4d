"""The streams of a process, indexed by the match each shows and by its person: the one index
both hubs keep (Redis's, games/live/hub.py, and the local socket's, games/live/local.py).

A stream registers its listener when it starts and is forgotten when it ends, leaving no empty
group behind; a message asks whom it concerns (a match's listeners, some people's). The local
hub's reader thread and its streams share the index, so every read and change holds its lock
(uncontended, and so cheap, in the Redis hub's one event loop).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable
from typing import Generic, Protocol, TypeVar


class Indexed(Protocol):
    """What the index reads of a listener: the match it shows (``None``: badge only) and its
    person."""

    match_id: int | None
    user_id: int


ListenerT = TypeVar("ListenerT", bound=Indexed)


class StreamIndex(Generic[ListenerT]):
    """A process's listeners by match and by person."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.by_match: dict[int, set[ListenerT]] = defaultdict(set)
        self.by_user: dict[int, set[ListenerT]] = defaultdict(set)

    def add(self, listener: ListenerT) -> ListenerT:
        with self.lock:
            if listener.match_id is not None:
                self.by_match[listener.match_id].add(listener)
            self.by_user[listener.user_id].add(listener)
        return listener

    def forget(self, listener: ListenerT) -> None:
        pairs = ((self.by_match, listener.match_id), (self.by_user, listener.user_id))
        with self.lock:
            for index, key in pairs:
                if key is None:
                    continue
                group = index.get(key)
                if group is not None:
                    group.discard(listener)
                    if not group:
                        del index[key]

    def of_match(self, match_id: int) -> list[ListenerT]:
        """The listeners showing ``match_id``."""
        with self.lock:
            return list(self.by_match.get(match_id, ()))

    def of_users(self, user_ids: Iterable[int]) -> list[ListenerT]:
        """The listeners of these people (a badge to recount)."""
        with self.lock:
            return [listener for u in user_ids for listener in self.by_user.get(u, ())]

    def everyone(self) -> list[ListenerT]:
        """Every listener (the hub going down ends them all)."""
        with self.lock:
            return [listener for group in self.by_user.values() for listener in group]

    def watching(self, match_id: int) -> int:
        """How many listeners show ``match_id``."""
        with self.lock:
            return len(self.by_match.get(match_id, ()))

    def __len__(self) -> int:
        """How many streams: every listener has a person."""
        with self.lock:
            return sum(len(group) for group in self.by_user.values())

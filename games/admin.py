"""The admin: a read-only window on matches and their move logs.

Matches and moves are written only by the services (games/services), which keep the hash
chain, the snapshot and the version in step (docs/storage.md); a row edited or added by hand
would break the match's record. So the admin can look and delete a match, nothing more. While
a match is not finished, what its seats may not see stays out of the admin too: the seed, the
salt, the options (a fixed deck among them), the snapshot (every hand, the pack order) and the
unredacted events.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Match, Move, Seat

# Fields that reveal hidden cards or the seed before the match is over (docs/records.md).
MATCH_SECRET_FIELDS = ("seed", "salt", "state", "start_events", "options")
MOVE_SECRET_FIELDS = ("events",)


def _finished(match: Match | None) -> bool:
    return match is not None and match.status == Match.Status.FINISHED


class ReadOnlyAdmin(admin.ModelAdmin):
    """View (and, where allowed, delete) only: the services own every write."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "num_players", "status", "version", "created_by", "updated_at")
    list_filter = ("game", "status")
    search_fields = ("id", "created_by__username", "seats__user__username")
    inlines = [SeatInline]

    def get_fields(self, request: HttpRequest, obj: Match | None = None) -> list[str]:
        fields = list(super().get_fields(request, obj))
        if _finished(obj):
            return fields
        return [name for name in fields if name not in MATCH_SECRET_FIELDS]


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("match", "ply", "seat", "payload", "created_at")
    list_filter = ("match__game",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log is append-only: a gap would break the hash chain

    def get_fields(self, request: HttpRequest, obj: Move | None = None) -> list[str]:
        fields = list(super().get_fields(request, obj))
        if obj is not None and _finished(obj.match):
            return fields
        return [name for name in fields if name not in MOVE_SECRET_FIELDS]

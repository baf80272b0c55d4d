from django.contrib import admin

from games.models import Match, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "num_players", "status", "version", "created_by", "updated_at")
    list_filter = ("game", "status")
    search_fields = ("id", "created_by__username", "seats__user__username")
    readonly_fields = (
        "state",
        "start_events",
        "seed",
        "version",
        "ply",
        "head_hash",
        "invite_token",
    )
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("match", "ply", "seat", "payload", "created_at")
    list_filter = ("match__game",)
    readonly_fields = ("match", "ply", "seat", "payload", "events", "chain_hash", "created_at")

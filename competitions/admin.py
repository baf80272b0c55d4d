"""The admin: staff make leagues here (the one way to make one: docs/competitions.md). A league
can be changed or deleted only while it is open; once it starts its rows are the services'
(the draw, the tables, the matches), and the admin only shows them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from competitions.forms import LeagueForm
from competitions.models import Entry, Event


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("user", "entered_at", "withdrawn", "withdrawn_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    form = LeagueForm
    list_display = ("name", "game", "seats", "circle_size", "circles", "status", "ends_at")
    list_filter = ("status", "game")
    readonly_fields = ("status", "started_at", "ends_at", "finished_at", "created_by")
    inlines = [EntryInline]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or obj.status == Event.Status.OPEN)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or obj.status == Event.Status.OPEN)

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

"""The admin: staff make leagues and recurring cups here (the one way to make either:
docs/competitions.md). A league can be changed or deleted only while it is open; once it starts
its rows are the services' (the draw, the tables, the matches), and the admin only shows them.
A cup series is changed freely (its next occurrence copies it when made); its occurrences are
the cups' sweep's and are only shown."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from competitions.forms import CupSeriesForm, LeagueForm
from competitions.models import CupSeries, Entry, Event


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

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).filter(kind=Event.Kind.LEAGUE)

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


class OccurrenceInline(admin.TabularInline):
    model = Event
    fk_name = "series"
    fields = ("name", "status", "starts_at", "started_at", "ends_at", "round", "rounds")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(CupSeries)
class CupSeriesAdmin(admin.ModelAdmin):
    form = CupSeriesForm
    list_display = ("name", "game", "seats", "rounds", "places_most", "weekday", "active")
    list_filter = ("active", "game")
    inlines = [OccurrenceInline]

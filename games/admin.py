"""Admin for games, seats and the event log. Events are append-only, so the
admin shows them but cannot add, change or delete them; game state is
written only by games.services, so it is read-only here too."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Deadline, Game, GameEvent, Seat


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    can_delete = False
    fields = ("number", "user", "bot_kind", "status", "final_rank", "final_net_worth", "taken_over")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("public_id", "preset", "status", "is_public", "version", "host", "created_at")
    list_filter = ("status", "is_public", "preset")
    search_fields = ("public_id", "host__username")
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    readonly_fields = (
        "public_id",
        "status",
        "version",
        "seed",
        "state",
        "started_at",
        "finished_at",
        "end_reason",
    )
    list_select_related = ("host",)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("game", "number", "user", "bot_kind", "status", "final_rank", "timeouts_total")
    list_filter = ("status", "bot_kind")
    search_fields = ("game__public_id", "user__username")
    list_select_related = ("game", "user")
    readonly_fields = ("game", "number", "status", "final_rank", "final_net_worth")


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("game", "seq", "index", "kind", "audience_seat", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__public_id",)
    list_select_related = ("game",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Deadline)
class DeadlineAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("game", "player", "kind", "due_at", "version")
    list_select_related = ("game",)
    readonly_fields = ("game", "player", "kind", "ref", "version", "started_at", "due_at")

"""Admin for games, seats, deadlines and the event log: for looking, not
editing. Only ``games.services`` writes these rows (in one transaction with
the version, the events, the deadlines and the broadcast), so an edit here
would leave a game that its own record contradicts; the admin can view them
and delete a game that is not rated (through ``services.delete_game``),
nothing else.

What the admin never shows: the seed and any secret behind the dice (the
players' seeds too, which make the dice key with the secret), the engine state (it holds the dice generator's position), and the invite token
(a private game's key).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games import services
from games.models import Deadline, Game, GameEvent, Seat

HIDDEN = ("seed", "secret", "seeds", "state", "invite_token")


class ViewOnly:
    """Rows written only by the services: no adding or changing here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ViewOnly, admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    can_delete = False
    fields = ("number", "user", "bot_kind", "status", "final_rank", "final_net_worth", "taken_over")
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(ViewOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("public_id", "preset", "status", "is_public", "version", "host", "created_at")
    list_filter = ("status", "is_public", "preset")
    search_fields = ("public_id", "host__username")
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    list_select_related = ("host",)

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # Fields added later (the dice's secret) are hidden by name here.
        names = {field.name for field in Game._meta.get_fields()}
        return [name for name in HIDDEN if name in names]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.rating_changes.exists():
            return False  # services.delete_game would refuse it
        return super().has_delete_permission(request, obj)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # Its seats, events and deadlines go with the game, though none of
        # them may be deleted on its own here.
        deleted, counts, _, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected

    def delete_model(self, request: HttpRequest, obj: Game) -> None:
        self.delete_queryset(request, Game.objects.filter(pk=obj.pk))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            try:
                services.delete_game(game_pk=game.pk)
            except services.GameError as exc:
                self.message_user(request, f"{game.public_id}: {exc.message}", messages.ERROR)


@admin.register(Seat)
class SeatAdmin(ViewOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("game", "number", "user", "bot_kind", "status", "final_rank", "timeouts_total")
    list_filter = ("status", "bot_kind")
    search_fields = ("game__public_id", "user__username")
    list_select_related = ("game", "user")
    exclude = ("seed",)  # the player's dice seed: theirs until the game ends

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a seat leaves through the services (or with its game)


@admin.register(GameEvent)
class GameEventAdmin(ViewOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("game", "seq", "index", "kind", "audience_seat", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__public_id",)
    list_select_related = ("game",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Deadline)
class DeadlineAdmin(ViewOnly, admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("game", "player", "kind", "due_at", "version")
    list_select_related = ("game",)

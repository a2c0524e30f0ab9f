from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from ratings.models import PlayerRating, RatingChange

# ModelAdmin is generic only in django-stubs (a dev dependency): subscripting
# it at runtime would need django_stubs_ext's monkeypatch in production.
if TYPE_CHECKING:
    PlayerRatingAdminBase = admin.ModelAdmin[PlayerRating]
    RatingChangeAdminBase = admin.ModelAdmin[RatingChange]
else:
    PlayerRatingAdminBase = RatingChangeAdminBase = admin.ModelAdmin


@admin.register(PlayerRating)
class PlayerRatingAdmin(PlayerRatingAdminBase):
    list_display = ("user", "pool", "shown", "mu", "sigma", "games", "last_game_at")
    list_filter = ("pool",)
    search_fields = ("user__username",)
    list_select_related = ("user",)

    # Ratings are written only by ratings.services, from finished games.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: PlayerRating | None = None) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(RatingChangeAdminBase):
    list_display = ("user", "game", "pool", "rank", "before", "after", "created_at")
    list_select_related = ("user", "game")

    def has_change_permission(self, request: HttpRequest, obj: RatingChange | None = None) -> bool:
        return False

from django.contrib import admin

from ratings.models import PlayerRating, RatingChange


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "pool", "shown", "mu", "sigma", "games", "last_game_at")
    list_filter = ("pool",)
    search_fields = ("user__username",)
    list_select_related = ("user",)

    # Ratings are written only by ratings.services, from finished games.
    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "game", "pool", "rank", "before", "after", "created_at")
    list_select_related = ("user", "game")

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

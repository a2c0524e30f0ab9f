from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.models import User
from games.writeguard import writes_allowed

# Deleting an account clears the host of the games it created (on_delete=
# SET_NULL, carried out by Django); its seats keep it (PROTECT).
HOSTS_CLEARED = "a deleted account's games lose their host (on_delete=SET_NULL)"


@admin.register(User)
class SiteUserAdmin(UserAdmin):  # type: ignore[type-arg]
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Site", {"fields": ("display_name", "email_notifications", "time_zone")}),
    )
    list_display = ("username", "email", "display_name", "date_joined", "is_staff")

    def delete_model(self, request: HttpRequest, obj: User) -> None:
        with writes_allowed(HOSTS_CLEARED):
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        with writes_allowed(HOSTS_CLEARED):
            super().delete_queryset(request, queryset)

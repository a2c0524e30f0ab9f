from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class SiteUserAdmin(UserAdmin):  # type: ignore[type-arg]
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Site", {"fields": ("display_name", "email_notifications", "time_zone")}),
    )
    list_display = ("username", "email", "display_name", "date_joined", "is_staff")

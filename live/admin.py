from django.contrib import admin

from live.models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """For moderation: find and remove messages."""

    list_display = ["created_at", "game", "room", "author", "body"]
    list_filter = ["room"]
    search_fields = ["body", "author__username", "game__public_id"]
    raw_id_fields = ["game", "author"]

    # Posted only through live.chat (which pushes it to the right sockets):
    # moderators remove messages, they do not write or rewrite them.
    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

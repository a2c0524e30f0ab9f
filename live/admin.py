from django.contrib import admin

from live.models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """For moderation: find and remove messages."""

    list_display = ["created_at", "game", "room", "author", "body"]
    list_filter = ["room"]
    search_fields = ["body", "author__username", "game__public_id"]
    raw_id_fields = ["game", "author"]

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from live.models import ChatMessage

# ModelAdmin is generic only in django-stubs (a dev dependency): subscripting
# it at runtime would need django_stubs_ext's monkeypatch in production.
if TYPE_CHECKING:
    ChatMessageAdminBase = admin.ModelAdmin[ChatMessage]
else:
    ChatMessageAdminBase = admin.ModelAdmin


@admin.register(ChatMessage)
class ChatMessageAdmin(ChatMessageAdminBase):
    """For moderation: find and remove messages."""

    list_display = ["created_at", "game", "room", "author", "body"]
    list_filter = ["room"]
    search_fields = ["body", "author__username", "game__public_id"]
    raw_id_fields = ["game", "author"]

    # Posted only through live.chat (which pushes it to the right sockets):
    # moderators remove messages, they do not write or rewrite them.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ChatMessage | None = None) -> bool:
        return False

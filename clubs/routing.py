"""The club chat's WebSocket route (monopoly_site/routing.py serves it)."""

from __future__ import annotations

from django.urls import path

from clubs import consumers

websocket_urlpatterns = [
    path("ws/clubs/<str:slug>/chat", consumers.ClubChatConsumer.as_asgi()),
]

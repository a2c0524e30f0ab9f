"""The inbox's WebSocket routes (monopoly_site/routing.py serves them)."""

from __future__ import annotations

from django.urls import path

from social import consumers

websocket_urlpatterns = [
    path("ws/inbox/", consumers.InboxConsumer.as_asgi()),
    path("ws/inbox/<str:username>/", consumers.InboxConsumer.as_asgi()),
]

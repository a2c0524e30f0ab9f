"""The tournament pages' WebSocket route (monopoly_site/routing.py serves it)."""

from __future__ import annotations

from django.urls import path

from tournaments import consumers

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", consumers.TournamentConsumer.as_asgi()),
]

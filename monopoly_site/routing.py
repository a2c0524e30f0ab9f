"""WebSocket routes of every app."""

from __future__ import annotations

from typing import Any

from games.routing import websocket_urlpatterns as game_routes

websocket_urlpatterns: list[Any] = [*game_routes]

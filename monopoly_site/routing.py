"""WebSocket routes; the live-updates work adds the game consumers here."""

from __future__ import annotations

from typing import Any

websocket_urlpatterns: list[Any] = []

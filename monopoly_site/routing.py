"""WebSocket routes of every app."""

from __future__ import annotations

from typing import Any, cast

from django.urls import re_path

from live.routing import websocket_urlpatterns as game_routes
from monopoly_site.badinput import refuse_socket
from social.routing import websocket_urlpatterns as inbox_routes
from tournaments.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns: list[Any] = [*game_routes, *inbox_routes, *tournament_routes]

# Last in the server's router (monopoly_site/asgi.py): an address no route
# matches has its handshake refused. Channels' router raises instead, which
# the server logs as an error in the application for any junk address.
NO_ROUTE = re_path(r"", cast(Any, refuse_socket))  # an ASGI app, not the view Django's stubs expect

"""WebSocket routes of every app, and the HTTP routes served before Django."""

from __future__ import annotations

from typing import Any, cast

from django.urls import path, re_path

from api.stream import StreamConsumer
from clubs.routing import websocket_urlpatterns as club_routes
from live.routing import websocket_urlpatterns as game_routes
from monopoly_site.badinput import refuse_socket
from social.routing import websocket_urlpatterns as inbox_routes
from tournaments.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns: list[Any] = [*game_routes, *inbox_routes, *tournament_routes, *club_routes]

# Last in the server's router (monopoly_site/asgi.py): an address no route
# matches has its handshake refused. Channels' router raises instead, which
# the server logs as an error in the application for any junk address.
NO_ROUTE = re_path(r"", cast(Any, refuse_socket))  # an ASGI app, not the view Django's stubs expect

# The API's NDJSON streams, a consumer (api/stream.py says why); every other
# request goes on to Django (monopoly_site/asgi.py).
_stream = StreamConsumer.as_asgi()
stream_urlpatterns = [
    path("api/v1/games/<str:game_id>/stream", cast(Any, _stream)),
    path("api/v1/stream/events", cast(Any, _stream)),
]

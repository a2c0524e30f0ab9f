from __future__ import annotations

from django.urls import path, re_path

from live import consumers

websocket_urlpatterns = [
    path("ws/games/<str:public_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/games/<str:public_id>/waiting/", consumers.WaitingConsumer.as_asgi()),
    re_path(r"^ws/(?P<room>lobby|watch)/$", consumers.LobbyConsumer.as_asgi()),
]

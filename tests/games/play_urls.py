"""The play page's URLs ahead of the lead's wiring, then the whole site."""

from __future__ import annotations

from django.urls import include, path

from games.web import play_views

urlpatterns = [
    path("games/<str:public_id>/", play_views.game_page, name="test_game_page"),
    path("games/<str:public_id>/act", play_views.game_act, name="test_game_act"),
    path("games/<str:public_id>/resign", play_views.game_resign, name="test_game_resign"),
    path("games/<str:public_id>/regions", play_views.game_regions, name="test_game_regions"),
    path("", include("monopoly_site.urls")),
]

from django.urls import path

from games import views

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("watch/", views.watch, name="watch"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]

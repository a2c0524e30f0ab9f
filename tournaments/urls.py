from __future__ import annotations

from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new", views.tournament_new, name="tournament_new"),
    path("<int:tournament_id>/", views.tournament_detail, name="tournament"),
    path("<int:tournament_id>/join", views.join, name="tournament_join"),
    path("<int:tournament_id>/withdraw", views.withdraw, name="tournament_withdraw"),
]

"""Private messages (one conversation per pair of people)."""

from __future__ import annotations

from django.urls import URLPattern, path

from social import views

urlpatterns: list[URLPattern] = [
    path("inbox/", views.inbox, name="inbox"),
    path("inbox/<str:username>/", views.conversation, name="conversation"),
]

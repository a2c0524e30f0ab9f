"""The club pages and POSTs (``monopoly_site/urls.py`` includes them)."""

from __future__ import annotations

from django.urls import URLPattern, path

from clubs import chat_views, views

urlpatterns: list[URLPattern] = [
    path("clubs/", views.club_list, name="club_list"),
    path("clubs/new", views.create, name="club_create"),
    path("clubs/<slug:slug>/", views.club_page, name="club"),
    path("clubs/<slug:slug>/join", views.join, name="club_join"),
    path("clubs/<slug:slug>/leave", views.leave, name="club_leave"),
    path("clubs/<slug:slug>/invitation", views.invitation, name="club_invitation"),
    path("clubs/<slug:slug>/edit", views.edit, name="club_edit"),
    path("clubs/<slug:slug>/invite", views.invite, name="club_invite"),
    path(
        "clubs/<slug:slug>/people/<str:username>/<str:action>",
        views.member_action,
        name="club_member_action",
    ),
    path("clubs/<slug:slug>/chat", chat_views.post_line, name="club_chat_post"),
    path(
        "clubs/<slug:slug>/chat/<int:line_id>/delete",
        chat_views.delete_line,
        name="club_chat_delete",
    ),
    path(
        "clubs/<slug:slug>/chat/<int:line_id>/report",
        chat_views.report_line,
        name="club_chat_report",
    ),
]

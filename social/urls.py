"""Private messages (one conversation per pair of people), reports and the
moderation queue."""

from __future__ import annotations

from django.urls import URLPattern, path

from social import friends_views, mod_views, people_views, privacy_views, views

urlpatterns: list[URLPattern] = [
    path("inbox/", views.inbox, name="inbox"),
    path("inbox/<str:username>/", views.conversation, name="conversation"),
    path("u/<str:username>/follow", people_views.follow, name="follow"),
    path("u/<str:username>/unfollow", people_views.unfollow, name="unfollow"),
    path("u/<str:username>/bell", people_views.bell, name="bell"),
    path("u/<str:username>/block", people_views.block, name="block"),
    path("u/<str:username>/unblock", people_views.unblock, name="unblock"),
    path("u/<str:username>/mute", people_views.mute, name="mute"),
    path("u/<str:username>/unmute", people_views.unmute, name="unmute"),
    path("friends/", friends_views.friends, name="friends"),
    path("friends/panel", friends_views.friends_panel, name="friends_panel"),
    path("settings/privacy", privacy_views.privacy, name="privacy_settings"),
    path("u/<str:username>/report", mod_views.report, name="report_user"),
    path("mod/", mod_views.queue, name="mod_queue"),
    path("mod/cases/<int:case_id>/", mod_views.case_page, name="mod_case"),
    path("mod/cases/<int:case_id>/claim", mod_views.claim, name="mod_claim"),
    path("mod/cases/<int:case_id>/act", mod_views.act, name="mod_act"),
    path("mod/cases/<int:case_id>/release", mod_views.release, name="mod_release"),
    path("mod/people/<str:username>/lift", mod_views.lift, name="mod_lift"),
]

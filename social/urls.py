"""Private messages (one conversation per pair of people), reports and the
moderation queue."""

from __future__ import annotations

from django.urls import URLPattern, path

from social import views

urlpatterns: list[URLPattern] = [
    path("u/<str:username>/report", views.report, name="report_user"),
    path("mod/", views.queue, name="mod_queue"),
    path("mod/cases/<int:case_id>/", views.case_page, name="mod_case"),
    path("mod/cases/<int:case_id>/claim", views.claim, name="mod_claim"),
    path("mod/cases/<int:case_id>/act", views.act, name="mod_act"),
]

"""The settings page's token section posts here."""

from django.urls import path

from api import views

urlpatterns = [
    path("settings/api-tokens/new", views.create_token, name="api_token_create"),
    path("settings/api-tokens/<int:token_id>/revoke", views.revoke_token, name="api_token_revoke"),
]

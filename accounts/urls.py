from django.urls import path

from accounts import views

urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
    path("settings/", views.settings_view, name="settings"),
    path("settings/bot-account", views.bot_account, name="bot_account"),
]

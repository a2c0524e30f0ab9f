from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.adapter import SignupView
from accounts.login_limits import AdminLoginForm
from monopoly_site import fair_dice, views
from ratings import views as rating_views

# A lost database or Redis connection anywhere in a request is a 503.
handler500 = "common.unavailable.server_error"

# The admin's login counts failures with the site's (accounts/login_limits.py).
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("", views.home, name="home"),
    path("api/v1/", include("api.urls")),
    path("healthz", views.healthz, name="healthz"),
    path("status/", views.status, name="status"),
    path("fair-dice/", views.fair_dice, name="fair_dice"),
    path("fair-dice/verify", fair_dice.verify, name="fair_dice_verify"),
    path("admin/", admin.site.urls),
    # allauth's, telling the loser of a race for a name why (accounts/adapter.py).
    path("accounts/signup/", SignupView.as_view()),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("api.settings_urls")),
    path("", include("games.urls")),
    path("", include("notifications.urls")),
    path("", include("live.urls")),
    path("", include("social.urls")),
    path("leaderboard/", rating_views.leaderboard, name="leaderboard"),
    path("leaderboard/ratings/", rating_views.ratings_explained, name="ratings_explained"),
    path("tournaments/", include("tournaments.urls")),
]

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import User, valid_zone

# Set by static/js/site.js from the browser's own zone (Intl API).
COOKIE = "tz"


class UserTimezoneMiddleware:
    """Render times in the viewer's zone: the one chosen in their settings,
    else the one their browser reports (remembered on the account, so that
    emails and the digest use it too), else UTC."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = zone_for(request)
        if name:
            timezone.activate(zoneinfo.ZoneInfo(name))
        else:
            timezone.deactivate()
        return self.get_response(request)


def zone_for(request: HttpRequest) -> str | None:
    browser = valid_zone(request.COOKIES.get(COOKIE))
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return browser
    chosen = valid_zone(user.time_zone)
    if chosen:
        return chosen
    if browser and browser != user.browser_time_zone:
        User.objects.filter(pk=user.pk).update(browser_time_zone=browser)
        user.browser_time_zone = browser
    return browser or valid_zone(user.browser_time_zone)

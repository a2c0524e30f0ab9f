from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from notifications import push, services
from notifications.models import Notification


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    notes = Notification.objects.filter(user=user).select_related("game")[:100]
    context = {
        "notifications": notes,
        "now": timezone.now(),
        "push_key": settings.VAPID_PUBLIC_KEY if push.enabled() else "",
        "push_devices": list(user.push_subscriptions.order_by("-created_at")),
    }
    return render(request, "notifications/list.html", context)


@login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    services.mark_all_read(request.user)
    return redirect("notifications")


def _json(request: HttpRequest) -> Any:
    if request.content_type != "application/json":
        raise push.PushError("Send the subscription as JSON.")
    if len(request.body) > 4096:
        raise push.PushError("The subscription is too large.")
    try:
        return json.loads(request.body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise push.PushError("Send the subscription as JSON.") from None


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """The device's ``PushSubscription.toJSON()``, from static/js/push.js."""
    try:
        push.subscribe(request.user, _json(request), request.headers.get("User-Agent", ""))
    except push.PushError as exc:
        return JsonResponse({"error": exc.message}, status=400)
    return JsonResponse({"ok": True}, status=201)


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest) -> JsonResponse:
    try:
        data = _json(request)
    except push.PushError as exc:
        return JsonResponse({"error": exc.message}, status=400)
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    if not isinstance(endpoint, str):
        return JsonResponse({"error": "Say which subscription to remove."}, status=400)
    return JsonResponse({"removed": push.unsubscribe(request.user, endpoint)})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js at the site's root, so that it may show notifications
    for every page (a worker's scope is its own path)."""
    path = finders.find("js/sw.js")
    assert isinstance(path, str)
    with open(path, encoding="utf-8") as f:
        response = HttpResponse(f.read(), content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    return response

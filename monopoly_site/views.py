from __future__ import annotations

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from live.watch import home_games
from monopoly_site.tasks import HEARTBEAT_KEY


def _check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down" to a load balancer
        return f"error: {exc.__class__.__name__}"
    return "ok"


def _check_redis() -> tuple[str, str | None]:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    except redis.RedisError as exc:
        return f"error: {exc.__class__.__name__}", None
    finally:
        client.close()
    try:
        heartbeat = cache.get(HEARTBEAT_KEY)
    except redis.RedisError:
        heartbeat = None
    return "ok", heartbeat


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    database = _check_database()
    redis_status, heartbeat = _check_redis()
    worker_age: float | None = None
    if heartbeat:
        stamp = parse_datetime(heartbeat)
        if stamp is not None:
            worker_age = round((timezone.now() - stamp).total_seconds(), 1)
    healthy = database == "ok" and redis_status == "ok"
    body = {
        "status": "ok" if healthy else "error",
        "database": database,
        "redis": redis_status,
        "worker_heartbeat_seconds_ago": worker_age,
    }
    return JsonResponse(body, status=200 if healthy else 503)


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    return render(request, "home.html", {"live_games": home_games()})


@require_GET
def fair_dice(request: HttpRequest) -> HttpResponse:
    return render(request, "fair_dice.html")

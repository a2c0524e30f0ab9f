from __future__ import annotations

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
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


def _health() -> tuple[bool, dict[str, object]]:
    database = _check_database()
    redis_status, heartbeat = _check_redis()
    worker_age: float | None = None
    if heartbeat:
        stamp = parse_datetime(heartbeat)
        if stamp is not None:
            worker_age = round((timezone.now() - stamp).total_seconds(), 1)
    healthy = database == "ok" and redis_status == "ok"
    return healthy, {
        "status": "ok" if healthy else "error",
        "database": database,
        "redis": redis_status,
        "worker_heartbeat_seconds_ago": worker_age,
    }


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers and monitors; people read /status/."""
    healthy, body = _health()
    return JsonResponse(body, status=200 if healthy else 503)


# Beat has a worker record its heartbeat every 30 s (monopoly_site.tasks): older
# than this, timers and bots are late.
WORKER_LATE_SECONDS = 180


@require_GET
@never_cache
def status(request: HttpRequest) -> HttpResponse:
    """The footer's Status link: what /healthz says, in words."""
    healthy, body = _health()
    age = body["worker_heartbeat_seconds_ago"]
    worker_ok = isinstance(age, float) and age <= WORKER_LATE_SECONDS
    rows = [
        (_("Database"), body["database"] == "ok", _("Games and accounts are stored.")),
        (_("Redis"), body["redis"] == "ok", _("Live updates, timers and bot moves are delivered.")),
        (
            _("Timers and bots"),
            worker_ok,
            _("A worker answered %(seconds)s seconds ago.") % {"seconds": round(age)}
            if isinstance(age, float)
            else _("No worker has answered yet."),
        ),
    ]
    context = {"healthy": healthy and worker_ok, "rows": rows}
    return render(request, "status.html", context, status=200 if healthy else 503)


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    return render(request, "home.html", {"live_games": home_games()})


@require_GET
def fair_dice(request: HttpRequest) -> HttpResponse:
    return render(request, "fair_dice.html")

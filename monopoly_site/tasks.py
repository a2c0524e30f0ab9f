"""Site-wide periodic tasks."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

HEARTBEAT_KEY = "worker:heartbeat"


@shared_task
def heartbeat() -> str:
    """Record that a worker is alive; /healthz reports how long ago it ran."""
    stamp = timezone.now().isoformat()
    cache.set(HEARTBEAT_KEY, stamp, timeout=None)
    return stamp

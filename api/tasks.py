"""The API's beat task: idempotency keys are kept for a retention period
(``API_IDEMPOTENCY_RETENTION_HOURS``), long enough for any client's
retries, then deleted, so the table does not grow with every keyed POST."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from api.models import IdempotentAnswer


def sweep_idempotent_answers() -> int:
    """Delete the keys older than the retention period; how many went."""
    cutoff = timezone.now() - timedelta(hours=settings.API_IDEMPOTENCY_RETENTION_HOURS)
    deleted, _ = IdempotentAnswer.objects.filter(created_at__lt=cutoff).delete()
    return deleted


@shared_task(ignore_result=True)
def sweep_idempotency_keys() -> int:
    return sweep_idempotent_answers()

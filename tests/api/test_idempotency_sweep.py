"""Idempotency keys are deleted by beat's sweep after their retention."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from api.models import IdempotentAnswer
from api.tasks import sweep_idempotency_keys


def test_keys_past_their_retention_are_swept_and_recent_ones_kept(
    alice: User, settings: Any
) -> None:
    settings.API_IDEMPOTENCY_RETENTION_HOURS = 24
    old = IdempotentAnswer.objects.create(
        user=alice, key="old", game_public_id="g", fingerprint="f"
    )
    new = IdempotentAnswer.objects.create(
        user=alice, key="new", game_public_id="g", fingerprint="f"
    )
    IdempotentAnswer.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(hours=24, minutes=1)
    )
    assert sweep_idempotency_keys() == 1
    assert list(IdempotentAnswer.objects.values_list("pk", flat=True)) == [new.pk]


def test_beat_runs_the_sweep() -> None:
    entries = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "api.tasks.sweep_idempotency_keys" in entries

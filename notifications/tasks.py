"""Notification tasks: primary keys in, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from notifications import decisions


@shared_task(ignore_result=True)
def notify_your_turn(game_id: int, version: int) -> int:
    return decisions.your_turn(game_id, version)


@shared_task(ignore_result=True)
def send_reminder(deadline_id: int) -> bool:
    return decisions.reminder(deadline_id)


@shared_task(ignore_result=True)
def send_digests() -> int:
    from accounts.models import User

    return sum(decisions.digest(u) for u in User.objects.filter(notify_digest=True, is_active=True))

"""Notification tasks: primary keys in, safe to run twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from games.services import timers
from notifications import decisions, services


@shared_task(ignore_result=True)
def notify_your_turn(game_id: int, version: int | None = None) -> int:
    """``version`` is ignored: tasks queued before the notices came from
    the deadline rows carried it."""
    return decisions.your_turn(game_id)


@shared_task(ignore_result=True)
def send_reminder(deadline_id: int) -> bool:
    return decisions.reminder(deadline_id)


@shared_task(ignore_result=True)
def send_digests() -> int:
    """Digests for the users whose local time is now in ``DIGEST_HOUR``
    (beat runs this every quarter hour; the per-day key stops repeats)."""
    from django.conf import settings
    from django.db.models import Q
    from django.utils import timezone

    from accounts.models import User

    now = timezone.now()
    zones = decisions.digest_due_zones(now, settings.DIGEST_HOUR)
    users = User.objects.filter(notify_digest=True, is_active=True).filter(
        Q(time_zone__in=zones) | Q(time_zone="", browser_time_zone__in=zones)
    )
    return sum(decisions.digest(u, now) for u in users.iterator())


@shared_task(ignore_result=True)
def sweep_notices() -> int:
    """Beat's sweep beside the timers' one: enqueue the due reminders, the
    turn notices not yet raised (of players away: those still at the game
    are put off here) and the "your move" emails whose reader has been away
    long enough (each marked in the cache for a few sweeps, so a slow task
    is not queued again). Returns how many it queued."""
    ttl = max(5, 3 * settings.TIMER_SWEEP_SECONDS)
    due: list[tuple[str, list[int], Any]] = [
        ("timers:remind", timers.reminders_due(), send_reminder),
        # Players still at the game are put off here, with no task.
        ("timers:notice", decisions.look_at_present(timers.turn_notices_due()), notify_your_turn),
        ("notices:lead", services.lead_reminders_due(), send_lead_reminder),
        ("notices:email", services.turn_emails_due(), send_turn_email),
    ]
    queued = 0
    for mark, ids, task in due:
        for pk in ids:
            if cache.add(f"{mark}:{pk}", 1, timeout=ttl):
                task.delay(pk)
                queued += 1
    return queued


@shared_task(ignore_result=True)
def send_lead_reminder(reminder_id: int) -> bool:
    return decisions.lead_reminder(reminder_id)


@shared_task(ignore_result=True)
def send_turn_email(note_id: int) -> bool:
    return decisions.turn_email(note_id)

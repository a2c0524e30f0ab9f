"""Notification tasks: primary keys in, safe to run twice."""

from __future__ import annotations

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
    turn notices not yet raised and the "your move" emails whose reader has
    been away long enough (each marked in the cache for a few sweeps, so a
    slow task is not queued again). Returns how many it queued."""
    ttl = max(5, 3 * settings.TIMER_SWEEP_SECONDS)
    queued = 0
    for deadline_id in timers.reminders_due():
        if cache.add(f"timers:remind:{deadline_id}", 1, timeout=ttl):
            send_reminder.delay(deadline_id)
            queued += 1
    for game_id in timers.turn_notices_due():
        if cache.add(f"timers:notice:{game_id}", 1, timeout=ttl):
            notify_your_turn.delay(game_id)
            queued += 1
    for reminder_id in services.lead_reminders_due():
        if cache.add(f"notices:lead:{reminder_id}", 1, timeout=ttl):
            send_lead_reminder.delay(reminder_id)
            queued += 1
    for note_id in services.turn_emails_due():
        if cache.add(f"notices:email:{note_id}", 1, timeout=ttl):
            send_turn_email.delay(note_id)
            queued += 1
    return queued


@shared_task(ignore_result=True)
def send_lead_reminder(reminder_id: int) -> bool:
    return decisions.lead_reminder(reminder_id)


@shared_task(ignore_result=True)
def send_turn_email(note_id: int) -> bool:
    return decisions.turn_email(note_id)

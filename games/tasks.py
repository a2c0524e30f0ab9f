"""Celery tasks: they take primary keys and the version they expect."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from games import services
from games.services import timers


@shared_task(ignore_result=True)
def play_bot_move(game_id: int, expected_version: int) -> bool:
    # A stale task (the game moved on) does nothing, so redelivery is harmless.
    return services.play_bot_move(game_id, expected_version)


@shared_task(ignore_result=True)
def expire_decision(game_id: int, expected_version: int) -> bool:
    # Fired by an ETA and by the sweep, perhaps both, perhaps twice: the
    # version check inside makes every firing after the first a no-op.
    return timers.expire_decision(game_id, expected_version)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Beat's sweep: enqueue the overdue decisions and the due reminders.

    A short-lived cache key per (game, version) keeps one slow sweep from
    piling up copies; it expires, so a task lost with a killed worker is
    enqueued again by a later sweep."""
    from notifications.tasks import send_reminder

    ttl = max(5, 3 * settings.TIMER_SWEEP_SECONDS)
    queued = 0
    for game_id, version in timers.overdue_games():
        if cache.add(f"timers:queued:{game_id}:{version}", 1, timeout=ttl):
            expire_decision.delay(game_id, version)
            queued += 1
    for deadline_id in timers.reminders_due():
        if cache.add(f"timers:remind:{deadline_id}", 1, timeout=ttl):
            send_reminder.delay(deadline_id)
    return queued

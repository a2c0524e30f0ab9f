"""Celery tasks: they take primary keys and the version they expect."""

from __future__ import annotations

import time

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from games import services
from games.services import timers


@shared_task(ignore_result=True)
def play_bot_move(game_id: int, expected_version: int) -> bool:
    # A stale task (the game moved on) does nothing, so redelivery is harmless.
    return services.play_bot_move(game_id, expected_version)


def queued_key(game_id: int, version: int) -> str:
    return f"timers:queued:{game_id}:{version}"


# A queued (or ETA-held) expiry is not queued again by the sweep for this
# long; once a task starts it clears the mark, so a worker killed mid-run is
# replaced at the next sweep, and a task lost before it started after this.
REQUEUE_SECONDS = 30


@shared_task(ignore_result=True)
def expire_decision(game_id: int, expected_version: int) -> bool:
    # Fired by an ETA and by the sweep, perhaps both, perhaps twice: the
    # version check inside makes every firing after the first a no-op.
    cache.delete(queued_key(game_id, expected_version))
    return timers.expire_decision(game_id, expected_version)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Beat's sweep: enqueue the overdue decisions and the due reminders.

    A cache mark per (game, version) holds when its expiry task will run:
    0 for queued now, or an ETA. The sweep leaves a decision alone while a
    task for it is queued or its ETA has come, so a backlog is not queued
    again on every sweep; a deadline moved earlier than its ETA (a vacation
    ended early) is queued at once."""
    from notifications.tasks import send_reminder

    ttl = max(5, 3 * settings.TIMER_SWEEP_SECONDS)
    now = time.time()
    overdue = timers.overdue_games()
    marks = cache.get_many([queued_key(g, v) for g, v in overdue])
    queued = 0
    for game_id, version in overdue:
        key = queued_key(game_id, version)
        if key in marks and marks[key] <= now + 1:
            continue
        cache.set(key, 0, timeout=REQUEUE_SECONDS)
        expire_decision.delay(game_id, version)
        queued += 1
    for deadline_id in timers.reminders_due():
        if cache.add(f"timers:remind:{deadline_id}", 1, timeout=ttl):
            send_reminder.delay(deadline_id)
    return queued

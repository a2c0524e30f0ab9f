"""Celery tasks: they take primary keys and the version they expect."""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(ignore_result=True)
def play_bot_move(game_id: int, expected_version: int) -> bool:
    # A stale task (the game moved on) does nothing, so redelivery is harmless.
    return services.play_bot_move(game_id, expected_version)

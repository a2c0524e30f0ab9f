"""Celery tasks of the live pushes."""

from __future__ import annotations

from celery import shared_task

from games import estimates
from live import pushes, winbar


@shared_task(ignore_result=True)
def push_missed() -> int:
    """Beat's: push again each game version that a dying process committed
    and never pushed (``live.missed_pushes``)."""
    return pushes.push_missed()


@shared_task(ignore_result=True)
def estimate_position(game_id: int, expected_version: int) -> bool:
    """Estimate a running game's chances at ``expected_version``, store them
    once and push the spectators' bar (``live.estimating`` queues it); a
    stale or repeated task does nothing (``games.estimates.estimate_position``)."""
    if estimates.estimate_position(game_id, expected_version) is None:
        return False
    winbar.push(game_id)
    return True

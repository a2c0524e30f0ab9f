"""Celery tasks of the live pushes."""

from __future__ import annotations

from celery import shared_task

from live import pushes


@shared_task(ignore_result=True)
def push_missed() -> int:
    """Beat's: push again each game version that a dying process committed
    and never pushed (``live.missed_pushes``)."""
    return pushes.push_missed()

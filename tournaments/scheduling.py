"""Due rows: what an event must do at a time (docs/tournaments.md,
"Scheduling and no-shows"). Each is made once (its ``key`` is unique) in
the transaction that decides it, and found by beat's sweep
(``tournaments.sweep``) once due; a task with an ETA, queued after the
commit, is only a shortcut."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common import redis_health
from tournaments.models import Due, Tournament

logger = logging.getLogger(__name__)


def round_planned_at(t: Tournament, number: int) -> datetime:
    """When round ``number`` is planned: the start, then a gap per round."""
    return t.starts_at + timedelta(seconds=(number - 1) * t.round_gap_seconds)


def schedule_start(t: Tournament) -> None:
    """Registration closes, and round 1 starts, at ``starts_at``."""
    add_due(t, Due.Kind.CLOSE_REGISTRATION, 0, t.starts_at)
    add_due(t, Due.Kind.START_ROUND, 1, t.starts_at)


def schedule_round(t: Tournament, number: int, now: datetime | None = None) -> Due:
    """Round ``number`` starts at its planned time, or now if that has
    passed (the previous round, now over, ran late)."""
    now = now or timezone.now()
    return add_due(t, Due.Kind.START_ROUND, number, max(now, round_planned_at(t, number)))


def add_due(t: Tournament, kind: str, number: int, due_at: datetime) -> Due:
    key = f"t{t.pk}:{kind}:{number}"
    due, created = Due.objects.get_or_create(
        key=key,
        defaults={"tournament": t, "kind": kind, "round_number": number, "due_at": due_at},
    )
    if created:
        pk, at = due.pk, due_at
        transaction.on_commit(lambda: queue_due(pk, at))
    return due


def queue_due(due_id: int, due_at: datetime) -> None:
    """The shortcut: a task at the due time, if it falls soon (beyond the
    horizon the sweep alone finds it). A lost task costs a sweep's delay."""
    horizon = timezone.now() + timedelta(seconds=settings.TIMER_ETA_HORIZON_SECONDS)
    if due_at > horizon:
        return
    try:
        with redis_health.guarded():
            # By name: the tasks sit above the services that make due rows.
            current_app.send_task(
                "tournaments.tasks.run_due", args=(due_id,), eta=due_at, ignore_result=True
            )
    except Exception:
        logger.exception("Could not queue tournament due row %s", due_id)

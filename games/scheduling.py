"""Scheduling after a write: the Celery shortcuts for near deadlines and
bot moves (``games.services.subscribers``).

Only shortcuts: if the broker loses a task, beat's sweep finds the deadline
row or the game's ``auto_move_at`` and does the work, seconds later.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from django.core.cache import cache
from django.utils import timezone

from common import redis_health
from games.models import Game
from games.services.subscribers import Subscriber
from games.services.timers import near_deadlines
from games.services.write import Committed
from games.tasks import (
    REQUEUE_SECONDS,
    eta_slot,
    expire_decision,
    expire_due,
    play_bot_move,
    queue_analysis,
    queued_key,
    slot_key,
)

logger = logging.getLogger(__name__)


def on_commit(record: Committed) -> None:
    if redis_health.is_down():
        return  # the sweep finds the rows
    if record.bots_due:
        schedule_bots(record.game_id, record.version, record.game.auto_move_at)
    due_times = None
    if record.deadlines is not None:
        due_times = [d.due_at for d in record.deadlines]
    schedule_timers(record.game_id, record.version, due_times)
    if record.finished:
        schedule_analysis(record.game_id)


SUBSCRIBER = Subscriber("scheduling", on_commit=on_commit)


def schedule_timers(game_id: int, version: int, due_times: list[datetime] | None = None) -> None:
    """ETA tasks for near deadlines. ``due_times``, when the caller knows
    them, are the due times of the version's rows (else they are read)."""
    try:
        redis_health.check()
        for due in near_deadlines(game_id, version, due_times=due_times):
            # One ETA task per slot (a fraction of a second) for every
            # deadline due in it: it hands out all that is then overdue.
            # A slot about to end may have been handed out already: a
            # deadline that near (or past) gets an ETA task of its own.
            slot = eta_slot(due.timestamp())
            wait = slot - timezone.now().timestamp()
            timeout = max(1, wait) + REQUEUE_SECONDS
            if wait < 1:
                slot = due.timestamp()
                expire_decision.apply_async((game_id, version), eta=due)
            elif cache.add(slot_key(slot), 1, timeout=timeout):
                expire_due.apply_async(eta=datetime.fromtimestamp(slot, tz=UTC))
            # The sweep leaves this one to its ETA task unless it is late.
            cache.set(queued_key(game_id, version), slot, timeout=timeout)
    except Exception:
        logger.exception("Could not schedule the timers of game %s", game_id)


def schedule_bots(game_id: int, version: int, due: datetime | None = None) -> None:
    """A task for the bot's move at its due time (``Game.auto_move_at``, read
    if not given)."""
    if due is None:
        due = Game.objects.filter(pk=game_id).values_list("auto_move_at", flat=True).first()
        if due is None:
            return
    try:
        with redis_health.guarded():
            play_bot_move.apply_async((game_id, version), eta=due)
    except Exception:
        logger.exception("Could not schedule the bot move of game %s", game_id)


def schedule_analysis(game_id: int) -> None:
    """The finished game's analysis, at once (beat's sweep finds it anyway)."""
    try:
        with redis_health.guarded():
            queue_analysis(game_id)
    except Exception:
        logger.exception("Could not queue the analysis of game %s", game_id)

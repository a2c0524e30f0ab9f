"""What happens after a game write commits: pushes and scheduled work.

Only called through ``transaction.on_commit`` so that nobody hears of a
change that was rolled back.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)


def after_commit(
    game_id: int, version: int, *, bots_due: bool, state: Any = None, game: Any = None
) -> None:
    """``state`` and ``game``, when given, are the engine state and the
    (locked, written) Game row of ``version``: the broadcast then need not
    read and parse them again."""

    def run() -> None:
        broadcast_game(game_id, version, state, game)
        if bots_due:
            schedule_bots(game_id, version)
        schedule_timers(game_id, version)

    transaction.on_commit(run)


def schedule_timers(game_id: int, version: int) -> None:
    """ETA tasks for near deadlines. Only a shortcut: if the broker loses
    them, the beat sweep finds the rows."""
    from django.core.cache import cache
    from django.utils import timezone

    from games.services.timers import near_deadlines
    from games.tasks import REQUEUE_SECONDS, expire_decision, queued_key

    try:
        for due in near_deadlines(game_id, version):
            expire_decision.apply_async((game_id, version), eta=due)
            # The sweep leaves this one to its ETA task unless it is late.
            wait = (due - timezone.now()).total_seconds()
            cache.set(
                queued_key(game_id, version),
                due.timestamp(),
                timeout=max(1, wait) + REQUEUE_SECONDS,
            )
    except Exception:
        logger.exception("Could not schedule the timers of game %s", game_id)


def broadcast_game(game_id: int, version: int, state: Any = None, game: Any = None) -> None:
    """Push the changed regions to every socket allowed to see them."""
    from games import broadcast

    try:
        broadcast.broadcast_game(game_id, version, state, game)
    except Exception:
        # The write has committed; a failed push must not turn it into an
        # error page. Clients resync on their next reconnect or gap.
        logger.exception("Could not broadcast game %s at version %s", game_id, version)


def schedule_bots(game_id: int, version: int) -> None:
    from games.models import Game
    from games.tasks import play_bot_move

    delay_ms = Game.objects.filter(pk=game_id).values_list("bot_delay_ms", flat=True).first()
    if delay_ms is None:
        return
    play_bot_move.apply_async((game_id, version), countdown=delay_ms / 1000)

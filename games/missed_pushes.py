"""Pushes that a dying process never sent.

A move's push goes out after its commit, from the process that committed it.
A worker or Daphne killed between the two leaves a version that no page was
told of, and with nothing after it no page sees a gap: they would notice only
at their heartbeat (``LIVE_HEARTBEAT_SECONDS``, 30 s). So each push records
the version it carried, and beat's sweep (``games.tasks.push_missed``, every
``TIMER_SWEEP_SECONDS``) pushes again each recently moved game whose record
is behind its row after a short grace. A Redis restart empties the records,
and the pushes under way when it went are lost too: everything recent is
pushed once more, which pages drop if they had it.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.core.cache import cache
from django.utils import timezone

from games.models import Game
from monopoly_site import redis_health

logger = logging.getLogger(__name__)

RECENT_SECONDS = 60  # a game moved longer ago than this is not looked at
# The committing process's own push comes well within this (tens of ms);
# a longer grace only delays the pages of a game whose mover died.
GRACE_SECONDS = 1.0


def key(game_id: int) -> str:
    return f"pushed:{game_id}"


def record(game_id: int, version: int) -> None:
    """``version`` of the game has been pushed, or needed no push (nobody was
    listening). Only a hint: losing it costs a second push."""
    try:
        with redis_health.guarded():
            cache.set(key(game_id), version, timeout=2 * RECENT_SECONDS)
    except Exception:
        logger.warning("Could not record the push of game %s at %s", game_id, version)


def missed(now: datetime | None = None) -> list[tuple[int, int]]:
    """(game id, version) of each game moved in the last ``RECENT_SECONDS``,
    more than ``GRACE_SECONDS`` ago, whose version no push has recorded."""
    now = now or timezone.now()
    rows = list(
        Game.objects.filter(
            status__in=[Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.ABANDONED],
            updated_at__gte=now - timedelta(seconds=RECENT_SECONDS),
            updated_at__lte=now - timedelta(seconds=GRACE_SECONDS),
        ).values_list("pk", "version")
    )
    if not rows:
        return []
    pushed = cache.get_many([key(pk) for pk, _ in rows])
    return [(pk, version) for pk, version in rows if pushed.get(key(pk), -1) < version]


def push_missed(now: datetime | None = None) -> int:
    """Push each game ``missed`` finds; returns how many."""
    from games.services.hooks import broadcast_game

    if redis_health.is_down():
        return 0  # nothing could be pushed; the records went with Redis
    found = missed(now)
    for game_id, version in found:
        logger.info("Game %s at version %s was not pushed: pushing it now", game_id, version)
        broadcast_game(game_id, version)  # nothing if the game has moved on since
    return len(found)

"""Pushes that a dying process never sent.

A move's push goes out after its commit, from the process that committed it.
A worker or Daphne killed between the two leaves a version that no page was
told of, and with nothing after it no page sees a gap: they would notice only
at their heartbeat (``LIVE_HEARTBEAT_SECONDS``, 30 s). So each push records
the version it carried, and beat's sweep (``games.tasks.push_missed``, every
``TIMER_SWEEP_SECONDS``) pushes again each recently moved game whose record
is behind its row after a short grace.

A Redis restart empties the records, and the pushes under way when it went
are lost too. Those pages need no push from here: every socket is either
closed by the restart (it reconnects and takes a snapshot) or told to resync
by its Daphne's push listener once that has its subscriptions back
(``live.fanout``). So a game without a record is taken to be missed only if
it moved since this Redis began keeping records (``records_since``). Pushing
every recent game again instead cost a full render of each at the worst
moment: in the 200-game soak, both workers re-pushed about 200 games right
after each Redis restart while every game's bot move, its task lost with
Redis, fell due together, and 48 games were idle past their due time.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.core.cache import cache
from django.utils import timezone

from common import redis_health
from games.models import Game

logger = logging.getLogger(__name__)

RECENT_SECONDS = 60  # a game moved longer ago than this is not looked at
# The committing process's own push comes well within this (tens of ms);
# a longer grace only delays the pages of a game whose mover died.
GRACE_SECONDS = 1.0


SINCE_KEY = "pushed:since"


def key(game_id: int) -> str:
    return f"pushed:{game_id}"


def records_since(known: float | None = None) -> float:
    """When this Redis began keeping push records (a timestamp): set, for
    good, by the first sweep to find it missing, that is, the first after
    Redis started empty. ``known``: the value the caller has just read."""
    if known is None:
        cache.add(SINCE_KEY, time.time(), timeout=None)
        known = cache.get(SINCE_KEY, time.time())
    return float(known)


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
    more than ``GRACE_SECONDS`` ago, whose version no push has recorded: its
    record is behind, or it has none and moved since ``records_since``."""
    now = now or timezone.now()
    rows = list(
        Game.objects.filter(
            status__in=[Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.ABANDONED],
            updated_at__gte=now - timedelta(seconds=RECENT_SECONDS),
            updated_at__lte=now - timedelta(seconds=GRACE_SECONDS),
        ).values_list("pk", "version", "updated_at")
    )
    if not rows:
        return []
    pushed = cache.get_many([SINCE_KEY, *(key(pk) for pk, _, _ in rows)])
    since = records_since(pushed.get(SINCE_KEY))
    found = []
    for pk, version, updated_at in rows:
        recorded = pushed.get(key(pk))
        if recorded is None and updated_at.timestamp() <= since:
            continue  # its record went with an earlier Redis
        if recorded is None or recorded < version:
            found.append((pk, version))
    return found

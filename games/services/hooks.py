"""What happens after a game write commits: pushes and scheduled work.

Only called through ``transaction.on_commit`` so that nobody hears of a
change that was rolled back.

None of it may fail the write, which has committed: with Redis (the channel
layer and the Celery broker) down a push or a task is logged and dropped.
Clients resync when their socket comes back, and the beat sweep finds every
deadline in the database, so nothing that must happen lives only in Redis.
While Redis is known to be down (``monopoly_site.redis_health``) nothing is
even tried, so a move costs no connection attempts.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from django.db import transaction

from monopoly_site import redis_health

logger = logging.getLogger(__name__)

# Pushes held back until the end of a ``pushes_deferred`` block, per thread.
_held = threading.local()


def after_commit(
    game_id: int,
    version: int,
    *,
    bots_due: bool,
    state: Any = None,
    game: Any = None,
    last_write: bool = False,
) -> None:
    """``state`` and ``game``, when given, are the engine state and the
    (locked, written) Game row of ``version``: the broadcast then need not
    read and parse them again. ``last_write`` says that the transaction
    changes nothing more before it commits, so the push may be rendered
    ahead of the commit."""

    from games.services.timers import known_due_times

    # The write knows its deadline rows: scheduling need not read them back.
    due_times = known_due_times(game, version) if game is not None else None

    def run() -> None:
        if redis_health.is_down():
            logger.warning("Game %s at version %s is not pushed: Redis is down", game_id, version)
            return
        held: list[Any] | None = getattr(_held, "pushes", None)
        if held is not None and not _always_pushed(game):
            held.append((game_id, version, state, game))
        elif rendering_ahead(game, version) or anyone_listening(game_id, game):
            broadcast_game(game_id, version, state, game)
        else:
            record_pushed(game_id, version)  # nobody to tell
        if bots_due:
            schedule_bots(game_id, version, getattr(game, "auto_move_at", None))
        schedule_timers(game_id, version, due_times)

    connection = transaction.get_connection()
    if (
        last_write
        and connection.in_atomic_block
        and state is not None
        and getattr(_held, "pushes", None) is None
        and not _always_pushed(game)
        and not redis_health.is_down()  # nothing would be pushed
    ):
        # Rendered while COMMIT waits (broadcast.py says how).
        render_ahead(game, state)
    if connection.in_atomic_block:
        # First of this commit's callbacks (turn notices, queued earlier in
        # the write, cost a broker round trip): the watchers wait on this one.
        connection.run_on_commit.insert(0, (set(connection.savepoint_ids), run, False))
    else:
        transaction.on_commit(run)


def anyone_listening(game_id: int, game: Any) -> bool:
    """Whether a push of this version could reach anyone. A running game's
    move that nobody has a socket open for (by presence) is not rendered or
    sent at all: a socket registers its presence before it subscribes and
    takes its snapshot, so one that arrives later reads this version there.
    The start and the end also change the lobby and watch lists: always."""
    if _always_pushed(game):
        return True
    from live.presence import listening

    return _keep_listening(game, listening(game_id))


def _always_pushed(game: Any) -> bool:
    from games.models import Game

    return game is None or game.status != Game.Status.ACTIVE or game.version <= 1


def _keep_listening(game: Any, here: Any) -> bool:
    game.__dict__["_live_here"] = here  # the broadcast's audiences: not read again
    return here is None or bool(here.online_seats) or here.watching > 0


@contextmanager
def pushes_deferred() -> Iterator[None]:
    """For a batch of writes (timeouts): each committed write's push waits
    for the end of the block, where who listens to each game is read in one
    round trip instead of one per write. Each push still follows its commit
    and reads presence after it, so the rule of ``anyone_listening`` holds."""
    if getattr(_held, "pushes", None) is not None:
        yield
        return
    _held.pushes = []
    try:
        yield
    finally:
        pushes, _held.pushes = _held.pushes, None
        here = _listening_to([game_id for game_id, _, _, _ in pushes]) if pushes else {}
        for game_id, version, state, game in pushes:
            if _keep_listening(game, here.get(game_id)):
                broadcast_game(game_id, version, state, game)
            else:
                record_pushed(game_id, version)


def _listening_to(game_ids: list[int]) -> dict[int, Any]:
    """``live.presence.listening`` of several games in one round trip; a game
    missing from the answer (Redis could not say) is pushed as before."""
    from live.presence import listening_many

    return listening_many(game_ids)


def schedule_timers(game_id: int, version: int, due_times: list[Any] | None = None) -> None:
    """ETA tasks for near deadlines. Only a shortcut: if the broker loses
    them, the beat sweep finds the rows. ``due_times``, when the caller knows
    them, are the due times of the version's rows (else they are read)."""
    from django.core.cache import cache
    from django.utils import timezone

    from games.services.timers import near_deadlines
    from games.tasks import (
        REQUEUE_SECONDS,
        eta_slot,
        expire_decision,
        expire_due,
        queued_key,
        slot_key,
    )

    try:
        redis_health.check()  # only a shortcut: the sweep finds the rows
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


def record_pushed(game_id: int, version: int) -> None:
    from games import missed_pushes

    missed_pushes.record(game_id, version)


def rendering_ahead(game: Any, version: int) -> bool:
    from games import broadcast

    return broadcast.rendering_ahead(game, version)


def render_ahead(game: Any, state: Any) -> None:
    from games import broadcast

    try:
        broadcast.render_ahead(game, state)
    except Exception:
        # Only a head start: the broadcast renders after the commit instead.
        logger.exception("Could not start rendering game %s ahead", game.pk)


def broadcast_game(game_id: int, version: int, state: Any = None, game: Any = None) -> None:
    """Push the changed regions to every socket allowed to see them."""
    from games import broadcast

    try:
        broadcast.broadcast_game(game_id, version, state, game)
    except Exception as exc:
        # The write has committed; a failed push must not turn it into an
        # error page. Clients resync on their next reconnect or gap.
        if isinstance(exc, redis_health.ERRORS) and not isinstance(exc, redis_health.RedisDown):
            redis_health.failed(exc)
        logger.exception("Could not broadcast game %s at version %s", game_id, version)


def schedule_bots(game_id: int, version: int, due: datetime | None = None) -> None:
    """A task for the bot's move at its due time (``Game.auto_move_at``, read
    if not given). Only a shortcut: if the broker loses it, beat's sweep finds
    the game's due row and plays the move."""
    from games.models import Game
    from games.tasks import play_bot_move

    if due is None:
        due = Game.objects.filter(pk=game_id).values_list("auto_move_at", flat=True).first()
        if due is None:
            return
    try:
        with redis_health.guarded():
            play_bot_move.apply_async((game_id, version), eta=due)
    except Exception:
        logger.exception("Could not schedule the bot move of game %s", game_id)

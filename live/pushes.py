"""The live pushes' subscriber to the write path (``games.services.subscribers``).

None of it may fail the write, which has committed: with Redis (the channel
layer) down a push is logged and dropped. Clients resync when their socket
comes back, and ``live.missed_pushes`` pushes what was missed once Redis
is back. While Redis is known to be down (``common.redis_health``)
nothing is even tried, so a move costs no connection attempts.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from common import redis_health
from games.models import Game
from games.services.subscribers import Subscriber
from games.services.write import Committed
from live import broadcast, missed_pushes, presence

logger = logging.getLogger(__name__)


def on_commit(record: Committed) -> None:
    if redis_health.is_down():
        logger.warning(
            "Game %s at version %s is not pushed: Redis is down", record.game_id, record.version
        )
        return
    if broadcast.rendering_ahead(record) or always_pushed(record.game):
        push(record, broadcast.UNREAD)  # presence is read for the seats
        return
    here = record.scratch["here"] = presence.listening(record.game_id)
    push_if_heard(record, here)


def before_commit(record: Committed) -> None:
    """Rendered while COMMIT waits (``broadcast`` says how)."""
    if (
        record.state is None
        or always_pushed(record.game)
        or redis_health.is_down()  # nothing would be pushed
    ):
        return
    broadcast.render_ahead(record)


def on_commit_batch(records: list[Committed]) -> None:
    """A batch of writes (timeouts): who listens to each game is read in one
    round trip instead of one per write. Each push still follows its commit
    and reads presence after it, so the rule of ``heard`` holds."""
    if redis_health.is_down():
        logger.warning("%s game versions are not pushed: Redis is down", len(records))
        return
    quiet = [r for r in records if not always_pushed(r.game)]
    here = presence.listening_many([r.game_id for r in quiet]) if quiet else {}
    for record in records:
        if always_pushed(record.game):
            push(record, broadcast.UNREAD)
        else:
            push_if_heard(record, here.get(record.game_id))


SUBSCRIBER = Subscriber(
    "live pushes",
    on_commit=on_commit,
    before_commit=before_commit,
    on_commit_batch=on_commit_batch,
    urgent=True,  # people are watching; the others cost broker round trips
)


def always_pushed(game: Game) -> bool:
    """The start and the end also change the lobby and watch lists."""
    return game.status != Game.Status.ACTIVE or game.version <= 1


def heard(here: Any) -> bool:
    """Whether a push could reach anyone, by presence (None: Redis could not
    say). A running game's move that nobody has a socket open for is not
    rendered or sent at all: a socket registers its presence before it
    subscribes and takes its snapshot, so one that arrives later reads this
    version there."""
    return here is None or bool(here.online_seats) or here.spectated


def push_if_heard(record: Committed, here: Any) -> None:
    if always_pushed(record.game) or heard(here):
        push(record, here)
    else:
        missed_pushes.record(record.game_id, record.version)  # nobody to tell


def push(record: Committed, here: Any) -> None:
    with _failures_logged(record.game_id, record.version):
        broadcast.push_committed(record, here)


@contextmanager
def _failures_logged(game_id: int, version: int) -> Iterator[None]:
    """The write has committed; a failed push must not turn it into an error
    page. Clients resync on their next reconnect or gap."""
    try:
        yield
    except Exception as exc:
        if isinstance(exc, redis_health.ERRORS) and not isinstance(exc, redis_health.RedisDown):
            redis_health.failed(exc)
        logger.exception("Could not push game %s at version %s", game_id, version)


def push_missed(now: datetime | None = None) -> int:
    """Push each game ``missed`` finds; returns how many."""
    if redis_health.is_down():
        return 0  # nothing could be pushed; the records went with Redis
    found = missed_pushes.missed(now)
    for game_id, version in found:
        logger.info("Game %s at version %s was not pushed: pushing it now", game_id, version)
        with _failures_logged(game_id, version):
            broadcast.broadcast_game(game_id, version)  # nothing if it has moved on since
    return len(found)

"""Who follows an API stream, and telling them of each commit.

A stream (``api.stream``) has a channel of its own on the channel layer and
joins a group: ``api-game-<pk>`` for a game's stream, ``api-user-<pk>`` for
a person's events stream. Each commit of a game is announced to those groups
as a bare ``{"type": "api.version", "game": pk, "version": N}``: the stream
reads what it may show from the database, so that the message itself
carries nothing private and a lost one costs a delay, never a wrong line.

Most games have no API stream open, and a ``group_send`` to an empty group
still costs channels-redis two round trips to Redis plus a hop to an event
loop. So each stream also keeps an entry in a sorted set per game or person,
scored by when it expires (as ``live.presence`` does for sockets), refreshed
with its keep-alive; a commit reads those sets for its game and its seated
people in one pipelined round trip and sends only to groups that have a
reader. A stream whose process died stops refreshing and drops out.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
import redis.asyncio as aioredis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from common import redis_health
from games.services.subscribers import Subscriber
from games.services.write import Committed

logger = logging.getLogger(__name__)


def ttl() -> float:
    """An entry outlives two lost refreshes (one per keep-alive)."""
    return 3.0 * settings.API_STREAM_KEEPALIVE_SECONDS


MESSAGE_TYPE = "api.version"


def game_group(game_pk: int) -> str:
    return f"api-game-{game_pk}"


def user_group(user_pk: int) -> str:
    return f"api-user-{user_pk}"


def _key(group: str) -> str:
    return f"{settings.REDIS_PREFIX}:api:streams:{group}"


_sync_client: redis.Redis | None = None


def _aredis() -> aioredis.Redis:
    return redis_health.loop_client(settings.REDIS_URL)


def _redis() -> redis.Redis:
    global _sync_client
    if _sync_client is None:
        _sync_client = redis.Redis.from_url(
            settings.REDIS_URL, **redis_health.client_options(asynchronous=False)
        )
    return _sync_client


async def join(group: str, channel: str) -> None:
    """Register (or refresh) one stream's entry, then join its group: a
    commit that finds the entry sends to a group the channel is in."""
    key = _key(group)
    async with _aredis().pipeline(transaction=False) as pipe:
        pipe.zadd(key, {channel: time.time() + ttl()})
        pipe.expire(key, int(ttl() * 2))
        await pipe.execute()
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_add(group, channel)


async def leave(group: str, channel: str) -> None:
    """Undo ``join``, as far as Redis lets us (an entry left behind expires)."""
    layer = get_channel_layer()
    try:
        with redis_health.guarded():
            await _aredis().zrem(_key(group), channel)
        if layer is not None:
            await layer.group_discard(group, channel)
    except redis_health.ERRORS:
        logger.warning("Could not leave the stream group %s", group)


def readers(group: str) -> list[str]:
    """The channels with a live entry for ``group`` (for tests and checks)."""
    members: Any = _redis().zrangebyscore(_key(group), time.time(), "+inf")
    return [m.decode() for m in members]


def layer_members(group: str) -> list[str]:
    """The channels in ``group`` on the channel layer (channels-redis keeps
    each group as a sorted set; for tests and checks)."""
    layers: Any = settings.CHANNEL_LAYERS
    prefix = layers["default"]["CONFIG"]["prefix"]
    members: Any = _redis().zrange(f"{prefix}:group:{group}", 0, -1)
    return [m.decode() for m in members]


def _groups_heard(records: list[Committed]) -> list[tuple[str, dict[str, Any]]]:
    """The (group, message) pairs of these commits whose group has a reader,
    read in one round trip; every pair if Redis cannot say."""
    wanted: list[tuple[str, dict[str, Any]]] = []
    for record in records:
        message = {"type": MESSAGE_TYPE, "game": record.game_id, "version": record.version}
        wanted.append((game_group(record.game_id), message))
        for user_pk in _seated_users(record):
            wanted.append((user_group(user_pk), message))
    if not wanted:
        return []
    now = time.time()
    try:
        with redis_health.guarded(), _redis().pipeline(transaction=False) as pipe:
            for group, _ in wanted:
                pipe.zcount(_key(group), now, "+inf")
            counts = pipe.execute()
    except redis.RedisError:
        return wanted
    return [pair for pair, count in zip(wanted, counts, strict=True) if count]


def _seated_users(record: Committed) -> list[int]:
    seats = record.seats
    if seats is None:
        from games.models import Seat

        return list(
            Seat.objects.filter(game_id=record.game_id, user__isnull=False).values_list(
                "user_id", flat=True
            )
        )
    return [seat.user_id for seat in seats if seat.user_id is not None]


def _send(pairs: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None or not pairs:
        return

    async def send_all() -> None:
        for group, message in pairs:
            await layer.group_send(group, message)

    async_to_sync(send_all)()


def on_commit_batch(records: list[Committed]) -> None:
    if redis_health.is_down():
        return  # the streams hear of it at their next keep-alive
    try:
        _send(_groups_heard(records))
    except Exception as exc:
        if isinstance(exc, redis_health.ERRORS) and not isinstance(exc, redis_health.RedisDown):
            redis_health.failed(exc)
        logger.warning("Could not tell the API streams of %s commits", len(records), exc_info=True)


def on_commit(record: Committed) -> None:
    on_commit_batch([record])


SUBSCRIBER = Subscriber("api streams", on_commit=on_commit, on_commit_batch=on_commit_batch)

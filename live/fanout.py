"""Game pushes straight to this process's sockets, and to other processes'
over Redis pub/sub.

Why not the channel layer: a ``group_send`` costs channels-redis four round
trips to Redis, then the message comes back to this same process through
Redis, and each of the group's consumers wakes for its own copy through the
layer's receive machinery (two new tasks per consumer and message). With 50
spectators that was most of the time between the commit and the last socket
having the push. Here a publish hands the message to this process's event
loop at once, where one task writes it to every local member in turn, and
publishes it once (one round trip, pipelined) for the other processes, whose
listener does the same for their members.

A member joins an audience (a group name, e.g. ``game-7-spectators``); the
first local member subscribes this process to the audience's Redis channel
and waits for Redis to confirm it, so a socket that takes its snapshot after
joining cannot miss a later version. Delivery is at most once: a process cut
off from Redis misses pushes, which clients notice as a version gap (or a
reconnect) and resync. Chat, presence and the lobby lists stay on the channel
layer; only the version-framed game pushes come through here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import threading
from typing import Any, Protocol

from django.conf import settings

from monopoly_site import redis_health

logger = logging.getLogger(__name__)

SUBSCRIBE_TIMEOUT = 5.0  # seconds
# A member whose frame is not on the wire yet waits for the event loop to
# poll its socket, so the delivery yields to the loop after every few such
# members rather than making all of them wait for the last (about 0.1 ms
# each). Each yield costs a poll. On the 2-core VM's bench-live (50 sockets)
# any of every 1, 3, 5 or 10 beat yielding only at the end by several ms at
# the median; 5 was slightly ahead, within the noise. Daphne's sockets are
# usually written at once (``games.consumers``) and need no yield.
FLUSH_EVERY = 5
_TOKEN = secrets.token_hex(8)


class Member(Protocol):
    async def deliver(self, message: dict[str, Any]) -> bool | None:
        """True if the message is on the wire when this returns."""
        ...


def _origin() -> str:
    # Per process, also after a fork: our own publishes are delivered directly.
    return f"{os.getpid()}-{_TOKEN}"


def channel_for(group: str) -> str:
    return f"{settings.REDIS_PREFIX}:push:{group}"


class _Hub:
    """The members of one event loop (Daphne has one; tests make several)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        from redis import asyncio as aioredis

        self.loop = loop
        self.members: dict[str, list[Member]] = {}
        self.confirmed: dict[str, asyncio.Future[None]] = {}
        self.redis = aioredis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=redis_health.CONNECT_TIMEOUT
        )
        self.pubsub = self.redis.pubsub()
        self.listener: asyncio.Task[None] | None = None
        self.prefix = channel_for("")

    async def subscribe(self, group: str) -> None:
        channel = channel_for(group)
        confirmed = self.confirmed.get(channel)
        if confirmed is None:
            confirmed = self.confirmed[channel] = self.loop.create_future()
            await self.pubsub.subscribe(channel)
            if self.listener is None:
                self.listener = self.loop.create_task(self.listen())
        await asyncio.wait_for(asyncio.shield(confirmed), SUBSCRIBE_TIMEOUT)

    async def unsubscribe(self, group: str) -> None:
        channel = channel_for(group)
        self.confirmed.pop(channel, None)
        await self.pubsub.unsubscribe(channel)

    async def listen(self) -> None:
        while True:
            try:
                if not self.pubsub.subscribed:
                    await asyncio.sleep(0.1)
                    continue
                message = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("game push listener failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is not None:
                self.received(message)

    def received(self, message: dict[str, Any]) -> None:
        channel = message["channel"]
        if isinstance(channel, bytes):
            channel = channel.decode()
        if message["type"] == "subscribe":
            confirmed = self.confirmed.get(channel)
            if confirmed is not None and not confirmed.done():
                confirmed.set_result(None)
            return
        if message["type"] != "message":
            return
        try:
            data = json.loads(message["data"])
        except ValueError:
            return
        if data.get("o") == _origin():
            return  # delivered directly when it was published
        self.spawn([(channel.removeprefix(self.prefix), data["m"])])

    def spawn(self, messages: list[tuple[str, dict[str, Any]]], done: Any = None) -> None:
        self.loop.create_task(self.deliver(messages, done))

    async def deliver(self, messages: list[tuple[str, dict[str, Any]]], done: Any) -> None:
        try:
            queued = 0
            for group, message in messages:
                for member in list(self.members.get(group, ())):
                    try:
                        if await member.deliver(message):
                            continue
                    except Exception:
                        logger.exception("could not deliver a push to %s", group)
                    queued += 1
                    if queued % FLUSH_EVERY == 0:
                        await asyncio.sleep(0)  # the loop writes these out
        finally:
            if done is not None:
                done.set()

    async def close(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
        try:
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
            await self.redis.aclose()
        except Exception:
            logger.debug("closing the push listener failed", exc_info=True)


_hubs: dict[asyncio.AbstractEventLoop, _Hub] = {}
_hubs_lock = threading.Lock()
_publisher: Any = None


async def join(group: str, member: Member) -> None:
    """Add ``member`` to ``group`` here; returns once pushes published from
    now on, by any process, will reach it."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = _Hub(loop)
    hub.members[group] = [*hub.members.get(group, ()), member]
    try:
        await hub.subscribe(group)
    except BaseException:
        await leave(group, member)
        raise


async def leave(group: str, member: Member) -> None:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        return
    remaining = [m for m in hub.members.get(group, ()) if m is not member]
    if remaining:
        hub.members[group] = remaining
        return
    hub.members.pop(group, None)
    try:
        await hub.unsubscribe(group)
    except Exception:
        logger.debug("unsubscribing from %s failed", group, exc_info=True)
    if not hub.members:
        with _hubs_lock:
            if _hubs.get(loop) is hub:
                del _hubs[loop]
        await hub.close()


def publish(messages: list[tuple[str, dict[str, Any]]]) -> threading.Event | None:
    """Send each (group, message) to the group's members in every process.
    Callable from any thread. Local members get it first, from their event
    loop; the returned event (None if there are none) is set once they have
    it, so that a caller can keep the CPU for them until then."""
    if not messages:
        return None
    done = None
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    with _hubs_lock:
        hubs = [h for h in _hubs.values() if not h.loop.is_closed()]
    for hub in hubs:
        if any(hub.members.get(group) for group, _ in messages):
            event = threading.Event()
            hub.loop.call_soon_threadsafe(hub.spawn, messages, event)
            # Waiting for it on its own loop's thread would stall that loop.
            done = event if hub.loop is not running else None
    try:
        with redis_health.guarded():
            pipe = _sync_redis().pipeline(transaction=False)
            for group, message in messages:
                pipe.publish(channel_for(group), json.dumps({"o": _origin(), "m": message}))
            pipe.execute()
    except redis_health.RedisDown:
        pass  # said when it went down (redis_health)
    except Exception:
        # Other processes miss this version; their clients resync on the next.
        logger.exception("could not publish a game push")
    return done


def connect() -> None:
    """Open the publisher's connection now (at start-up) rather than on the
    first push."""
    _sync_redis().ping()


def _sync_redis() -> Any:
    global _publisher
    if _publisher is None:
        import redis

        _publisher = redis.Redis.from_url(
            settings.REDIS_URL,
            socket_connect_timeout=redis_health.CONNECT_TIMEOUT,
            socket_timeout=redis_health.READ_TIMEOUT,
        )
    return _publisher

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
first local member has this process subscribe to the audience's Redis
channel, and every member waits until Redis has confirmed a subscription
that nothing was sent to undo, so that a socket that takes its snapshot after
joining cannot miss a later version. Delivery is at most once: a process cut
off from Redis misses pushes; once its listener is back it subscribes again
and tells the members of every audience that was live to resync (``RESYNC``).
Clients also ask for the current version when a socket has been quiet for a
while (``static/js/live.js``), which covers a push lost on its way out. Chat,
presence and the lobby lists stay on the channel layer; only the
version-framed game pushes come through here.

How the subscriptions are kept right (issue #15). The earlier version sent
SUBSCRIBE from each joining socket's own task on a shared redis-py
``PubSub``, and read it from a listener polling with a timeout. Sockets
joining at once on a fresh process lost their subscriptions:

* redis-py's ``PubSub`` takes its connection lazily, ``if self.connection is
  None: self.connection = await pool.get_connection()``: several first
  SUBSCRIBEs at once each saw no connection, each opened one, and the last
  to finish replaced the others. The listener reads only the current one, so
  a socket whose SUBSCRIBE went out on another never had its confirmation
  read (a 5 s handshake timeout), or had it read and then no push at all, or
  stopped in mid-game when the listener moved on to the newer connection
  (still subscribed, on a connection nobody read).
* An UNSUBSCRIBE (the last member leaving) and a SUBSCRIBE (a new first
  member) of one channel could cross, and a confirmation of the earlier
  SUBSCRIBE was taken for the later one.
* A socket cancelled while its SUBSCRIBE was on its way made redis-py drop
  the connection; the library reconnected and resubscribed by itself, but
  nobody learnt that pushes had been missed meanwhile.

Now one task per event loop owns the connection (``_Hub.run``): it opens a
fresh ``PubSub`` (with redis-py's own retries off, so a dropped connection
surfaces here instead of being mended silently), and has one writer and one
reader on it. Joining and leaving only change the wanted set (``members``)
and wake the writer, which sends the difference from what it has sent, so
commands never race each other and many joins at once become one SUBSCRIBE.
Redis answers every channel of a (UN)SUBSCRIBE with one reply, in order; an
audience is live once the replies to everything sent for its channel are in
and the last thing sent was SUBSCRIBE. If the connection fails, the task
starts again on a new one, subscribes to every wanted channel, and audiences
that were live get ``RESYNC`` once their subscription is confirmed again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import threading
from collections import Counter
from typing import Any, Protocol

from django.conf import settings

from common import redis_health

logger = logging.getLogger(__name__)

SUBSCRIBE_TIMEOUT = 5.0  # seconds
# After the listener's connection fails, wait this long before the next try,
# doubling up to the most while Redis stays away.
RECONNECT_DELAY = 0.1  # seconds
RECONNECT_DELAY_MOST = 5.0  # seconds
# What a member is handed when pushes may have been missed (its audience's
# subscription was lost and is back): it should send its client a snapshot.
RESYNC: dict[str, Any] = {"type": "game.resync"}
# A member's frame goes on the wire when the event loop next polls its socket
# (Twisted buffers what Channels' send hands it), so the delivery yields to
# the loop after every few such members rather than making all of them wait
# for the last (about 0.1 ms each). Each yield costs a poll. On the 2-core
# VM's bench-live (50 sockets) any of every 1, 3, 5 or 10 beat yielding only
# at the end by several ms at the median; 5 was slightly ahead, within the
# noise. A member with nothing to write (a closed socket, a version it has)
# needs no yield.
FLUSH_EVERY = 5
_TOKEN = secrets.token_hex(8)


class Member(Protocol):
    async def deliver(self, message: dict[str, Any]) -> bool | None:
        """True if nothing of the message waits for the loop to go out."""
        ...


def _origin() -> str:
    # Per process, also after a fork: our own publishes are delivered directly.
    return f"{os.getpid()}-{_TOKEN}"


def _envelope(message: dict[str, Any]) -> str:
    return json.dumps({"o": _origin(), "m": message})


def _own(data: bytes | str) -> bool:
    """Whether ``data`` is this process's own publish, come back from Redis
    while its sockets are being written: told by the envelope's first bytes
    rather than by parsing a push of several kilobytes on the event loop."""
    mine = _envelope({})[:-8]  # '{"o": "<origin>", '
    if isinstance(data, bytes):
        return data.startswith(mine.encode())
    return data.startswith(mine)


def channel_for(group: str) -> str:
    return f"{settings.REDIS_PREFIX}:push:{group}"


def listener_name() -> str:
    """The Redis client name of this process's listener connections (seen in
    CLIENT LIST; the tests cut exactly these)."""
    prefix = "".join(
        c if c.isascii() and c.isprintable() and c != " " else "-" for c in settings.REDIS_PREFIX
    )
    return f"{prefix}:push-listener:{os.getpid()}"  # CLIENT SETNAME takes no spaces


class _Hub:
    """The members of one event loop (Daphne has one; tests make several),
    and the one task that keeps this loop's Redis subscriptions."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.prefix = channel_for("")
        # Wanted: an audience is here while it has a member.
        self.members: dict[str, list[Member]] = {}
        # Per audience, done once the members' subscription is confirmed.
        self.ready: dict[str, asyncio.Future[None]] = {}
        # Audiences that were live when the connection failed: their members
        # are told to resync once they are live again.
        self.missed: set[str] = set()
        # On the current connection: the audiences whose last command was
        # SUBSCRIBE, and the commands per audience not answered yet.
        self.sent: set[str] = set()
        self.unanswered: Counter[str] = Counter()
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.redis: Any = None

    # --- membership (called on the loop, never awaits) -----------------------

    def add(self, group: str, member: Member) -> asyncio.Future[None]:
        """Add ``member``; returns the future that is done once it is live."""
        if group not in self.members:
            self.members[group] = []
            self.ready[group] = self.loop.create_future()
            self.changed.set()
        self.members[group] = [*self.members[group], member]
        if self.task is None:
            self.task = self.loop.create_task(self.run())
        return self.ready[group]

    def remove(self, group: str, member: Member) -> None:
        remaining = [m for m in self.members.get(group, ()) if m is not member]
        if remaining:
            self.members[group] = remaining
        elif group in self.members:
            del self.members[group]
            del self.ready[group]
            self.missed.discard(group)
            self.changed.set()

    # --- the connection --------------------------------------------------------

    async def run(self) -> None:
        """Keep this loop's subscriptions, on one connection after another."""
        from redis import asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.redis = aioredis.Redis.from_url(
            settings.REDIS_URL,
            retry=Retry(NoBackoff(), 0),
            client_name=listener_name(),
            socket_connect_timeout=redis_health.CONNECT_TIMEOUT,
            socket_keepalive=True,
        )
        delay = RECONNECT_DELAY
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.connect()
                delay = RECONNECT_DELAY
                await self.session(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("game push listener lost Redis; reconnecting", exc_info=True)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            self.lost()
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_DELAY_MOST)

    async def session(self, pubsub: Any) -> None:
        """Read and write on one connection until either fails."""
        self.sent.clear()
        self.unanswered.clear()
        self.changed.set()  # everything wanted is to be sent on this connection
        tasks = [
            self.loop.create_task(self.read(pubsub)),
            self.loop.create_task(self.write(pubsub)),
        ]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # raises what ended it
            raise ConnectionError("the push listener stopped")
        finally:
            for task in tasks:
                await _finish(task)

    def lost(self) -> None:
        """The connection failed: nothing is subscribed any more. Audiences
        that were live may have missed pushes; new members of theirs wait
        for the next connection's confirmation like anyone else."""
        self.sent.clear()
        self.unanswered.clear()
        for group, ready in self.ready.items():
            if ready.done():
                self.missed.add(group)
                self.ready[group] = self.loop.create_future()

    async def write(self, pubsub: Any) -> None:
        """Send what is wanted and not sent, and unsend what is no longer
        wanted: the only place commands are sent."""
        while True:
            await self.changed.wait()
            self.changed.clear()
            wanted = set(self.members)
            gone = self.sent - wanted
            new = wanted - self.sent
            # Left and joined again before this ran: the subscription stood
            # all along; if it is confirmed, the new members are live now.
            for group in wanted & self.sent:
                if not self.unanswered[group]:
                    self.confirmed(group)
            # Bookkeeping first: the replies may be read before send returns.
            self.sent -= gone
            self.sent |= new
            self.unanswered.update(gone | new)
            if gone:
                await pubsub.unsubscribe(*(channel_for(g) for g in gone))
            if new:
                await pubsub.subscribe(*(channel_for(g) for g in new))

    async def read(self, pubsub: Any) -> None:
        while True:
            message = await pubsub.get_message(timeout=None)
            if message is not None:
                self.received(message)

    def received(self, message: dict[str, Any]) -> None:
        channel = message["channel"]
        if channel is None:
            return  # a PONG: never asked for
        if isinstance(channel, bytes):
            channel = channel.decode()
        group = channel.removeprefix(self.prefix)
        kind = message["type"]
        if kind in ("subscribe", "unsubscribe"):
            self.unanswered[group] -= 1
            if self.unanswered[group] <= 0:
                del self.unanswered[group]
                if kind == "subscribe" and group in self.sent:
                    self.confirmed(group)
            return
        if kind != "message" or _own(message["data"]):
            return  # ours was delivered directly when it was published
        try:
            data = json.loads(message["data"])
        except ValueError:
            return
        self.spawn([(group, data["m"])])

    def confirmed(self, group: str) -> None:
        ready = self.ready.get(group)
        if ready is not None and not ready.done():
            ready.set_result(None)
        if group in self.missed:
            self.missed.discard(group)
            self.spawn([(group, RESYNC)])

    # --- delivery --------------------------------------------------------------

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
        if self.task is not None:
            await _finish(self.task)
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()


async def _finish(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait until it has ended, cancelling again if it
    goes on: on Python 3.11 ``asyncio.wait_for``, which redis-py sends
    commands through (its socket timeout), loses a cancellation that comes
    as the command completes (bpo-42130, fixed in 3.12), and the task would
    carry on to wait for its next command for good."""
    while not task.done():
        task.cancel()
        # Long enough for the task's own clean-up to finish undisturbed.
        await asyncio.wait([task], timeout=1.0)
    if not task.cancelled() and task.exception() is not None:
        logger.debug("push listener task ended", exc_info=task.exception())


_hubs: dict[asyncio.AbstractEventLoop, _Hub] = {}
_hubs_lock = threading.Lock()  # publish() reads _hubs from other threads
_publisher: Any = None


async def join(group: str, member: Member) -> None:
    """Add ``member`` to ``group`` here; returns once pushes published from
    now on, by any process, will reach it. Raises TimeoutError (having
    left again) if Redis does not confirm in time."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = _Hub(loop)
    ready = hub.add(group, member)
    try:
        # Shielded: one member giving up must not cancel the others' wait.
        # (asyncio.timeout, not wait_for: see _finish.)
        async with asyncio.timeout(SUBSCRIBE_TIMEOUT):
            await asyncio.shield(ready)
    except BaseException:
        await leave(group, member)
        raise


async def leave(group: str, member: Member) -> None:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        return
    hub.remove(group, member)
    if not hub.members:
        # Nobody left on this loop: close its connection. A join from now on
        # makes a new hub (this one is out of _hubs before anything awaits).
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
                pipe.publish(channel_for(group), _envelope(message))
            pipe.execute()
    except redis_health.RedisDown:
        pass  # said when it went down (redis_health)
    except Exception:
        # Other processes miss this version; their clients resync on the
        # next, or when their socket has been quiet for a while.
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
            settings.REDIS_URL, **redis_health.client_options(asynchronous=False)
        )
    return _publisher

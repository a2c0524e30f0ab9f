"""Whether Redis answers, as this process last found out (issue 15).

Redis is a cache and a transport, never the only copy of anything that must
happen, so the site keeps serving while it is away. What it must not do is pay
for a dead Redis on every request: a refused connection is quick, but a Redis
that does not answer at all (a host gone from the network) holds each caller
for the whole connect timeout. So once calls have failed with no success
between them for ``FAILING_SECONDS`` (and at least twice), every caller is
told at once, for ``DOWN_SECONDS``, that Redis is down; then the next call
tries again and, if Redis answers, everything carries on (the connection
pools reconnect by themselves). So only the calls of about
``FAILING_SECONDS`` in each ``DOWN_SECONDS`` pay the ``CONNECT_TIMEOUT`` (or
``READ_TIMEOUT``, for a Redis that takes connections and never answers).

Why not simply two failures in a row: after a Redis restart every pooled
connection that was idle is dead, and redis-py's asyncio pools hand them out
without noticing, so each fails its next command once. The site's own
clients retry that at once on a fresh connection (``client_options``), but
the channel layer's must not (its blocking receive has to fail when Redis
restarts, so that the socket reconnects and joins its groups again), and a
reconnecting crowd met several of those in a row. Each time Redis was taken
for down and every handshake refused for a second: in the 200-game soak,
spectators were closed with try-again-later for 7 s after Redis had come
back in 0.1 s.

The cache (``common.cache``), presence, the push fan-out and the
socket handshake all go through this; the channel layer and Celery have their
own timeouts (settings).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.retry import Retry

logger = logging.getLogger(__name__)

CONNECT_TIMEOUT = 0.5  # seconds; Redis is on the local network
READ_TIMEOUT = 1.0  # seconds; every command the site sends is short
DOWN_SECONDS = 1.0
FAILURES_TO_BE_DOWN = 2
# Failures with no success between them for this long mean Redis is down.
# Dead pooled connections fail within moments of each other, and other calls
# succeed meanwhile; a Redis that is gone fails everything.
FAILING_SECONDS = 0.25
# Connections per pool. redis-py 8's asyncio pools stop at 100, and the
# sockets of one Daphne reconnecting together after a fault asked for more
# at once ("Too many connections", which was taken for Redis down).
POOL_MOST = 1000

T = TypeVar("T")

_lock = threading.Lock()
_down_until = 0.0
_down_since: float | None = None
_failures = 0
_failing_since = 0.0
_on_recovery: list[Callable[[], None]] = []


class RedisDown(RedisConnectionError):
    """Redis failed a moment ago: not tried again yet."""


def is_down() -> bool:
    return time.monotonic() < _down_until


def check() -> None:
    """``RedisDown`` while Redis is taken to be down."""
    if is_down():
        raise RedisDown("Redis did not answer a moment ago")


def failed(exc: BaseException) -> None:
    """Count a failed call. A few may be pooled connections that died when
    Redis restarted (each is replaced on its next use), so Redis is taken to
    be down once calls have failed, and none succeeded, for
    ``FAILING_SECONDS``."""
    global _down_until, _down_since, _failures, _failing_since
    now = time.monotonic()
    with _lock:
        _failures += 1
        if _failures == 1:
            _failing_since = now
        if _failures < FAILURES_TO_BE_DOWN or now - _failing_since < FAILING_SECONDS:
            return
        _down_until = now + DOWN_SECONDS
        first = _down_since is None
        if first:
            _down_since = now
    if first:
        logger.error("Redis does not answer (%s); carrying on without it", exc)


def succeeded() -> None:
    global _down_since, _failures
    _failures = 0
    if _down_since is None:
        return
    with _lock:
        since, _down_since = _down_since, None
    if since is None:
        return
    logger.warning("Redis answers again after %.1f s", time.monotonic() - since)
    for hook in list(_on_recovery):
        try:
            hook()
        except Exception:
            logger.exception("A clean-up after Redis came back failed")


def on_recovery(hook: Callable[[], None]) -> None:
    """Call ``hook`` each time Redis answers after failing."""
    _on_recovery.append(hook)


# What a lost Redis raises: redis-py's errors, and plain socket errors from
# the channel layer's connections.
ERRORS = (RedisError, OSError)


@contextmanager
def guarded() -> Iterator[None]:
    """Around Redis calls: refused at once (``RedisDown``) while Redis is
    down; a failure (any of ``ERRORS``) marks it down; a success, up."""
    check()
    try:
        yield
    except ERRORS as exc:
        if not isinstance(exc, RedisDown):
            failed(exc)
        raise
    succeeded()


def call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, a Redis call, ``guarded``."""
    with guarded():
        return fn(*args, **kwargs)


def available() -> bool:
    """Whether Redis answers now: a PING unless it failed a moment ago (the
    cache's client tries a dead pooled connection again on a fresh one)."""
    from django.core.cache import cache

    client: Any = cache  # common.cache.RedisCache
    try:
        call(lambda: client.redis().ping())
    except RedisError:
        return False
    return True


# One immediate retry, on connection errors only. Each connection takes a
# copy; one instance each, because the cache keys its clients by their
# options' repr.
_RETRY = Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,))
_ASYNC_RETRY = AsyncRetry(NoBackoff(), 1, supported_errors=(RedisConnectionError,))


def client_options(*, asynchronous: bool) -> dict[str, Any]:
    """Options for the site's own Redis clients: short timeouts, room for a
    crowd, and one immediate retry on a fresh connection when a pooled one
    turns out to be dead (Redis restarted since it was last used). Only
    connection errors are retried: a Redis that does not answer costs one
    timeout, not two."""
    return {
        "socket_connect_timeout": CONNECT_TIMEOUT,
        "socket_timeout": READ_TIMEOUT,
        "max_connections": POOL_MOST,
        "retry": _ASYNC_RETRY if asynchronous else _RETRY,
    }


def reset() -> None:
    """Forget any failure (tests)."""
    global _down_until, _down_since, _failures
    with _lock:
        _down_until, _down_since, _failures = 0.0, None, 0


_loop_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, aioredis.Redis]] = (
    weakref.WeakKeyDictionary()
)


def loop_client(url: str) -> aioredis.Redis:
    """The site's asyncio client of ``url`` for the running event loop: a
    client and its pool belong to one loop, and every caller on that loop
    shares them."""
    clients = _loop_clients.setdefault(asyncio.get_running_loop(), {})
    client = clients.get(url)
    if client is None:
        client = clients[url] = aioredis.Redis.from_url(url, **client_options(asynchronous=True))
    return client

"""Whether Redis answers, as this process last found out (issue 15).

Redis is a cache and a transport, never the only copy of anything that must
happen, so the site keeps serving while it is away. What it must not do is pay
for a dead Redis on every request: a refused connection is quick, but a Redis
that does not answer at all (a host gone from the network) holds each caller
for the whole connect timeout. So after two failures in a row (one alone may
be a pooled connection gone stale in a restart) every caller is told at once,
for ``DOWN_SECONDS``, that Redis is down; then the next call tries again and,
if Redis answers, everything carries on (the connection pools reconnect by
themselves). So at most two calls in each ``DOWN_SECONDS`` pay the
``CONNECT_TIMEOUT`` (or ``READ_TIMEOUT``, for a Redis that takes connections
and never answers).

The cache (``monopoly_site.cache``), presence, the push fan-out and the
socket handshake all go through this; the channel layer and Celery have their
own timeouts (settings).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

CONNECT_TIMEOUT = 0.5  # seconds; Redis is on the local network
READ_TIMEOUT = 1.0  # seconds; every command the site sends is short
DOWN_SECONDS = 1.0
FAILURES_TO_BE_DOWN = 2

T = TypeVar("T")

_lock = threading.Lock()
_down_until = 0.0
_down_since: float | None = None
_failures = 0
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
    """Count a failed call. One alone may be a pooled connection that went
    stale while Redis restarted (the pool opens a new one next time), so
    Redis is taken to be down from the second failure in a row."""
    global _down_until, _down_since, _failures
    with _lock:
        _failures += 1
        if _failures < FAILURES_TO_BE_DOWN:
            return
        _down_until = time.monotonic() + DOWN_SECONDS
        first = _down_since is None
        if first:
            _down_since = time.monotonic()
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
    """Whether Redis answers now: a PING (a second one if the first met a
    stale connection) unless it failed a moment ago."""
    from django.core.cache import cache

    client: Any = cache
    for _ in range(FAILURES_TO_BE_DOWN):
        try:
            call(lambda: client._cache.get_client(write=True).ping())
        except RedisError:
            continue
        return True
    return False


def reset() -> None:
    """Forget any failure (tests)."""
    global _down_until, _down_since, _failures
    with _lock:
        _down_until, _down_since, _failures = 0.0, None, 0

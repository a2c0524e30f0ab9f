"""Django's Redis cache with one client, and so one connection pool, per process.

Under ASGI Django keeps its cache objects per request context, and each stock
``RedisCache`` builds a connection pool of its own, so every request opened a
fresh connection to Redis (a TCP handshake, then redis-py's ``CLIENT SETINFO``
round trips) before its first cache read: about 3 ms on the session read of
every signed-in request. The client is thread-safe and redis-py's pools
reconnect after a fork (Celery's workers), so one per process is enough.

It also counts rate-limit windows in one round trip (``count_windows``).

A cache must not take the site down with it (issue 15): while Redis does not
answer, reads miss, writes are dropped and ``add`` succeeds (nobody holds a
lock that nothing can store), and failures mark Redis down for a moment so
that the next calls do not wait on it (``monopoly_site.redis_health``). A key
whose write or delete was dropped is deleted once Redis answers again, so that
no copy older than the database's (a session since logged out of or changed)
outlives the outage.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import RedisError

from monopoly_site import redis_health

logger = logging.getLogger(__name__)

_clients: dict[tuple[tuple[str, ...], str], Any] = {}
_lock = threading.Lock()

# KEYS: counters; ARGV[1]: "1" to count or "0" to read; ARGV[i + 1]: the
# seconds of KEYS[i]'s window. Returns each counter's value and seconds left.
# A counter without an expiry (never expected) is given one, so no count
# can outlive its window.
_COUNT_WINDOWS = """
local out = {}
for i, key in ipairs(KEYS) do
  local count = 0
  if ARGV[1] == "1" then
    count = redis.call("INCR", key)
  else
    count = tonumber(redis.call("GET", key) or "0")
  end
  local left = redis.call("TTL", key)
  if count > 0 and left < 0 then
    left = tonumber(ARGV[i + 1])
    redis.call("EXPIRE", key, left)
  end
  out[#out + 1] = count
  out[#out + 1] = left
end
return out
"""


STALE_KEPT = 100_000  # keys remembered per process: an outage can be long and busy


class _SoftClient(RedisCacheClient):
    """Django's client, failing soft while Redis does not answer."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Keys whose write or delete could not reach Redis, to delete once
        # it answers again.
        self.stale: set[str] = set()
        self.stale_lock = threading.Lock()
        redis_health.on_recovery(self.forget_stale)

    def forget_stale(self) -> None:
        with self.stale_lock:
            keys = list(self.stale)
        for start in range(0, len(keys), 1000):
            batch = keys[start : start + 1000]
            try:
                self.get_client(write=True).delete(*batch)
            except RedisError:
                logger.warning("Could not delete %d stale cache keys yet", len(keys) - start)
                return
            with self.stale_lock:
                self.stale.difference_update(batch)

    def _soft(self, fn: Callable[..., Any], fallback: Any, keys: Iterable[str], *args: Any) -> Any:
        try:
            return redis_health.call(fn, *args)
        except RedisError:
            lost = list(keys)
            with self.stale_lock:
                if len(self.stale) + len(lost) <= STALE_KEPT:
                    self.stale.update(lost)
                elif lost:
                    logger.error("Too many cache writes lost to remember; stale keys may stay")
            return fallback

    def add(self, key: Any, value: Any, timeout: Any) -> Any:
        return self._soft(super().add, True, [key], key, value, timeout)

    def get(self, key: Any, default: Any) -> Any:
        return self._soft(super().get, default, [], key, default)

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        self._soft(super().set, None, [key], key, value, timeout)

    def touch(self, key: Any, timeout: Any) -> Any:
        return self._soft(super().touch, False, [], key, timeout)

    def delete(self, key: Any) -> Any:
        return self._soft(super().delete, False, [key], key)

    def get_many(self, keys: Any) -> Any:
        return self._soft(super().get_many, {}, [], keys)

    def has_key(self, key: Any) -> Any:
        return self._soft(super().has_key, False, [], key)

    def incr(self, key: Any, delta: Any) -> Any:
        # A counter cannot be made up: callers catch the error.
        return redis_health.call(super().incr, key, delta)

    def set_many(self, data: Any, timeout: Any) -> Any:
        return self._soft(super().set_many, [], list(data), data, timeout)

    def delete_many(self, keys: Any) -> Any:
        keys = list(keys)
        return self._soft(super().delete_many, None, keys, keys)


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        stock: Any = self
        stock._class = _SoftClient
        # Never wait long on a Redis that does not answer: the site goes on
        # without it; a dead pooled connection is tried again on a fresh one
        # (monopoly_site/redis_health.py).
        stock._options = {**redis_health.client_options(asynchronous=False), **stock._options}

    @cached_property
    def _cache(self) -> Any:
        stock: Any = self  # Django's own attributes, which its type stubs leave out
        key = (tuple(stock._servers), repr(sorted(stock._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = stock._class(stock._servers, **stock._options)
        return client

    def count_windows(
        self, windows: Sequence[tuple[str, int]], *, count: bool = True
    ) -> list[tuple[int, int]]:
        """For each ``(key, seconds)``, add one to the key's counter (unless
        ``count`` is false), opening a window of ``seconds`` when none is
        open; return each counter and the seconds left in its window. One
        atomic round trip for all of them, since rate limits
        (``monopoly_site/ratelimit.py``) run before every move."""
        if not windows:
            return []
        keys = [self.make_and_validate_key(key) for key, _ in windows]
        client = self._cache.get_client(keys[0], write=True)
        script = client.register_script(_COUNT_WINDOWS)
        args = ["1" if count else "0", *(s for _, s in windows)]
        flat = redis_health.call(script, keys=keys, args=args)
        return [(int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2)]

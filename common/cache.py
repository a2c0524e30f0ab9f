"""Django's Redis cache with one connection pool per process, failing soft.

Under ASGI Django keeps its cache objects per request context, and each stock
``RedisCache`` builds a connection pool of its own, so every request opened a
fresh connection to Redis (a TCP handshake, then redis-py's ``CLIENT SETINFO``
round trips) before its first cache read: about 3 ms on the session read of
every signed-in request. Django's ``pool_class`` option names the pool class
its client asks for a pool; ``ProcessConnectionPool`` hands back the one this
process already has for that address and options. redis-py's pools reconnect
after a fork (Celery's workers).

It also counts rate-limit windows in one round trip (``count_windows``).

A cache must not take the site down with it (issue 15): while Redis does not
answer, reads miss, writes are dropped and ``add`` succeeds (nobody holds a
lock that nothing can store), and failures mark Redis down for a moment so
that the next calls do not wait on it (``common.redis_health``). A key
whose write or delete was dropped is deleted once Redis answers again, so that
no copy older than the database's (a session since logged out of or changed)
outlives the outage.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.utils.module_loading import import_string
from redis.exceptions import RedisError

from common import redis_health

logger = logging.getLogger(__name__)

_pools: dict[tuple[str, str], redis.ConnectionPool] = {}
_lost: dict[str, LostWrites] = {}
_lock = threading.Lock()

_COUNT_WINDOWS = """
local out = {}
for i, key in ipairs(KEYS) do
  local count = 0
  if string.sub(ARGV[1], i, i) == "1" then
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


_clients: dict[int, redis.Redis] = {}


class ProcessConnectionPool(redis.ConnectionPool):
    """redis-py's pool, made once per process for each address and options."""

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Any:
        key = (url, repr(sorted(kwargs.items())))
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = super().from_url(url, **kwargs)
        return pool


class LostWrites:
    """Keys of one Redis whose write or delete could not reach it, deleted
    once it answers again."""

    def __init__(self, connect: Callable[[], redis.Redis]) -> None:
        self.connect = connect
        self.keys: set[str] = set()
        self.lock = threading.Lock()
        redis_health.on_recovery(self.forget)

    def add(self, keys: list[str]) -> None:
        with self.lock:
            if len(self.keys) + len(keys) <= STALE_KEPT:
                self.keys.update(keys)
            elif keys:
                logger.error("Too many cache writes lost to remember; stale keys may stay")

    def forget(self) -> None:
        with self.lock:
            keys = list(self.keys)
        for start in range(0, len(keys), 1000):
            batch = keys[start : start + 1000]
            try:
                self.connect().delete(*batch)
            except RedisError:
                logger.warning("Could not delete %d stale cache keys yet", len(keys) - start)
                return
            with self.lock:
                self.keys.difference_update(batch)


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        # Never wait long on a Redis that does not answer: the site goes on
        # without it; a dead pooled connection is tried again on a fresh one
        # (common/redis_health.py).
        options = {
            "pool_class": ProcessConnectionPool,
            **redis_health.client_options(asynchronous=False),
            **params.get("OPTIONS", {}),
        }
        super().__init__(server, {**params, "OPTIONS": options})
        self.write_url = re.split("[;,]", server)[0] if isinstance(server, str) else server[0]
        # As Django's client builds its pools' options, so that ``redis()``
        # shares the cache's own pool.
        parser_class = options.get("parser_class") or redis.connection.DefaultParser
        self.pool_options = {
            **{k: v for k, v in options.items() if k not in ("pool_class", "serializer")},
            "parser_class": import_string(parser_class)
            if isinstance(parser_class, str)
            else parser_class,
        }
        with _lock:
            lost = _lost.get(self.write_url)
            if lost is None:
                lost = _lost[self.write_url] = LostWrites(self.redis)
        self.lost = lost

    def redis(self) -> redis.Redis:
        """A client of the Redis the cache writes to (for what Django's cache
        API does not offer)."""
        pool = ProcessConnectionPool.from_url(self.write_url, **self.pool_options)
        # One client per pool: building one costs more than a round trip
        # (redis-py fills its reply callbacks for each), and rate limits ask
        # for one on every request.
        client = _clients.get(id(pool))
        if client is None or client.connection_pool is not pool:
            client = _clients[id(pool)] = redis.Redis(connection_pool=pool)
        return client

    def _soft(
        self, call: Callable[[], Any], fallback: Any, keys: Iterable[Any] = (), version: Any = None
    ) -> Any:
        try:
            return redis_health.call(call)
        except RedisError:
            self.lost.add([self.make_and_validate_key(key, version=version) for key in keys])
            return fallback

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        call = functools.partial(super().add, key, value, timeout, version)
        return self._soft(call, True, [key], version)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._soft(functools.partial(super().get, key, default, version), default)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        call = functools.partial(super().set, key, value, timeout, version)
        self._soft(call, None, [key], version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._soft(functools.partial(super().touch, key, timeout, version), False)

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._soft(functools.partial(super().delete, key, version), False, [key], version)

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._soft(functools.partial(super().get_many, keys, version), {})

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._soft(functools.partial(super().has_key, key, version), False)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        # A counter cannot be made up: callers catch the error.
        return redis_health.call(super().incr, key, delta, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        call = functools.partial(super().set_many, data, timeout, version)
        return self._soft(call, [], list(data), version)

    def delete_many(self, keys: Any, version: Any = None) -> None:
        keys = list(keys)
        self._soft(functools.partial(super().delete_many, keys, version), None, keys, version)

    def count_windows(
        self, windows: Sequence[tuple[str, int]], *, count: bool | Sequence[bool] = True
    ) -> list[tuple[int, int]]:
        """For each ``(key, seconds)``, add one to the key's counter (unless
        ``count`` is false, or false for that window), opening a window of
        ``seconds`` when none is open; return each counter and the seconds
        left in its window. One atomic round trip for all of them, since
        rate limits (``common/ratelimit.py``) run before every move."""
        if not windows:
            return []
        keys = [self.make_and_validate_key(key) for key, _ in windows]
        script = self.redis().register_script(_COUNT_WINDOWS)
        counted = [count] * len(windows) if isinstance(count, bool) else list(count)
        assert len(counted) == len(windows)
        flags = "".join("1" if c else "0" for c in counted)
        args = [flags, *(s for _, s in windows)]
        flat = redis_health.call(script, keys=keys, args=args)
        return [(int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2)]

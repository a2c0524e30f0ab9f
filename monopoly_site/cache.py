"""Django's Redis cache with one client, and so one connection pool, per process.

Under ASGI Django keeps its cache objects per request context, and each stock
``RedisCache`` builds a connection pool of its own, so every request opened a
fresh connection to Redis (a TCP handshake, then redis-py's ``CLIENT SETINFO``
round trips) before its first cache read: about 3 ms on the session read of
every signed-in request. The client is thread-safe and redis-py's pools
reconnect after a fork (Celery's workers), so one per process is enough.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.utils.functional import cached_property

_clients: dict[tuple[tuple[str, ...], str], Any] = {}
_lock = threading.Lock()


class RedisCache(DjangoRedisCache):
    @cached_property
    def _cache(self) -> Any:
        stock: Any = self  # Django's own attributes, which its type stubs leave out
        key = (tuple(stock._servers), repr(sorted(stock._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = stock._class(stock._servers, **stock._options)
        return client

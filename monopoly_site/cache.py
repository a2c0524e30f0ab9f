"""Django's Redis cache with one client, and so one connection pool, per process.

Under ASGI Django keeps its cache objects per request context, and each stock
``RedisCache`` builds a connection pool of its own, so every request opened a
fresh connection to Redis (a TCP handshake, then redis-py's ``CLIENT SETINFO``
round trips) before its first cache read: about 3 ms on the session read of
every signed-in request. The client is thread-safe and redis-py's pools
reconnect after a fork (Celery's workers), so one per process is enough.

It also counts rate-limit windows in one round trip (``count_windows``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.utils.functional import cached_property

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
        flat = script(keys=keys, args=["1" if count else "0", *(s for _, s in windows)])
        return [(int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat), 2)]

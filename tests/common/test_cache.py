"""The Redis cache keeps one connection pool per process."""

from __future__ import annotations

import threading

from django.core.cache import caches

from common import cache as cache_module


def test_every_request_context_uses_the_process_connection_pool() -> None:
    # Django makes a cache object per thread or request context; each used to
    # open its own connections to Redis.
    here = caches["default"]
    here.set("shared-pool-check", 1, timeout=5)
    pools = list(cache_module._pools.values())
    elsewhere: list[object] = []

    def other_context() -> None:
        there = caches["default"]
        elsewhere.append(there)
        elsewhere.append(there.get("shared-pool-check"))

    thread = threading.Thread(target=other_context)
    thread.start()
    thread.join()
    assert elsewhere[0] is not here
    assert elsewhere[1] == 1
    assert list(cache_module._pools.values()) == pools  # no pool of its own

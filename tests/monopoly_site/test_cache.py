"""The Redis cache keeps one client (one connection pool) per process."""

from __future__ import annotations

import threading

from django.core.cache import caches


def test_every_request_context_shares_one_redis_client() -> None:
    # Django makes a cache object per thread or request context; each used to
    # open its own connections to Redis.
    here = caches["default"]
    elsewhere: list[object] = []
    thread = threading.Thread(target=lambda: elsewhere.append(caches["default"]))
    thread.start()
    thread.join()
    assert elsewhere[0] is not here
    assert elsewhere[0]._cache is here._cache  # type: ignore[attr-defined]
    here.set("shared-client-check", 1, timeout=5)
    assert elsewhere[0].get("shared-client-check") == 1  # type: ignore[attr-defined]

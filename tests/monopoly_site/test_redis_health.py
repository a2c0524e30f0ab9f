"""A Redis that is gone or does not answer costs the site little time
(``monopoly_site.redis_health``, ``monopoly_site.cache``; issue 15). The
end-to-end outage, with a real Daphne, is in ``test_redis_down.py``."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from celery import Celery
from kombu.exceptions import OperationalError

from monopoly_site import redis_health
from monopoly_site.cache import RedisCache
from tests.live.servers import free_port


@pytest.fixture(autouse=True)
def _forget_failures() -> Iterator[None]:
    redis_health.reset()
    yield
    redis_health.reset()  # other tests share this process's state


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """An address that takes connections and never answers, as a hung Redis
    or a dropped network looks."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"


def _cache(url: str) -> RedisCache:
    return RedisCache(url, {"KEY_PREFIX": "redis-health-test"})


def _gone() -> None:
    """Redis is unreachable, as two failed calls in a row tell."""
    for _ in range(redis_health.FAILURES_TO_BE_DOWN):
        redis_health.failed(ConnectionError("gone"))
    assert redis_health.is_down()


def _timed(call: object) -> float:
    started = time.monotonic()
    call()  # type: ignore[operator]
    return time.monotonic() - started


def test_a_cache_without_redis_misses_and_drops_writes_at_once() -> None:
    cache = _cache(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens
    took = _timed(lambda: cache.set("k", 1))
    assert cache.get("k", "missing") == "missing"
    assert cache.add("lock", 1) is True  # nobody can hold what nothing stores
    assert cache.get_many(["k"]) == {}
    assert took < 0.5
    assert redis_health.is_down()


def test_a_silent_redis_holds_two_calls_for_its_read_timeout_and_the_next_not_at_all(
    silent_redis: str,
) -> None:
    cache = _cache(silent_redis)
    for _ in range(redis_health.FAILURES_TO_BE_DOWN):
        assert _timed(lambda: cache.get("k")) < redis_health.READ_TIMEOUT + 0.5
    assert redis_health.is_down()
    assert _timed(lambda: [cache.get("k") for _ in range(100)]) < 0.05


def test_redis_is_tried_again_a_moment_after_it_failed() -> None:
    from django.core.cache import cache

    _gone()
    assert not redis_health.available()
    deadline = time.monotonic() + redis_health.DOWN_SECONDS + 5
    while not redis_health.available():  # the real Redis answers
        assert time.monotonic() < deadline, "Redis was not tried again"
    cache.set("k", 1)
    assert cache.get("k") == 1


def test_writes_lost_while_redis_was_down_are_deleted_when_it_answers() -> None:
    from django.core.cache import cache

    cache.set("session-like", "old")
    _gone()
    cache.delete("session-like")  # dropped: Redis is down
    cache.set("other", "new")  # dropped too
    deadline = time.monotonic() + redis_health.DOWN_SECONDS + 5
    while not redis_health.available():
        assert time.monotonic() < deadline
    assert cache.get("session-like") is None
    assert cache.get("other") is None


def test_one_failure_alone_may_be_a_stale_connection_and_is_tried_again_at_once() -> None:
    redis_health.failed(ConnectionError("Connection closed by server."))
    assert not redis_health.is_down()
    assert redis_health.available()


def test_a_task_sent_without_a_broker_fails_within_about_a_second() -> None:
    # The site's Celery settings, on a broker that is not there: a request
    # that enqueues a notice must not wait through kombu's default retries.
    app = Celery("probe", set_as_current=False)  # later tests send through the current one
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = f"redis://127.0.0.1:{free_port()}/0"
    started = time.monotonic()
    with pytest.raises(OperationalError):
        app.send_task("monopoly_site.tasks.heartbeat")
    assert time.monotonic() - started < 1.5

"""A Redis that is gone or does not answer costs the site little time
(``common.redis_health``, ``common.cache``; issue 15). The
end-to-end outage, with a real Daphne, is in ``test_redis_down.py``."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from celery import Celery
from kombu.exceptions import OperationalError

from common import redis_health
from common.cache import RedisCache
from tests.live.conftest import run
from tests.live.servers import free_port
from tests.monopoly_site.test_redis_down import RedisServer, started_redis


@pytest.fixture(autouse=True)
def _forget_failures(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # Failures count at once here unless a test says otherwise.
    monkeypatch.setattr(redis_health, "FAILING_SECONDS", 0.0)
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


def test_dead_connections_failing_together_do_not_take_redis_for_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(redis_health, "FAILING_SECONDS", 0.25)
    for _ in range(20):  # a reconnecting crowd meeting dead pooled connections
        redis_health.failed(ConnectionError("Connection closed by server."))
    assert not redis_health.is_down()


def test_calls_failing_for_a_while_take_redis_for_down(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redis_health, "FAILING_SECONDS", 0.05)
    started = time.monotonic()
    while not redis_health.is_down():
        redis_health.failed(ConnectionError("Connection refused"))
        assert time.monotonic() - started < 1.0, "never taken for down"
    assert time.monotonic() - started >= 0.05


def test_a_success_starts_the_count_of_failures_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redis_health, "FAILING_SECONDS", 0.05)
    redis_health.failed(ConnectionError("Connection closed by server."))
    first = time.monotonic()
    while time.monotonic() - first < 0.06:
        redis_health.succeeded()
    redis_health.failed(ConnectionError("Connection closed by server."))
    assert not redis_health.is_down()


@pytest.fixture
def restartable_redis() -> Iterator[RedisServer]:
    yield from started_redis()


def patient(*, asynchronous: bool) -> dict[str, object]:
    """The site's client options (the retry on a dead pooled connection is
    what is tested) with longer timeouts: 150 sockets connecting and
    answered at once on one event loop took longer than the site's 0.5 s
    and 1 s in a CI run while the machine was loaded, and every ping of
    the crowd timed out before Redis was ever restarted."""
    options = redis_health.client_options(asynchronous=asynchronous)
    return {**options, "socket_connect_timeout": 5.0, "socket_timeout": 5.0}


@pytest.mark.slow  # a redis-server of its own restarted under a crowd: in make test-long
def test_the_sites_clients_carry_on_through_a_redis_restart(
    restartable_redis: RedisServer,
) -> None:
    """Every pooled connection dies with the Redis it was open to; redis-py
    hands them out anyway, and each failed its next command, so a crowd
    reconnecting after a restart met a wall of errors."""
    import redis
    import redis.asyncio as aioredis

    async def crowd(client: aioredis.Redis) -> list[object]:
        return await asyncio.gather(*(client.ping() for _ in range(150)), return_exceptions=True)

    async def scenario() -> tuple[list[object], list[object]]:
        client = aioredis.Redis.from_url(restartable_redis.url, **patient(asynchronous=True))
        try:
            before = await crowd(client)  # more at once than redis-py's default pool
            restartable_redis.kill()
            restartable_redis.start()
            return before, await crowd(client)
        finally:
            await client.aclose()

    before, after = run(scenario)  # the browser tests keep a loop running here
    assert before == [True] * 150
    assert after == [True] * 150

    sync = redis.Redis.from_url(restartable_redis.url, **patient(asynchronous=False))
    with ThreadPoolExecutor(8) as threads:
        assert list(threads.map(lambda _: sync.ping(), range(8))) == [True] * 8
        restartable_redis.kill()
        restartable_redis.start()
        assert list(threads.map(lambda _: sync.ping(), range(8))) == [True] * 8
    sync.close()


def test_a_redis_that_refuses_connections_still_fails_fast() -> None:
    import redis

    client = redis.Redis.from_url(
        f"redis://127.0.0.1:{free_port()}/0", **redis_health.client_options(asynchronous=False)
    )
    started = time.monotonic()
    with pytest.raises(redis.ConnectionError):
        client.ping()
    assert time.monotonic() - started < 0.5


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

"""The broker channel closes quietly after its connection is gone, with
messages still reserved (what a Redis restart does to a worker), where
kombu's own channel raises and the worker exits; and an acknowledgement that
fails as Redis goes gives the worker's credit back, where kombu's keeps it
and the worker goes deaf (monopoly_site/broker.py, docs/patches.md). The
tests of kombu's own transport show each defect, and skip, saying so, once a
kombu release no longer has it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from kombu import Connection
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError

from monopoly_site.broker import Transport

QUEUE = f"{settings.REDIS_PREFIX}-broker-test"


def channel_holding_a_reserved_message(transport: Any) -> Iterator[tuple[Any, Any]]:
    connection = Connection(settings.REDIS_URL, transport=transport)
    queue = connection.SimpleQueue(QUEUE)
    channel = queue.channel
    try:
        queue.put("a bot move")
        message = queue.get(timeout=5)
        assert message.payload == "a bot move"  # reserved, not acknowledged
        # As the consumer finds it after the connection was lost and released.
        channel.connection.client = None
        yield channel, message
    finally:
        channel.closed = True
        # Nothing to put back at the tests' exit (a "Logging error" after
        # pytest closed its streams, otherwise): the queue is cleared here.
        channel.qos.restore_at_shutdown = False
        with Connection(settings.REDIS_URL) as cleanup:
            cleanup.SimpleQueue(QUEUE).clear()


def test_a_channel_whose_connection_is_gone_closes_without_raising() -> None:
    for channel, _message in channel_holding_a_reserved_message(Transport):
        assert channel.qos._delivered
        channel.close()
        assert channel.closed


def test_kombus_own_channel_raises_there() -> None:
    # The defect monopoly_site/broker.py works around (kombu #582, #970).
    for channel, _message in channel_holding_a_reserved_message(kombu_redis.Transport):
        try:
            channel.close()
        except AttributeError as exc:
            assert "hostname" in str(exc)
        else:
            pytest.skip("kombu closes such a channel itself now: broker.py's Channel can go")


def test_the_site_sends_its_tasks_through_this_transport() -> None:
    from monopoly_site.celery import app

    assert app.connection_for_write().get_transport_cls() is Transport


def test_an_acknowledgement_after_the_close_is_a_connection_error() -> None:
    # Which Celery recovers from, where kombu's own channel raises AttributeError.
    for channel, message in channel_holding_a_reserved_message(Transport):
        channel.close()
        with pytest.raises(RedisConnectionError):
            message.ack()


@pytest.fixture
def own_redis() -> Iterator[Any]:
    """A redis-server of the test's own, to kill under a reserved message."""
    from tests.monopoly_site.test_redis_down import started_redis

    yield from started_redis()


def reserved_then_redis_killed(transport: Any, own_redis: Any) -> tuple[Any, Any]:
    """A channel with a prefetch of one (a solo worker's credit) holding a
    reserved message, and the message; Redis is gone."""
    connection = Connection(own_redis.url, transport=transport)
    queue = connection.SimpleQueue(QUEUE)
    queue.channel.basic_qos(prefetch_count=1)
    # Nothing to put back at the test's exit: the Redis it came from is gone.
    queue.channel.qos.restore_at_shutdown = False
    queue.put("a sweep")
    message = queue.get(timeout=5)
    assert not queue.channel.qos.can_consume()
    own_redis.kill()
    return queue.channel, message


def test_an_acknowledgement_that_fails_with_redis_gone_gives_the_credit_back(
    own_redis: Any,
) -> None:
    channel, message = reserved_then_redis_killed(Transport, own_redis)
    with pytest.raises(RedisConnectionError):
        message.ack()
    # So the worker sends BRPOP again, finds the connection gone and reconnects.
    assert channel.qos.can_consume()


def test_kombus_own_qos_keeps_the_credit_there(own_redis: Any) -> None:
    # The defect the QoS in monopoly_site/broker.py works around: the
    # worker's credit used up for good, so it never sends BRPOP again.
    channel, message = reserved_then_redis_killed(kombu_redis.Transport, own_redis)
    with pytest.raises(RedisConnectionError):
        message.ack()
    if channel.qos.can_consume():
        pytest.skip("kombu gives the credit back itself now: broker.py's QoS can go")

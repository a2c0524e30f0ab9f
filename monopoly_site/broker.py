"""Celery's Redis transport, kept alive through a Redis restart.

When the broker connection drops, the worker's consumer releases it and
closes its channel; closing a kombu 5.7 Redis channel first drops its pools
and then tries to put the messages the worker had reserved back on the
queue, which needs a new pool from a connection that is already gone
(``AttributeError: 'NoneType' object has no attribute 'hostname'``, kombu
issues #582 and #970). The consumer does not expect that error, so the
whole worker exited as "unrecoverable" on every Redis restart (seen in the
soak: both workers, every time).

Here a channel whose connection is gone raises a connection error on any
use (the restore on close, an acknowledgement arriving after it), which
Celery recovers from, and its close gives up on the restore. Nothing is lost: Redis
redelivers unacknowledged messages after the visibility timeout, and
everything that must happen (bot moves, deadlines) is found in the database
by beat's sweep long before that.

A second defect: an acknowledgement that fails because Redis went away
(kombu's QoS removes the message from Redis's unacked index first, and only
then from its own count of reserved messages) leaves the message counted as
reserved for good. With the worker's prefetch (one a process, and tasks
acknowledged late) that count is the worker's credit: once it is used up,
kombu sends no more BRPOP, takes the broken connection's end for an idle
close, and never notices that Redis went and came back. The worker sat deaf
(make test-long, 2026-11-28: Redis killed as the worker acknowledged a task;
no "Connection to broker lost" within 60 s). Here a failed acknowledgement
still gives the credit back; the error is raised as before, and the next
BRPOP finds the connection gone and reconnects. The message, if Redis kept
it, is delivered again after the visibility timeout, which every task
allows (they take the version they expect and do nothing if it moved on).

``tests/monopoly_site/test_broker.py`` fails when an upgrade of kombu makes
either part unnecessary or breaks it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from kombu.transport import redis, virtual
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)


class QoS(redis.QoS):
    @contextmanager
    def _credit_back_if_redis_is_gone(self, delivery_tag: str) -> Iterator[None]:
        try:
            yield
        except (RedisConnectionError, RedisTimeoutError):
            # Not reserved any more as far as this worker's credit goes.
            virtual.QoS.ack(self, delivery_tag)
            raise

    def ack(self, delivery_tag: str) -> None:
        with self._credit_back_if_redis_is_gone(delivery_tag):
            super().ack(delivery_tag)

    def reject(self, delivery_tag: str, requeue: bool = False) -> None:
        with self._credit_back_if_redis_is_gone(delivery_tag):
            super().reject(delivery_tag, requeue=requeue)


class Channel(redis.Channel):
    QoS = QoS

    def _connparams(self, asynchronous: bool = False) -> dict[str, object]:
        # Any use of a channel whose connection is gone (the restore on
        # close, an acknowledgement that arrives after it) is a connection
        # error, which Celery recovers from, not an AttributeError.
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection is closed")
        params: dict[str, object] = super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]
        return params

    def close(self) -> None:
        try:
            super().close()
        except RedisConnectionError as exc:
            logger.warning("Reserved messages not put back on a closed connection (%s)", exc)


class Transport(redis.Transport):
    Channel = Channel

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
by beat's sweep long before that. ``tests/monopoly_site/test_broker.py``
fails when an upgrade of kombu makes this unnecessary or breaks it.
"""

from __future__ import annotations

import logging

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError

logger = logging.getLogger(__name__)


class Channel(redis.Channel):
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

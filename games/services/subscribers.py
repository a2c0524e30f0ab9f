"""Services announce; the rest of the site listens.

A write ends by announcing a ``Committed`` record. Each subscriber registers
once, in its app's ``AppConfig.ready`` (scheduling in ``games``, the pushes
in ``live``, notices in ``notifications``, ratings in ``ratings``), so that
the write path imports nothing above it. Three moments:

- ``in_transaction``: inside the write's transaction, so that its work
  commits or rolls back with the move (a finished game is rated exactly
  once). It may fail the write.
- ``before_commit``: the write's last step before COMMIT, only for a write
  that says it changes nothing more (``last_write``): a head start on work
  that must still wait for the commit (rendering a push). It may not fail
  the write.
- ``on_commit``: through Django's ``transaction.on_commit``, so nobody hears
  of a change that rolled back. The ``urgent`` subscribers run first (the
  pushes: watchers wait on them, while scheduling and notices cost broker
  round trips), then the others in registration order. A failure is logged
  and does not stop the others: the write has committed, and whatever must
  still happen has a due row that beat's sweep finds.

Inside ``batched()`` (the timer sweep's batch of timeouts) a subscriber with
``on_commit_batch`` hears of the block's commits together as it ends, instead
of each as it commits (the pushes read who listens to all those games in one
round trip), and gets no ``before_commit``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import transaction

from games.services.write import Committed

logger = logging.getLogger(__name__)

Hook = Callable[[Committed], None]
BatchHook = Callable[[list[Committed]], None]


@dataclass(frozen=True)
class Subscriber:
    name: str
    on_commit: Hook | None = None
    before_commit: Hook | None = None
    in_transaction: Hook | None = None
    on_commit_batch: BatchHook | None = None
    urgent: bool = False


_subscribers: dict[str, Subscriber] = {}


def subscribe(subscriber: Subscriber) -> None:
    """Register (or, under the same name, replace) a subscriber."""
    _subscribers[subscriber.name] = subscriber


def subscribers() -> list[Subscriber]:
    ordered = list(_subscribers.values())
    return [s for s in ordered if s.urgent] + [s for s in ordered if not s.urgent]


# The commits of the open ``batched`` block, per thread (None: no block).
_batch = threading.local()


@contextmanager
def batched() -> Iterator[None]:
    """Hold the block's commits for the subscribers with ``on_commit_batch``
    until it ends (nested blocks join the outer one)."""
    if _held() is not None:
        yield
        return
    _batch.records = []
    try:
        yield
    finally:
        records, _batch.records = _batch.records, None
        if records:
            for s in subscribers():
                if s.on_commit_batch is not None:
                    try:
                        s.on_commit_batch(records)
                    except Exception:
                        logger.exception("%s failed on a batch of %s", s.name, len(records))


def _held() -> list[Committed] | None:
    held: list[Committed] | None = getattr(_batch, "records", None)
    return held


def announce(record: Committed) -> None:
    """Tell the subscribers of ``record``: now, before the commit and after it."""
    for s in subscribers():
        if s.in_transaction is not None:
            s.in_transaction(record)
    connection = transaction.get_connection()
    if record.last_write and connection.in_atomic_block:
        batching = _held() is not None
        for s in subscribers():
            if s.before_commit is not None and not (batching and s.on_commit_batch):
                try:
                    s.before_commit(record)
                except Exception:
                    logger.exception("%s could not prepare game %s", s.name, record.game_id)
    transaction.on_commit(lambda: deliver(record))


def deliver(record: Committed) -> None:
    held = _held()
    if held is not None:
        held.append(record)
    for s in subscribers():
        if s.on_commit is None or (held is not None and s.on_commit_batch is not None):
            continue
        try:
            s.on_commit(record)
        except Exception:
            logger.exception("%s failed on game %s v%s", s.name, record.game_id, record.version)

"""Services announce; the rest of the site listens.

A write ends by announcing a ``Committed`` record. Each subscriber registers
once, in its app's ``AppConfig.ready`` (live pushes and scheduling in
``games``, notices in ``notifications``, ratings in ``ratings``), so that
the write path imports nothing above it. Three moments:

- ``in_transaction``: inside the write's transaction, so that its work
  commits or rolls back with the move (a finished game is rated exactly
  once). It may fail the write.
- ``before_commit``: the write's last step before COMMIT, only for a write
  that says it changes nothing more (``last_write``): a head start on work
  that must still wait for the commit (rendering a push). It may not fail
  the write.
- ``on_commit``: through Django's ``transaction.on_commit``, so nobody hears
  of a change that rolled back. Subscribers run in registration order, the
  pushes first, since watchers wait on them and notices cost a broker round
  trip. A failure is logged and does not stop the others: the write has
  committed, and whatever must still happen has a due row that beat's sweep
  finds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from games.services.write import Committed

logger = logging.getLogger(__name__)

Hook = Callable[[Committed], None]


@dataclass(frozen=True)
class Subscriber:
    name: str
    on_commit: Hook | None = None
    before_commit: Hook | None = None
    in_transaction: Hook | None = None


_subscribers: dict[str, Subscriber] = {}


def subscribe(subscriber: Subscriber) -> None:
    """Register (or, under the same name, replace) a subscriber."""
    _subscribers[subscriber.name] = subscriber


def subscribers() -> list[Subscriber]:
    return list(_subscribers.values())


def announce(record: Committed) -> None:
    """Tell the subscribers of ``record``: now, before the commit and after it."""
    for s in subscribers():
        if s.in_transaction is not None:
            s.in_transaction(record)
    connection = transaction.get_connection()
    if record.last_write and connection.in_atomic_block:
        for s in subscribers():
            if s.before_commit is not None:
                try:
                    s.before_commit(record)
                except Exception:
                    logger.exception("%s could not prepare game %s", s.name, record.game_id)
    transaction.on_commit(lambda: deliver(record))


def deliver(record: Committed) -> None:
    for s in subscribers():
        if s.on_commit is None:
            continue
        try:
            s.on_commit(record)
        except Exception:
            logger.exception("%s failed on game %s v%s", s.name, record.game_id, record.version)

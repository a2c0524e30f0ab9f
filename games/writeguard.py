"""Only ``games.services`` writes games, seats, events and deadlines.

The services write these rows in one transaction with the version, the
events, the deadlines and the broadcast; a write from anywhere else (a view,
a task, the admin, a script) can leave a game that its own record
contradicts. So, in the tests and in debug mode, every SQL statement the
site sends passes this guard (an execute wrapper on each database
connection): one that inserts into, updates or deletes from those tables is
let through only inside ``services_writing()``, which the services' own
transaction (``games.services.write.game_transaction``) enters, or
inside ``writes_allowed(reason)``, the named way for everything else (an
account deleted in the admin clears its games' host, migrations, a flush,
test setup, benchmarks). Both are context variables, so what a service runs
inside its block (subscribers, ``on_commit`` hooks that run as its
transaction commits) counts as the service, and nothing outside it does:
not a thread it starts, nor a hook that runs after an outer transaction
the service was called in.

Watching the SQL rather than model signals, it sees what signals miss:
``QuerySet.update``, ``bulk_create``, deletes by query and the hand-built
statements of the hot write path (``games.services.statements``). What it
cannot see: SQL sent around Django's cursors (psql, pg_restore, a raw
psycopg connection of one's own). Cascades are no gap: Django carries out
``on_delete`` itself, with statements that pass here.

``GAME_WRITE_GUARD``: ``raise`` (the tests, and the default with ``DEBUG``),
``log`` (a warning with the stack; the write goes ahead) or ``off`` (the
default in production: no wrapper is installed, so no statement pays for it).

The guard is put first in ``connection.execute_wrappers`` when a connection
is created, rather than entered with Django's ``connection.execute_wrapper()``:
that context manager is for a block of code, and appends to the list and
pops the last entry as the block exits. The guard must hold for the
connection's whole life, on connections opened in threads the site does not
run (Channels' executor, Celery's pool), and a connection is often opened
inside someone else's ``execute_wrapper`` block (``live.broadcast``): an
entry appended there would be the one that block pops.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

_services_writing: ContextVar[bool] = ContextVar("games_services_writing", default=False)
_allowed_reason: ContextVar[str | None] = ContextVar("game_writes_allowed", default=None)
_writes: re.Pattern[str] | None = None


class GameWriteOutsideServices(RuntimeError):
    """A write to a game table from outside ``games.services`` (a bug)."""


@contextmanager
def services_writing() -> Iterator[None]:
    """The services' transaction is open: its writes are the ones meant."""
    token = _services_writing.set(True)
    try:
        yield
    finally:
        _services_writing.reset(token)


@contextmanager
def writes_allowed(reason: str) -> Iterator[None]:
    """Let the code inside write the game tables directly; ``reason`` says,
    to whoever reads the code, why it does not go through the services."""
    if not reason.strip():
        raise ValueError("say why these writes bypass games.services")
    token = _allowed_reason.set(reason)
    try:
        yield
    finally:
        _allowed_reason.reset(token)


def _pattern() -> re.Pattern[str]:
    global _writes
    if _writes is None:
        from games.models import Deadline, Game, GameEvent, Seat

        # Longest first, so that games_game does not stop short of games_gameevent.
        tables = sorted((m._meta.db_table for m in (Game, Seat, GameEvent, Deadline)), key=len)
        names = "|".join(re.escape(t.upper()) for t in reversed(tables))
        # Matched against the statement in capitals: a case-sensitive search
        # is several times faster than re.IGNORECASE (about 4 us for a long
        # SELECT), and every statement passes here.
        _writes = re.compile(rf'(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[`"]?({names})\b')
    return _writes


def check(sql: str) -> None:
    """Refuse (or log) ``sql`` if it writes a game table outside the
    services' transaction and no ``writes_allowed`` is in force."""
    if _services_writing.get() or _allowed_reason.get() is not None:
        return
    found = _pattern().search(sql.upper()) if isinstance(sql, str) else None
    if found is None:
        return
    message = (
        f"{found.group(1).lower()} written outside games.services: go through a service, "
        "or wrap the code in games.writeguard.writes_allowed(reason)"
    )
    if settings.GAME_WRITE_GUARD == "raise":
        raise GameWriteOutsideServices(message)
    logger.warning("%s: %s", message, sql[:200], stack_info=True)


def guard(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    check(sql)
    return execute(sql, params, many, context)


def install(sender: Any = None, *, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: put the guard on the connection (once: the
    signal comes again when it reconnects), unless the guard is off."""
    if settings.GAME_WRITE_GUARD != "off" and guard not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, guard)

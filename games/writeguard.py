"""Only ``games.services`` writes games, seats, events and deadlines.

The services write these rows in one transaction with the version, the
events, the deadlines and the broadcast; a write from anywhere else (a view,
a task, the admin, a script) can leave a game that its own record
contradicts. So every SQL statement the site sends passes this guard (an
execute wrapper on each database connection): one that inserts into, updates
or deletes from those tables is let through only when ``games.services`` is
on the call stack, or inside ``writes_allowed(reason)``, the named way for
everything else (an account deleted in the admin clears its games' host,
test setup, benchmarks). The stack rather than a flag the services set: they
open their transactions in some twenty places, and one forgotten would
refuse a real move; the cost is that code a service calls counts as the
service (its callbacks, ``on_commit`` hooks that run as its block exits).

Watching the SQL rather than model signals, it sees what signals miss:
``QuerySet.update``, ``bulk_create``, deletes by query and the hand-built
statements of the hot write path (``games.services.locking``). What it cannot
see: SQL sent around Django's cursors (psql, pg_restore, a raw psycopg
connection of one's own). Cascades are no gap: Django carries out
``on_delete`` itself, with statements that pass here.

``GAME_WRITE_GUARD``: ``raise`` (the tests), ``log`` (the default in
production: a warning with the stack, the write goes ahead, so a path missed
here cannot take the site down) or ``off`` (not installed).
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

# Callers that may write these tables besides the services, and why.
ALLOWED_CALLERS = (
    "games.services",  # the write path itself
    "django.db.migrations",  # schema and data migrations own the tables
    "django.core.management.commands.flush",  # empties every table (tests)
)
_allowed_reason: ContextVar[str | None] = ContextVar("game_writes_allowed", default=None)
_writes: re.Pattern[str] | None = None


class GameWriteOutsideServices(RuntimeError):
    """A write to a game table from outside ``games.services`` (a bug)."""


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


def _from_allowed_caller() -> bool:
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith(ALLOWED_CALLERS):
            return True
        frame = frame.f_back
    return False


def check(sql: str) -> None:
    """Refuse (or log) ``sql`` if it writes a game table from outside the
    services and no ``writes_allowed`` is in force."""
    found = _pattern().search(sql.upper()) if isinstance(sql, str) else None
    if found is None or _allowed_reason.get() is not None or _from_allowed_caller():
        return
    message = (
        f"{found.group(1).lower()} written outside games.services: go through a service, "
        "or wrap the code in games.writeguard.writes_allowed(reason)"
    )
    if getattr(settings, "GAME_WRITE_GUARD", "log") == "raise":
        raise GameWriteOutsideServices(message)
    logger.warning("%s: %s", message, sql[:200], stack_info=True)


def guard(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    check(sql)
    return execute(sql, params, many, context)


def install(sender: Any = None, *, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: put the guard on the connection (once: the
    signal comes again when it reconnects)."""
    if settings.GAME_WRITE_GUARD != "off" and guard not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, guard)

"""A transactional test's ``flush``, made cheap on PostgreSQL.

Django ends each transactional test with ``flush``: one TRUNCATE of every
table, then ``post_migrate``, which writes the content types and permissions
back. TRUNCATE gives each of the some fifty tables (and each index) new
files: 0.5 to 1.2 s a test on the shared 2-core machine, against 30 to 50 ms
for deleting the few rows a test leaves. And the content types and
permissions come back the same every time: they are kept, and
``post_migrate`` (0.1 to 0.3 s) is skipped, as long as they are exactly what
the last full flush left (one query compares them); otherwise the flush is
the full one.

The tables end up as empty as before. The locks TRUNCATE takes are taken
first, so that a worker still writing waits for the flush (or deadlocks with
it, which the flush retries: ``tests/conftest.py``) rather than adding a row
between two of the deletes. Every foreign key is deferrable (Django makes
them so), so the order of the deletes does not matter. A flush that resets
sequences, or that is not on PostgreSQL, is Django's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connections

KEPT = ("django_content_type", "auth_permission")
# What post_migrate writes, in one value: kept only while it is unchanged.
FINGERPRINT = """
SELECT md5(
  coalesce((SELECT string_agg(concat_ws(':', id, app_label, model), ',' ORDER BY id)
            FROM django_content_type), '')
  || '|' ||
  coalesce((SELECT string_agg(concat_ws(':', id, content_type_id, codename, name), ',' ORDER BY id)
            FROM auth_permission), ''))
"""


class _State:
    # After the last full flush with post_migrate; None: none yet (or one
    # without post_migrate since).
    written: str | None = None
    keep = False  # within a flush that keeps KEPT


def _fingerprint(database: str) -> str:
    with connections[database].cursor() as cursor:
        cursor.execute(FINGERPRINT)
        return str(cursor.fetchone()[0])


@contextmanager
def installed() -> Iterator[None]:
    from django.core.management.commands import flush
    from django.db.backends.postgresql.operations import DatabaseOperations

    original_sql_flush = DatabaseOperations.sql_flush
    original_handle = flush.Command.handle

    def sql_flush(
        self: Any,
        style: Any,
        tables: Any,
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or not tables:
            return original_sql_flush(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        names = [self.quote_name(t) for t in tables if not (_State.keep and t in KEPT)]
        return [
            f"LOCK TABLE {', '.join(names)} IN ACCESS EXCLUSIVE MODE",
            "SET CONSTRAINTS ALL DEFERRED",
            *(f"DELETE FROM {name}" for name in names),
        ]

    def handle(self: Any, **options: Any) -> Any:
        database = options.get("database") or "default"
        if options.get("reset_sequences", True) or connections[database].vendor != "postgresql":
            return original_handle(self, **options)
        inhibit = bool(options.get("inhibit_post_migrate"))
        keep = _State.written is not None and _fingerprint(database) == _State.written
        _State.keep = keep
        try:
            result = original_handle(self, **{**options, "inhibit_post_migrate": inhibit or keep})
        finally:
            _State.keep = False
        if not keep:
            _State.written = None if inhibit else _fingerprint(database)
        return result

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    flush.Command.handle = handle  # type: ignore[method-assign]
    try:
        yield
    finally:
        DatabaseOperations.sql_flush = original_sql_flush  # type: ignore[method-assign]
        flush.Command.handle = original_handle  # type: ignore[method-assign]

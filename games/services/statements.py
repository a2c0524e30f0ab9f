"""Several reads sent together, in one round trip on PostgreSQL.

Writes go through the ORM. The read that opens every write (the game row
locked, its seats and deadline rows, ``write.read_game``) is three SELECTs
run here as one round trip: Django's psycopg cursors bind client-side, so
statements joined by ";" go out as one simple query, each still with a
snapshot of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

Statement = tuple[str, list[Any]]
TUPLES_OK = 2  # psycopg.pq.ExecStatus.TUPLES_OK, without importing psycopg on SQLite


def run_together(statements: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
    """Run the statements in order (inside the caller's transaction) and
    return each one's rows; one round trip on PostgreSQL."""
    connection = transaction.get_connection()
    results: list[list[tuple[Any, ...]]] = []
    with connection.cursor() as cursor:
        if not _binds_client_side(cursor.cursor):
            for sql, params in statements:
                cursor.execute(sql, params)
                results.append(cursor.fetchall() if cursor.description else [])
            return results
        cursor.execute("; ".join(s for s, _ in statements), [p for _, ps in statements for p in ps])
        raw = cursor.cursor
        while True:
            # The result's status, not ``description`` (which builds a
            # Column object per column of every result).
            rows = raw.pgresult is not None and raw.pgresult.status == TUPLES_OK
            results.append(raw.fetchall() if rows else [])
            if not raw.nextset():
                return results


def _binds_client_side(cursor: Any) -> bool:
    """Only a cursor that binds client-side may send several statements with
    parameters at once: psycopg's ``ClientCursor``, Django's default."""
    try:
        from psycopg import ClientCursor
    except ImportError:
        return False
    return isinstance(cursor, ClientCursor)

"""The write path's statements, built by hand and sent together.

A timeout is a full move, and at thousands a minute the cost of a move is
round trips and the ORM building SQL, not the engine. These helpers build
the few statements of a write by hand (once per model, from its fields, so
they follow the models) and run several in one round trip on PostgreSQL:
Django's psycopg cursors bind client-side, so statements joined by ";" go
out as one simple query, each still with a snapshot of its own. Every
write that works on a ``Write`` (a start, a move, a timeout) sends every
change through these (``Write.update``, ``Write.flush``); the lobby's
writes before a start build no ``Write`` and use the ORM.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Model

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


def update_statement(obj: Model, fields: Sequence[str]) -> Statement:
    """``obj.save(update_fields=fields)`` as a statement (``auto_now`` set)."""
    connection = transaction.get_connection()
    qn = connection.ops.quote_name
    meta = obj._meta
    sets, params = [], []
    for name in fields:
        f: Any = meta.get_field(name)
        sets.append(f"{qn(f.column)} = %s")
        params.append(f.get_db_prep_save(f.pre_save(obj, False), connection))
    params.append(obj.pk)
    return (
        f"UPDATE {qn(meta.db_table)} SET {', '.join(sets)} WHERE {qn(meta.pk.column)} = %s",
        params,
    )


def insert_statement(objs: Sequence[Model], *, returning: bool = False) -> Statement:
    """A multi-row insert of ``objs`` (all of one model; ``auto_now_add`` set),
    returning, if asked, their rows in order, every column as
    ``common.rows`` reads them (``reader(model).build``)."""
    connection = transaction.get_connection()
    qn = connection.ops.quote_name
    meta = objs[0]._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    params: list[Any] = []
    for obj in objs:
        params += [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    row = f"({', '.join(['%s'] * len(fields))})"
    sql = (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
        f"VALUES {', '.join([row] * len(objs))}"
    )
    if returning:
        sql += f" RETURNING {', '.join(qn(f.column) for f in meta.concrete_fields)}"
    return sql, params

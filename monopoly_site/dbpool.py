"""The check the database pool makes before it lends a connection.

psycopg_pool's own check sends an empty query, a round trip to PostgreSQL
on every request Daphne serves (a quarter of a millisecond on the 2-core VM,
before anything else the request asks of the database). A connection that
was lent a moment ago is checked by its socket instead: a healthy idle
connection has nothing to read, because PostgreSQL only writes to it unasked
when it is closing it (a restart, an administrator's terminate, an idle
timeout: an error message, then end of file) or for LISTEN, which this site
does not use. A readable socket, a connection libpq no longer calls idle, or
one unused for longer than ``IDLE_CHECK_SECONDS`` (which a firewall may have
dropped without a word) gets the round trip, which raises if the connection
is broken; the pool then discards it and lends another.
"""

from __future__ import annotations

import select
import time
import weakref
from typing import Any

IDLE_CHECK_SECONDS = 30.0

_last_lent: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def check_connection(conn: Any) -> None:
    from psycopg import pq
    from psycopg_pool import ConnectionPool

    now = time.monotonic()
    lent = _last_lent.get(conn)
    _last_lent[conn] = now
    if lent is not None and now - lent < IDLE_CHECK_SECONDS and _quiet(conn, pq):
        return
    ConnectionPool.check_connection(conn)


def _quiet(conn: Any, pq: Any) -> bool:
    pgconn = conn.pgconn
    if pgconn.status != pq.ConnStatus.OK:
        return False
    if pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    poller = select.poll()
    try:
        poller.register(pgconn.socket, select.POLLIN)
        return not poller.poll(0)
    except (OSError, ValueError):
        return False

"""The pool's check lends a connection used a moment ago without a round
trip, and still finds one PostgreSQL has closed (real PostgreSQL)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from monopoly_site import dbpool

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The connections given psycopg_pool's own (round-trip) check."""
    checked: list[Any] = []
    own = ConnectionPool.check_connection

    def counting(conn: Any) -> None:
        checked.append(conn)
        own(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counting))
    return checked


@pytest.fixture
def pool() -> Iterator[ConnectionPool]:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    pool = ConnectionPool(
        kwargs={**params, "autocommit": True},
        check=dbpool.check_connection,
        min_size=1,
        max_size=2,
        open=True,
    )
    pool.wait()
    try:
        yield pool
    finally:
        pool.close()


def pid(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    return int(row[0])


def test_a_connection_lent_a_moment_ago_needs_no_round_trip(
    pool: ConnectionPool, round_trips: list[Any]
) -> None:
    conn = pool.getconn()
    pool.putconn(conn)
    assert len(round_trips) == 1  # the first time it is lent
    for _ in range(3):
        again = pool.getconn()
        assert again is conn
        pool.putconn(again)
    assert len(round_trips) == 1


def test_a_connection_idle_for_long_is_checked_by_a_round_trip(
    pool: ConnectionPool, round_trips: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    pool.putconn(pool.getconn())
    monkeypatch.setattr(dbpool, "IDLE_CHECK_SECONDS", 0.0)
    pool.putconn(pool.getconn())
    assert len(round_trips) == 2


def test_a_connection_postgres_closed_is_replaced_before_it_is_lent(
    pool: ConnectionPool, round_trips: list[Any]
) -> None:
    conn = pool.getconn()
    old = pid(conn)
    pool.putconn(conn)
    checked = len(round_trips)
    with psycopg.connect(**{**connection.get_connection_params(), "autocommit": True}) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [old])
    deadline = time.monotonic() + 5
    while dbpool._quiet(conn, psycopg.pq) and time.monotonic() < deadline:
        time.sleep(0.01)  # until PostgreSQL's farewell reaches the socket
    fresh = pool.getconn(timeout=10)
    try:
        assert pid(fresh) != old
        assert len(round_trips) > checked  # the closed one got the real check, and failed it
    finally:
        pool.putconn(fresh)


def test_the_servers_pool_uses_this_check() -> None:
    """Daphne's settings (DATABASE_POOL) give Django's pool this check."""
    import subprocess
    import sys

    script = (
        "import django; django.setup();"
        "from django.db import connection; from monopoly_site import dbpool;"
        "print(connection.vendor, connection.pool._check is dbpool.check_connection)"
    )
    env = {
        **os.environ,
        "DATABASE_POOL": "true",
        "DJANGO_SETTINGS_MODULE": "monopoly_site.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.split() == ["postgresql", "True"], result.stderr

"""Django's PostgreSQL backend, whose connection pool lends connections after
``monopoly_site.dbpool``'s check instead of psycopg_pool's round trip.

Django builds the pool itself and always passes it a ``check`` (psycopg_pool's,
or none), so the pool's options cannot name another; the pool is handed this
one when Django has built it."""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base

from monopoly_site.dbpool import check_connection


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool  # type: ignore[misc]  # (missing from the stubs)
        if pool is not None and pool._check is not check_connection:
            pool._check = check_connection
        return pool

"""A Daphne's connection pool (DATABASE_POOL) does not lend a connection
PostgreSQL has closed: the request gets a fresh one (real PostgreSQL)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db

# Run in a process of its own: DATABASE_POOL is read when settings load.
SCRIPT = """
import time
import django
django.setup()
import psycopg
from django.db import connection

def backend():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]

assert connection.pool is not None
first = backend()
connection.close()  # back to the pool, as at the end of a request
params = {**connection.get_connection_params(), "autocommit": True}
params.pop("cursor_factory", None)
with psycopg.connect(**params) as admin:
    admin.execute("SELECT pg_terminate_backend(%s)", [first])
    deadline = time.monotonic() + 10
    while admin.execute(
        "SELECT 1 FROM pg_stat_activity WHERE pid = %s", [first]
    ).fetchone() and time.monotonic() < deadline:
        time.sleep(0.01)
second = backend()
print(first != second)
"""


def test_a_connection_postgres_closed_is_not_lent_again() -> None:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {
        **os.environ,
        "DATABASE_POOL": "true",
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "monopoly_site.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.split() == ["True"], result.stderr

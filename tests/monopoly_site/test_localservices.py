"""The test runner's housekeeping on the real PostgreSQL server."""

from __future__ import annotations

import os

import psycopg
import pytest
from django.conf import settings

from monopoly_site import localservices
from monopoly_site.localservices import drop_test_databases

SERVER = "postgres://postgres@127.0.0.1:5432"


def _databases(conn: psycopg.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT datname FROM pg_database")}


@pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="needs the PostgreSQL server (CI always has it)",
)
def test_leftover_test_databases_of_finished_runs_are_dropped() -> None:
    dead = 4_194_304  # Linux pids stay below 2**22: no process has it
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        mine = f"test_lsprobe_{os.getpid()}"
        kept = ["test_lsprobe_1", "test_lsprobe_1_gw0"]
        for name in (
            f"test_lsprobe_{dead}",
            f"test_lsprobe_{dead}_gw1",
            mine,
            f"{mine}_gw0",
            *kept,
        ):
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            drop_test_databases(f"{SERVER}/lsprobe_{os.getpid()}")
            left = {n for n in _databases(conn) if n.startswith("test_lsprobe_")}
            # Its own and a finished run's go, with their pytest-xdist
            # workers'; a running process's (pid 1) stay.
            assert left == set(kept)
        finally:
            for name in kept:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def test_make_run_turns_debug_on_unless_the_environment_says_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = []

    def stop_before_starting_anything(env: dict[str, str], **_: object) -> None:
        seen.append(env.get("DEBUG"))
        raise SystemExit(0)

    monkeypatch.setattr(localservices, "choose_redis", stop_before_starting_anything)
    for env in ({}, {"DEBUG": "false"}):
        with pytest.raises(SystemExit):
            localservices.run_site(env)
    assert seen == ["true", "false"]


def test_the_tests_run_with_production_settings_over_plain_http() -> None:
    env = localservices.production_test_env()
    assert env["DEBUG"] == "false"
    assert len(env["SECRET_KEY"]) >= 50
    assert env["SECURE_SSL_REDIRECT"] == env["SESSION_COOKIE_SECURE"] == "false"

"""However many beats are started, one runs the schedule; another takes over
when it dies, and none ticks after losing its lock."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection

from monopoly_site.beat import FileLock, PostgresLock
from tests.timers.conftest import process_env, start_celery, stop, wait_for

PREFIX = f"{settings.REDIS_PREFIX}-beat"
on_postgresql = pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"], reason="PostgreSQL's lock"
)


def test_a_file_lock_has_one_holder_until_it_is_released(tmp_path: Path) -> None:
    first, second = FileLock(tmp_path / "lock"), FileLock(tmp_path / "lock")
    assert first.held()
    assert not second.held()
    first.release()
    assert second.held()
    second.release()


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_database_lock_is_lost_with_its_connection() -> None:
    database = settings.DATABASES["default"]
    first, second = PostgresLock(database), PostgresLock(database)
    try:
        assert first.held()
        assert not second.held()
        pid = first.connection.info.backend_pid
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        assert not first.held()
        assert second.held()
        assert not first.held()
    finally:
        first.release()
        second.release()


@pytest.fixture
def beat_env(django_db_blocker: Any) -> Iterator[dict[str, str]]:
    yield process_env(django_db_blocker, REDIS_PREFIX=PREFIX)
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = list(client.scan_iter(f"{PREFIX}*", count=500))
    if keys:
        client.delete(*keys)
    client.close()


def log_of(process: Any) -> str:
    return Path(process.log_path).read_text(errors="replace")


@pytest.mark.slow  # minutes of real processes: in `make test-long`, which CI runs too
@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_second_beat_stands_by_and_takes_over_when_the_first_dies(
    beat_env: dict[str, str],
) -> None:
    run = settings.BASE_DIR / ".run"
    beats = []
    try:
        for name in ("beat-a", "beat-b"):
            schedule = f"--schedule={run / f'{name}-{os.getpid()}'}"
            beats.append(start_celery(beat_env, name, "beat", "--loglevel=INFO", schedule))
            if name == "beat-a":
                wait_for(lambda: "now runs the schedule" in log_of(beats[0]), timeout=30)
        first, second = beats
        wait_for(lambda: "standing by" in log_of(second), timeout=30)
        assert "now runs the schedule" not in log_of(second)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        wait_for(lambda: "now runs the schedule" in log_of(second), timeout=30)
    finally:
        for process in beats:
            stop(process)
        for path in run.glob(f"beat-[ab]-{os.getpid()}*"):
            path.unlink(missing_ok=True)

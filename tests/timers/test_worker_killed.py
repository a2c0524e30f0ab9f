"""A worker SIGKILLed in the middle of resolving a deadline: another worker
takes over, nothing is lost and nothing is applied twice.

This module runs its own beat and workers on a separate Redis prefix, so the
session worker cannot pick up the task meant for the worker we kill."""

from __future__ import annotations

import os
import re
import signal
import subprocess
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
import redis
from django.conf import settings
from django.db import connection, transaction

from games.models import Game
from tests.timers.conftest import (
    due_soon,
    process_env,
    start_celery,
    stop,
    timeout_notes,
    version,
    wait_for,
)

# About 15 s of a real worker killed and restarted (make test's soak kills one
# too): with the long runs (`make test-long`, which CI runs).
pytestmark = [pytest.mark.worker, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PREFIX = f"{settings.REDIS_PREFIX}-kill"
# The worker's INFO line for each task it finished.
SWEEP_DONE = re.compile(r"Task games\.tasks\.sweep_deadlines\[[^\]]+\] succeeded")


@pytest.fixture
def kill_env(django_db_blocker: Any) -> Iterator[dict[str, str]]:
    env = process_env(django_db_blocker, REDIS_PREFIX=PREFIX)
    yield env
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = list(client.scan_iter(f"{PREFIX}*", count=500))
    if keys:
        client.delete(*keys)
    client.close()


def sweeps_done(worker: subprocess.Popen[bytes]) -> int:
    """How many of beat's sweeps ``worker`` has finished, from its log."""
    log = worker.log_path.read_text(errors="replace")  # type: ignore[attr-defined]
    return len(SWEEP_DONE.findall(log))


def waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        # Inside a transaction the activity view is a snapshot; refresh it.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


@pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="reads pg_stat_activity to see the worker blocked mid-task",
)
def test_a_worker_killed_mid_run_loses_no_deadline_and_applies_nothing_twice(
    kill_env: dict[str, str], timed_duel: Game
) -> None:
    game = timed_duel
    v = game.version
    worker_args = ["worker", "--pool=solo", "--loglevel=INFO", "--without-mingle",
                   "--without-gossip"]  # fmt: skip
    beat = start_celery(kill_env, "kill-beat", "beat", "--loglevel=INFO",
                        f"--schedule={settings.BASE_DIR / '.run' / f'kill-beat-{os.getpid()}'}")  # fmt: skip
    first = start_celery(kill_env, "kill-worker-1", *worker_args, f"--hostname=k1-{os.getpid()}@%h")
    second = None
    try:
        # Nothing from this test process may reach the session worker's queue.
        with mock.patch("games.scheduling.schedule_timers"):
            due_soon(game, 0.2)
            with transaction.atomic():
                # Hold the game row: the first worker's expire task blocks in
                # its transaction, mid-run, until we kill it.
                Game.objects.select_for_update().get(pk=game.pk)
                wait_for(waiting_for_a_lock, timeout=30)
                os.killpg(first.pid, signal.SIGKILL)
                first.wait(timeout=10)
            assert version(game) == v and timeout_notes(game) == []
            second = start_celery(
                kill_env, "kill-worker-2", *worker_args, f"--hostname=k2-{os.getpid()}@%h"
            )
            wait_for(lambda: version(game) > v, timeout=60)
            # More sweeps, each of which could resolve the deadline again:
            # beat queues one a second and the one worker runs its queue in
            # order, so by the third sweep done from now one has started
            # after the outcome was written and what it queued has run.
            done = sweeps_done(second)
            wait_for(lambda: sweeps_done(second) >= done + 3, timeout=60)
        assert len(timeout_notes(game)) == 1
        assert version(game) == v + 1
    finally:
        for process in (first, second, beat):
            if process is not None:
                stop(process)

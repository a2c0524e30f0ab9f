"""Bot games keep playing whatever happens to the queue: a worker SIGKILLed
while it holds their next moves, or a Redis that comes back empty. Beat's
sweep finds each game's overdue due row (``Game.auto_move_at``) and plays it.

Its own beat and workers on a separate Redis prefix, as in
test_worker_killed, so the session worker never takes these games' tasks."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
import redis
from django.conf import settings

from games import services
from games.models import Game
from tests.timers.conftest import process_env, start_celery, stop, wait_for

# About a minute of real workers and beat: with the long runs (`make test-long`, which CI runs).
pytestmark = [pytest.mark.worker, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PREFIX = f"{settings.REDIS_PREFIX}-bots"
WORKER = ["worker", "--pool=solo", "--loglevel=INFO", "--without-mingle", "--without-gossip"]


def delete_prefix() -> None:
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = list(client.scan_iter(f"{PREFIX}*", count=500))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def bots_env(django_db_blocker: Any) -> Iterator[dict[str, str]]:
    yield process_env(django_db_blocker, REDIS_PREFIX=PREFIX)
    delete_prefix()


@pytest.fixture
def beat(bots_env: dict[str, str]) -> Iterator[None]:
    schedule = settings.BASE_DIR / ".run" / f"bots-beat-{os.getpid()}"
    process = start_celery(
        bots_env, "bots-beat", "beat", "--loglevel=INFO", f"--schedule={schedule}"
    )
    yield
    stop(process)


def bot_games(count: int, delay_ms: int) -> list[Game]:
    # Started from this process with no task queued at all: the first move
    # of each game is the sweep's to find, like a task lost with its worker.
    with mock.patch("games.scheduling.schedule_bots"):
        return [
            services.create_seated_game(
                humans=[], bots=["heuristic"] * 3, start=True, bot_delay_ms=delay_ms
            )
            for _ in range(count)
        ]


def versions(games: list[Game]) -> dict[int, int]:
    return dict(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", "version"))


def all_moved_past(games: list[Game], marks: dict[int, int], by: int = 3) -> bool:
    now = versions(games)
    finished = set(
        Game.objects.filter(pk__in=[g.pk for g in games])
        .exclude(status=Game.Status.ACTIVE)
        .values_list("pk", flat=True)
    )
    return all(now[pk] >= marks[pk] + by or pk in finished for pk in marks)


def test_a_bot_move_whose_task_never_ran_is_played_by_the_sweep(
    bots_env: dict[str, str], beat: None
) -> None:
    worker = start_celery(bots_env, "bots-w0", *WORKER, f"--hostname=b0-{os.getpid()}@%h")
    try:
        games = bot_games(3, delay_ms=100)
        wait_for(lambda: all_moved_past(games, {g.pk: g.version for g in games}, by=5), 60)
    finally:
        stop(worker)


def test_bot_games_resume_after_the_worker_holding_their_moves_is_killed(
    bots_env: dict[str, str], beat: None
) -> None:
    first = start_celery(bots_env, "bots-w1", *WORKER, f"--hostname=b1-{os.getpid()}@%h")
    second = None
    try:
        # Long enough that the killed worker holds the next moves as ETA
        # tasks, which Redis gives back only after its visibility timeout.
        games = bot_games(5, delay_ms=1500)
        wait_for(lambda: all_moved_past(games, {g.pk: g.version for g in games}, by=2), 60)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        marks = versions(games)
        second = start_celery(bots_env, "bots-w2", *WORKER, f"--hostname=b2-{os.getpid()}@%h")
        wait_for(lambda: all_moved_past(games, marks, by=3), 60)
    finally:
        for process in (first, second):
            if process is not None:
                stop(process)


def test_bot_games_resume_after_redis_loses_every_queued_task(
    bots_env: dict[str, str], beat: None
) -> None:
    worker = start_celery(bots_env, "bots-w3", *WORKER, f"--hostname=b3-{os.getpid()}@%h")
    try:
        games = bot_games(5, delay_ms=1500)
        wait_for(lambda: all_moved_past(games, {g.pk: g.version for g in games}, by=2), 60)
        # What a Redis restarted empty leaves: no queue, no ETA task held
        # for redelivery, no mark of what was queued.
        delete_prefix()
        marks = versions(games)
        wait_for(lambda: all_moved_past(games, marks, by=3), 60)
    finally:
        stop(worker)

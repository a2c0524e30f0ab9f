"""Handing out overdue decisions: the ETA slot task queues all batches but
one and resolves that one itself; the others stay marked for the sweep."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.utils import timezone

from games import tasks
from games.models import Deadline, Game
from tests.conftest import setup_writes
from tests.games.conftest import _started


@pytest.mark.django_db
def test_the_slot_task_resolves_one_batch_itself_and_queues_the_rest_marked(
    alice: Any, bob: Any, no_bot_tasks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tasks, "BATCH_SIZE", 1)  # three games, three batches
    games = [_started(alice, bob) for _ in range(3)]
    with setup_writes("deadlines overdue"):
        Deadline.objects.filter(game__in=games).update(due_at=timezone.now() - timedelta(seconds=1))
    queued: list[list[tuple[int, int]]] = []
    with mock.patch.object(tasks.expire_decisions, "delay", queued.append):
        assert tasks.dispatch_overdue(take_eta=True, run_one=True) == 3
    assert len(queued) == 2
    moved = [g for g in games if Game.objects.get(pk=g.pk).version > g.version]
    assert len(moved) == 1 and (moved[0].pk, moved[0].version) not in [b[0] for b in queued]
    # The queued ones are marked, so the sweep leaves them to their task.
    for ((game_id, version),) in queued:
        assert cache.get(tasks.queued_key(game_id, version)) == 0
        cache.delete(tasks.queued_key(game_id, version))


@pytest.mark.django_db(transaction=True)
def test_a_batch_pushes_after_its_commits_only_to_games_someone_watches(
    alice: Any, bob: Any, no_bot_tasks: Any
) -> None:
    import redis
    from django.conf import settings

    from live import presence, pushes

    watched, alone = _started(alice, bob), _started(alice, bob)
    with setup_writes("deadlines overdue"):
        Deadline.objects.filter(game__in=[watched, alone]).update(
            due_at=timezone.now() - timedelta(seconds=1)
        )
    client = redis.Redis.from_url(settings.REDIS_URL)
    key = presence._key(watched.pk)
    client.zadd(key, {presence.member("a1", None, "chan-1"): time.time() + 60})
    pushed: list[tuple[int, int, list[int]]] = []

    def push(record: Any, here: Any) -> None:
        game_id, version = record.game_id, record.version
        versions = list(
            Game.objects.filter(pk__in=[watched.pk, alone.pk])
            .order_by("pk")
            .values_list("version", flat=True)
        )
        pushed.append((game_id, version, versions))

    reads = mock.Mock(wraps=presence.listening_many)
    try:
        with (
            mock.patch.object(pushes, "push", push),
            mock.patch.object(presence, "listening_many", reads),
        ):
            assert (
                tasks.expire_batch([(watched.pk, watched.version), (alone.pk, alone.version)]) == 2
            )
    finally:
        client.delete(key)
    # One presence read for the batch, after both writes committed; only the
    # watched game is pushed.
    assert reads.call_count == 1
    assert pushed == [(watched.pk, watched.version + 1, [watched.version + 1] * 2)]

"""A version committed by a process that died before pushing it reaches the
pages from beat's sweep (``live.missed_pushes``), within seconds."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.utils import timezone

from games.models import Game
from live import missed_pushes, pushes
from tests.live.conftest import collect, communicator, frames, move, roll, run

roll_now = roll.func  # the same, from sync code

pytestmark = pytest.mark.usefixtures("live_db", "records_kept")


@pytest.fixture
def records_kept() -> None:
    """This Redis has kept push records since long before the test."""
    cache.set(missed_pushes.SINCE_KEY, 0.0, timeout=None)


@pytest.fixture
def dies_after_commit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Writes commit, and nothing after the commit runs: as when the process
    is killed between the two."""
    monkeypatch.setattr("games.services.subscribers.deliver", lambda record: None)
    yield


def later(seconds: float) -> datetime:
    return timezone.now() + timedelta(seconds=seconds)


def test_a_version_nobody_pushed_reaches_the_spectators_from_the_sweep(
    duel: Game, dies_after_commit: None
) -> None:
    async def scenario() -> None:
        spectator = communicator(f"/ws/games/{duel.public_id}/")
        assert (await spectator.connect())[0]
        await collect(spectator)
        version = await roll(duel)
        assert frames(await collect(spectator), "push") == []  # lost with its process

        # Within the grace the mover's own push may still be coming.
        assert await database_sync_to_async(pushes.push_missed)(later(0.5)) == 0
        assert await database_sync_to_async(pushes.push_missed)(later(2)) == 1
        assert [v for v, _ in frames(await collect(spectator), "push")] == [version]
        # Recorded now: the next sweep leaves it alone.
        assert await database_sync_to_async(pushes.push_missed)(later(4)) == 0
        await spectator.disconnect()

    run(scenario)


def test_a_pushed_version_is_not_pushed_again(duel: Game) -> None:
    async def scenario() -> None:
        spectator = communicator(f"/ws/games/{duel.public_id}/")
        assert (await spectator.connect())[0]
        await collect(spectator)
        version = await roll(duel)
        assert [v for v, _ in frames(await collect(spectator), "push")] == [version]
        assert await database_sync_to_async(pushes.push_missed)(later(2)) == 0
        assert frames(await collect(spectator), "push") == []
        await spectator.disconnect()

    run(scenario)


def test_a_version_nobody_was_watching_counts_as_pushed(duel: Game) -> None:
    roll_now(duel)  # no socket open: not rendered, and nothing to catch up
    assert missed_pushes.missed(later(2)) == []


def test_a_game_that_moved_long_ago_is_not_looked_at(duel: Game, dies_after_commit: None) -> None:
    version = roll_now(duel)
    assert missed_pushes.missed(later(2)) == [(duel.pk, version)]
    assert missed_pushes.missed(later(missed_pushes.RECENT_SECONDS + 1)) == []


def test_records_lost_with_redis_are_not_taken_for_missed_pushes(duel: Game) -> None:
    """The restart closed or resynced every socket: pushing each recent
    game again would render them all at once for nothing."""
    roll_now(duel)
    assert missed_pushes.missed(later(2)) == []
    cache.delete_many([missed_pushes.key(duel.pk), missed_pushes.SINCE_KEY])  # restarted empty
    assert missed_pushes.missed(later(2)) == []
    assert pushes.push_missed(later(2)) == 0


def test_after_a_redis_restart_a_version_nobody_pushed_is_still_found(
    duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    move(duel)
    cache.delete_many([missed_pushes.key(duel.pk), missed_pushes.SINCE_KEY])  # restarted empty
    assert missed_pushes.missed(later(2)) == []  # this sweep notes the restart
    monkeypatch.setattr("games.services.subscribers.deliver", lambda record: None)
    version = move(duel)  # committed, and its process died before the push
    assert missed_pushes.missed(later(2)) == [(duel.pk, version)]


def test_the_sweep_pushes_only_the_current_version(duel: Game, dies_after_commit: None) -> None:
    move(duel)
    version = move(duel)
    assert missed_pushes.missed(later(2)) == [(duel.pk, version)]


def test_beat_runs_the_sweep_as_often_as_the_deadline_sweep() -> None:
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["push-missed"]
    assert entry["task"] == "live.tasks.push_missed"
    assert entry["schedule"] == settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]["schedule"]

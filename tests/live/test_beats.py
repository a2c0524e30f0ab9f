"""One heartbeat per process keeps every socket's presence entry and place
alive (``live.beats``): one refresh for all, and an announcement only when
the count it finds has changed."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from django.conf import settings

from accounts.models import User
from games.models import Game
from live import beats, presence, socket_cap
from tests.live.conftest import collect, communicator, receive_until, run

pytestmark = pytest.mark.usefixtures("live_db")


@pytest.fixture
def quick_beats(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(beats, "TICK_SECONDS", 0.05)
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.2)
    monkeypatch.setattr(socket_cap, "REFRESH_SECONDS", 0.2)


def refreshes_of(beat: beats.Beat[Any], monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The ``due`` of each of ``beat``'s refreshes from now on, once done."""
    done: list[Any] = []
    real = beat.refresh

    async def counted(due: Any) -> None:
        await real(due)
        done.append(due)

    monkeypatch.setattr(beat, "refresh", counted)
    return done


async def until(condition: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        await asyncio.sleep(0.02)


def test_one_refresh_keeps_every_socket_of_the_process_present(
    duel: Game, alice: User, charlie: User, quick_beats: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    refreshes = refreshes_of(presence.HEARTBEAT, monkeypatch)
    key = f"{settings.REDIS_PREFIX}:live:presence:{duel.pk}"

    async def scenario() -> None:
        path = f"/ws/games/{duel.public_id}/"
        sockets = [communicator(path, alice), communicator(path, charlie), communicator(path)]
        for comm in sockets:
            assert (await comm.connect())[0]
            await collect(comm)
        client = presence._redis()
        entries = await client.zrange(key, 0, -1, withscores=True)
        assert len(entries) == 3
        before = min(score for _, score in entries)
        seen = len(refreshes)
        await until(lambda: len(refreshes) >= seen + 2)
        # Every entry of the game in one refresh, and pushed forward by it.
        later = refreshes[seen:]
        assert all(list(due) == [duel.pk] and len(due[duel.pk]) == 3 for due in later)
        after = await client.zrange(key, 0, -1, withscores=True)
        assert len(after) == 3 and min(score for _, score in after) > before
        for comm in sockets:
            await comm.disconnect()

    run(scenario)


def test_a_heartbeat_that_finds_nobody_new_announces_nothing(
    duel: Game, charlie: User, quick_beats: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    refreshes = refreshes_of(presence.HEARTBEAT, monkeypatch)
    announced: list[presence.Summary] = []
    real = presence.announce

    async def counted(game_pk: int, summary: presence.Summary) -> presence.Announce:
        announced.append(summary)
        return await real(game_pk, summary)

    async def scenario() -> None:
        path = f"/ws/games/{duel.public_id}/"
        sockets = [communicator(path, charlie), communicator(path)]
        for comm in sockets:
            assert (await comm.connect())[0]
            await collect(comm)
        monkeypatch.setattr(presence, "announce", counted)
        seen = len(refreshes)
        await until(lambda: len(refreshes) >= seen + 3)
        assert announced == []  # three heartbeats found the count the pages show
        for comm in sockets:
            await comm.disconnect()

    run(scenario)


def test_a_heartbeat_announces_an_entry_that_expired(
    duel: Game, quick_beats: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that died leaves its sockets' entries to expire: the next
    heartbeat of another process drops them and tells its pages."""
    monkeypatch.setattr(presence, "ANNOUNCE_EVERY", 0.05)
    key = f"{settings.REDIS_PREFIX}:live:presence:{duel.pk}"

    async def scenario() -> None:
        client = presence._redis()
        await client.zadd(key, {"u99|-|dead-channel": time.time() + 1.0})
        comm = communicator(f"/ws/games/{duel.public_id}/")
        assert (await comm.connect())[0]
        shown = [m for m in await collect(comm) if 'id="presence"' in m]
        assert '"watching-count">2<' in shown[-1]
        await receive_until(comm, lambda out: any('"watching-count">1<' in m for m in out))
        assert await client.zscore(key, "u99|-|dead-channel") is None
        await comm.disconnect()

    run(scenario)


def test_a_closed_socket_leaves_the_heartbeat(
    duel: Game, quick_beats: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    refreshes = refreshes_of(presence.HEARTBEAT, monkeypatch)

    async def scenario() -> None:
        path = f"/ws/games/{duel.public_id}/"
        first, second = communicator(path), communicator(path)
        for comm in (first, second):
            assert (await comm.connect())[0]
            await collect(comm)
        await first.disconnect()
        seen = len(refreshes)
        await until(lambda: len(refreshes) >= seen + 1)
        assert len(refreshes[-1][duel.pk]) == 1
        await second.disconnect()
        assert presence.HEARTBEAT.members(duel.pk) == {}

    run(scenario)


def test_one_refresh_keeps_every_place_of_the_process(
    duel: Game, alice: User, charlie: User, quick_beats: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    refreshes = refreshes_of(socket_cap.PLACES, monkeypatch)

    async def scenario() -> None:
        path = f"/ws/games/{duel.public_id}/"
        sockets = [
            communicator(path, alice),
            communicator(path, alice),
            communicator(path, charlie),
        ]
        for comm in sockets:
            assert (await comm.connect())[0]
            await collect(comm)
        client = socket_cap._redis()
        key = socket_cap._key(alice.pk)
        before = max(score for _, score in await client.zrange(key, 0, -1, withscores=True))
        seen = len(refreshes)

        def refreshed(user: User) -> list[dict[str, None]]:
            return [due[user.pk] for due in refreshes[seen:] if user.pk in due]

        await until(lambda: len(refreshed(alice)) >= 2 and refreshed(charlie))
        # Both of alice's places in one command of each refresh.
        assert all(len(places) == 2 for places in refreshed(alice))
        after = await client.zrange(key, 0, -1, withscores=True)
        assert len(after) == 2 and min(score for _, score in after) > before
        assert await socket_cap.open_count(alice.pk) == 2
        for comm in sockets:
            await comm.disconnect()
        assert await socket_cap.open_count(alice.pk) == 0

    run(scenario)

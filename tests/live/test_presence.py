"""Presence counts people, not tabs, and heals when entries stop beating."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.conf import settings

from accounts.models import User
from games.models import Game
from live import presence
from tests.live.conftest import collect, communicator, run

pytestmark = pytest.mark.usefixtures("live_db")


def watching(messages: list[str]) -> list[str]:
    return [m for m in messages if 'id="presence"' in m]


def test_it_counts_people_not_tabs(duel: Game, alice: User, charlie: User) -> None:
    async def scenario() -> None:
        path = f"/ws/games/{duel.public_id}/"
        tabs = [communicator(path, charlie), communicator(path, charlie), communicator(path, alice)]
        for comm in tabs:
            assert (await comm.connect())[0]
        messages = await collect(tabs[2])
        last = watching(messages)[-1]
        assert '<span class="watching-count">1</span> watching' in last
        assert 'class="online"' in last  # alice's seat is lit
        summary = await presence.touch(duel.pk, "probe|-|probe")
        assert summary.watching == 2 and summary.online_seats == frozenset({0})
        await presence.leave(duel.pk, "probe|-|probe")
        await tabs[0].disconnect()
        summary = await presence.touch(duel.pk, "probe|-|probe")
        assert summary.watching == 2  # charlie's other tab is still open
        await presence.leave(duel.pk, "probe|-|probe")
        for comm in tabs[1:]:
            await comm.disconnect()

    run(scenario)


def test_a_glancing_board_counts_as_nobody_watching(duel: Game, alice: User, charlie: User) -> None:
    """The home page's small boards (``?glance=1``) are neither "watching"
    nor a seat online; a seated player's is still a player's."""

    async def scenario() -> None:
        path = f"/ws/games/{duel.public_id}/?glance=1"
        boards = [communicator(path, charlie), communicator(path, alice)]
        for comm in boards:
            assert (await comm.connect())[0]
        snapshot = (await collect(boards[1]))[0]
        assert "chat-players" in snapshot  # alice's board is still a player's view
        assert "chat-spectators" not in snapshot
        summary = await presence.touch(duel.pk, "probe|g|probe")
        assert summary.watching == 0 and summary.online_seats == frozenset()
        assert summary.glancing == 3 and summary.spectated
        await presence.leave(duel.pk, "probe|g|probe")
        for comm in boards:
            await comm.disconnect()

    run(scenario)


def test_entries_of_a_dead_process_expire(duel: Game) -> None:
    async def scenario() -> None:
        key = f"{settings.REDIS_PREFIX}:live:presence:{duel.pk}"
        client = presence._redis()
        # An entry that stopped beating a while ago, as a killed process leaves.
        await client.zadd(key, {"u99|-|dead-channel": time.time() - 1})
        summary = await presence.touch(duel.pk, "u1|-|alive")
        assert summary.watching == 1
        assert await client.zscore(key, "u99|-|dead-channel") is None

    run(scenario)


def test_anonymous_tabs_of_one_browser_count_once() -> None:
    cookies = {"cookies": {settings.CSRF_COOKIE_NAME: "abc"}}
    assert presence.person_for(cookies) == presence.person_for(dict(cookies))
    assert presence.person_for(cookies) != presence.person_for(
        {"cookies": {settings.CSRF_COOKIE_NAME: "other"}}
    )


def test_a_change_is_announced_once_and_at_most_every_interval(
    duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "ANNOUNCE_EVERY", 0.3)
    one = presence.Summary(frozenset(), 1)
    two = presence.Summary(frozenset({0}), 1)

    async def scenario() -> None:
        assert await presence.announce(duel.pk, one) is presence.Announce.NOW
        assert await presence.announce(duel.pk, one) is presence.Announce.SAME
        assert await presence.announce(duel.pk, two) is presence.Announce.LATER
        deadline = time.monotonic() + 5
        while (verdict := await presence.announce(duel.pk, two)) is presence.Announce.LATER:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        assert verdict is presence.Announce.NOW
        assert await presence.announce(duel.pk, two) is presence.Announce.SAME

    run(scenario)


def test_a_crowd_arriving_together_gets_a_few_announcements_ending_on_the_full_count(
    duel: Game,
) -> None:
    crowd = 12

    async def scenario() -> None:
        path = f"/ws/games/{duel.public_id}/"
        first = communicator(path)
        assert (await first.connect())[0]
        await collect(first)
        others = [communicator(path) for _ in range(crowd - 1)]
        assert all(ok for ok, _ in await asyncio.gather(*(c.connect() for c in others)))
        # The last arrivals fall within one announcement interval: the put-off
        # announcement brings the full count.
        seen = []
        deadline = time.monotonic() + 10
        while not seen or f'"watching-count">{crowd}<' not in seen[-1]:
            assert time.monotonic() < deadline, seen[-1:]
            message = await first.receive_from(timeout=deadline - time.monotonic())
            if 'id="presence"' in message:
                seen.append(message)
        # One announcement per arrival before (11 here; a 1,000-socket crowd
        # made 1,000 announcements to up to 1,000 sockets each).
        assert len(seen) <= 4, len(seen)
        for comm in [first, *others]:
            await comm.disconnect()

    run(scenario)


def test_a_change_put_off_twice_is_still_announced(
    duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "ANNOUNCE_EVERY", 0.2)
    real = presence.announce
    put_off = [2]  # the slot is taken by others at the first two asks

    async def busy_slot(game_pk: int, summary: presence.Summary) -> presence.Announce:
        if put_off[0] > 0:
            put_off[0] -= 1
            return presence.Announce.LATER
        return await real(game_pk, summary)

    async def scenario() -> None:
        path = f"/ws/games/{duel.public_id}/"
        first = communicator(path)
        assert (await first.connect())[0]
        await collect(first)
        monkeypatch.setattr(presence, "announce", busy_slot)
        second = communicator(path)
        assert (await second.connect())[0]
        deadline = time.monotonic() + 10
        while True:
            message = await first.receive_from(timeout=max(0.1, deadline - time.monotonic()))
            if '"watching-count">2<' in message:
                break
        assert put_off == [0]
        for comm in (first, second):
            await comm.disconnect()

    run(scenario)

"""Presence counts people, not tabs, and heals when entries stop beating."""

from __future__ import annotations

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

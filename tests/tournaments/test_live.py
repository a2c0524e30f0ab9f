"""Live standings: an event's socket gets a snapshot on connect, the
standings and rounds regions again (with the new version) when the
services change the event, an entrant their own box when their next game
changes, and nothing private (the seed) on the way."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.live.conftest import communicator, run
from tests.people.conftest import make_user
from tests.tournaments.page_world import SEED, event
from tournaments import consumers, live
from tournaments.models import Table, Tournament
from tournaments.services import join_tournament, start_round

pytestmark = pytest.mark.usefixtures("live_db")
SNAPSHOT = re.compile(r"^<!--snapshot (\d+)-->")


@pytest.fixture
def live_db(transactional_db: None) -> None:
    """The consumer reads through its own threads and the push runs on
    commit, so these tests need real commits."""


def path(t: Tournament) -> str:
    return f"/ws/tournaments/{t.pk}/"


async def until(comm: WebsocketCommunicator, done: Any) -> list[str]:
    """Every frame up to and including the first for which ``done`` holds."""
    seen: list[str] = []
    async with asyncio.timeout(10):
        while not seen or not done(seen[-1]):
            seen.append(await comm.receive_from(timeout=10))
    return seen


def snapshot_of(version: int) -> Any:
    return lambda frame: frame.startswith(f"<!--snapshot {version}-->")


def versions(frames: list[str]) -> list[int]:
    return [int(m.group(1)) for f in frames if (m := SNAPSHOT.match(f))]


def set_version(t: Tournament, n: int) -> None:
    Tournament.objects.filter(pk=t.pk).update(version=n)


def test_a_join_pushes_the_standings_with_the_new_version_to_a_connected_socket() -> None:
    t = event()
    keen = make_user("keen")

    async def scenario() -> tuple[list[str], list[str]]:
        comm = communicator(path(t))
        assert (await comm.connect())[0]
        first = await until(comm, snapshot_of(0))
        await database_sync_to_async(join_tournament)(tournament_id=t.pk, user=keen)
        pushed = await until(comm, snapshot_of(1))
        await comm.disconnect()
        return first, pushed

    first, pushed = run(scenario)
    assert 'id="standings"' in first[0] and 'id="rounds"' in first[0]
    assert versions(pushed) == [1]
    html = pushed[0]
    assert html.count('data-version="1"') == 2 and html.count('hx-swap-oob="true"') == 2
    assert ">keen</a>" in html
    assert str(SEED) not in first[0] + html


def test_stale_and_repeated_pushes_are_dropped_and_a_heartbeat_answered_when_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(consumers, "RESYNC_INTERVAL", 0.0)
    t = event()

    async def scenario() -> dict[str, list[str]]:
        comm = communicator(path(t))
        assert (await comm.connect())[0]
        seen = {"connect": await until(comm, snapshot_of(0))}
        await database_sync_to_async(live.push)(t.pk)  # version 0: the snapshot had it
        await database_sync_to_async(set_version)(t, 3)
        await database_sync_to_async(live.push)(t.pk)
        await database_sync_to_async(live.push)(t.pk)  # the same again
        await database_sync_to_async(set_version)(t, 4)
        await database_sync_to_async(live.push)(t.pk)
        seen["pushes"] = await until(comm, snapshot_of(4))
        # The heartbeat of a page up to date is not answered, one behind is;
        # anything but a resync or a ping closes the socket. Frames are
        # handled in order, so all that these three bring comes before the close.
        await comm.send_to(text_data=json.dumps({"type": "resync", "since": 4}))
        await comm.send_to(text_data=json.dumps({"type": "resync", "since": 3}))
        await comm.send_to(text_data=json.dumps({"type": "join"}))
        outputs = [await comm.receive_output(timeout=5)]
        while outputs[-1]["type"] != "websocket.close":
            outputs.append(await comm.receive_output(timeout=5))
        seen["heartbeats"] = [o["text"] for o in outputs[:-1]]
        seen["closed"] = [outputs[-1]]
        await comm.disconnect()
        return seen

    seen = run(scenario)
    assert versions(seen["pushes"]) == [3, 4]
    assert versions(seen["heartbeats"]) == [4] and len(seen["heartbeats"]) == 1
    assert seen["closed"] == [{"type": "websocket.close", "code": 4400}]


def test_an_entrants_socket_gets_their_next_game_when_the_round_starts() -> None:
    t = event()
    players = [make_user(name) for name in ("ann", "ben", "cat")]
    for user in players:
        join_tournament(tournament_id=t.pk, user=user)
    joined = Tournament.objects.get(pk=t.pk).version

    async def scenario() -> tuple[list[str], list[str]]:
        mine = communicator(path(t), players[0])
        theirs = communicator(path(t))
        for comm in (mine, theirs):
            assert (await comm.connect())[0]
            await until(comm, snapshot_of(joined))
        await database_sync_to_async(start_round)(tournament_id=t.pk, number=1)
        seen = (
            await until(mine, lambda frame: frame.startswith("<!--live-->")),
            await until(theirs, lambda frame: 'class="round-table' in frame),
        )
        for comm in (mine, theirs):
            await comm.disconnect()
        return seen

    mine, theirs = run(scenario)
    game = Table.objects.get(round__tournament=t).game
    assert game is not None
    box = mine[-1]
    assert 'id="tournament-entry"' in box and 'hx-swap-oob="true"' in box
    assert game.get_absolute_url() in box
    assert game.get_absolute_url() in theirs[-1]  # the table's link, for everyone
    assert not [frame for frame in theirs if "tournament-entry" in frame]

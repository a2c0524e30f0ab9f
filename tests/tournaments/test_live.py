"""Live standings: an event's socket gets a snapshot on connect, the
standings and rounds regions again (with the new version) when the
services change the event, and nothing private (the seed) on the way."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from tests.live.conftest import collect, communicator, frames, run
from tests.people.conftest import make_user
from tests.tournaments.page_world import SEED, event
from tournaments import live
from tournaments.models import Tournament
from tournaments.services import join_tournament

pytestmark = pytest.mark.usefixtures("live_db")


@pytest.fixture
def live_db(transactional_db: None) -> None:
    """The consumer reads through its own threads and the push runs on
    commit, so these tests need real commits."""


def path(t: Tournament) -> str:
    return f"/ws/tournaments/{t.pk}/"


def test_a_join_pushes_the_standings_with_the_new_version_to_a_connected_socket() -> None:
    t = event()
    keen = make_user("keen")

    async def scenario() -> list[str]:
        comm = communicator(path(t))
        assert (await comm.connect())[0]
        [(version, snapshot)] = frames(await collect(comm), "snapshot")
        assert version == 0 and 'id="standings"' in snapshot and 'id="rounds"' in snapshot
        await database_sync_to_async(join_tournament)(tournament_id=t.pk, user=keen)
        seen = await collect(comm)
        await comm.disconnect()
        return seen

    pushed = frames(run(scenario), "snapshot")
    assert [v for v, _ in pushed] == [1]
    html = pushed[0][1]
    assert html.count('data-version="1"') == 2 and html.count('hx-swap-oob="true"') == 2
    assert ">keen</a>" in html
    assert str(SEED) not in html


def test_a_stale_or_repeated_push_is_not_sent_and_a_heartbeat_only_when_behind() -> None:
    t = event()

    def set_version(n: int) -> None:
        Tournament.objects.filter(pk=t.pk).update(version=n)

    async def scenario() -> dict[str, list[str]]:
        comm = communicator(path(t))
        assert (await comm.connect())[0]
        await collect(comm)
        seen = {}
        await database_sync_to_async(live.push)(t.pk)  # version 0: the snapshot had it
        await database_sync_to_async(set_version)(3)
        await database_sync_to_async(live.push)(t.pk)
        await database_sync_to_async(live.push)(t.pk)  # the same again
        seen["pushes"] = await collect(comm, quiet=1.1)  # past the one-a-second limit
        await comm.send_to(text_data=json.dumps({"type": "resync", "since": 3}))
        seen["up to date"] = await collect(comm, quiet=0.2)
        await database_sync_to_async(set_version)(5)
        await comm.send_to(text_data=json.dumps({"type": "resync", "since": 3}))
        seen["behind"] = await collect(comm)
        # Anything but a resync or a ping closes the socket.
        await comm.send_to(text_data=json.dumps({"type": "join"}))
        seen["closed"] = [await comm.receive_output(timeout=2)]
        await comm.disconnect()
        return seen

    seen = run(scenario)
    assert [v for v, _ in frames(seen["pushes"], "snapshot")] == [3]
    assert seen["up to date"] == []
    assert [v for v, _ in frames(seen["behind"], "snapshot")] == [5]
    assert seen["closed"] == [{"type": "websocket.close", "code": 4400}]

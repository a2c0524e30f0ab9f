"""At most SOCKETS_PER_ACCOUNT live sockets per account (issue 32): the one
over the cap is closed with its own code and a reason, a closed socket frees
its place, and a dead process's entries expire instead of haunting the count."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games.models import Game
from live import socket_cap
from tests.live.conftest import collect, communicator, run

pytestmark = pytest.mark.usefixtures("live_db")


async def _open(comm: WebsocketCommunicator) -> None:
    connected, _ = await comm.connect()
    assert connected
    await collect(comm)  # what it is sent on connect


async def _refused(comm: WebsocketCommunicator) -> dict[str, Any]:
    """The close of a socket over the cap (accepted, to be told why)."""
    connected, _ = await comm.connect()
    assert connected
    closed = await comm.receive_output(timeout=2)
    assert closed["type"] == "websocket.close", closed
    return closed


def test_a_socket_over_the_cap_is_closed_with_a_reason_until_one_closes(
    settings: Any, alice: User, bob: User, duel: Game
) -> None:
    settings.SOCKETS_PER_ACCOUNT = 3

    async def scenario() -> None:
        mine = [
            communicator("/ws/lobby/", alice),
            communicator(f"/ws/games/{duel.public_id}/", alice),
            communicator("/ws/watch/", alice),
        ]
        extra = communicator(f"/ws/games/{duel.public_id}/", alice)
        again = communicator("/ws/lobby/", alice)
        bobs = communicator("/ws/lobby/", bob)
        try:
            for comm in mine:
                await _open(comm)
            assert await socket_cap.open_count(alice.pk) == 3
            closed = await _refused(extra)
            assert closed["code"] == socket_cap.CLOSE_TOO_MANY
            assert "Too many live pages and streams are open" in closed["reason"]
            assert len(closed["reason"].encode()) <= 123
            assert await socket_cap.open_count(alice.pk) == 3
            await _open(bobs)  # someone else is not affected
            await mine[0].disconnect()
            assert await socket_cap.open_count(alice.pk) == 2
            await _open(again)  # the closed one's place is free again
        finally:
            for comm in [*mine, extra, again, bobs]:
                await comm.disconnect()
        assert await socket_cap.open_count(alice.pk) == 0

    run(scenario)


@pytest.mark.slow  # sockets on a live database: in make test-long, to keep make test under seven minutes
def test_a_dead_processs_sockets_expire_and_leave_no_ghosts(settings: Any, alice: User) -> None:
    settings.SOCKETS_PER_ACCOUNT = 2

    async def scenario() -> None:
        # Two places taken by a process that died without closing them, long ago.
        key = socket_cap._key(alice.pk)
        stale = time.time() - 1
        await socket_cap._redis().zadd(key, {"dead-1": stale, "dead-2": stale})
        comm = communicator("/ws/lobby/", alice)
        try:
            await _open(comm)
            assert await socket_cap.open_count(alice.pk) == 1
        finally:
            await comm.disconnect()

    run(scenario)


@pytest.mark.slow  # sockets on a live database: in make test-long, to keep make test under seven minutes
def test_anonymous_sockets_are_not_counted(settings: Any) -> None:
    settings.SOCKETS_PER_ACCOUNT = 1

    async def scenario() -> None:
        comms = [communicator("/ws/lobby/") for _ in range(3)]
        try:
            for comm in comms:
                await _open(comm)
        finally:
            for comm in comms:
                await comm.disconnect()

    run(scenario)


def test_the_apis_streams_take_places_in_the_same_count(settings: Any, alice: User) -> None:
    """An events stream over the cap is answered 429 with the reason; one
    under it is served, and gives its place back when it ends."""
    from api import tokens
    from tests.api.streams import served

    settings.SOCKETS_PER_ACCOUNT = 1
    _, token = tokens.issue(alice, scopes=["read"])

    async def serve_once() -> list[dict[str, Any]]:
        path = "/api/v1/stream/events"
        return await served(path, {"Authorization": f"Bearer {token}"}, query="follow=false")

    async def scenario() -> None:
        page = communicator("/ws/lobby/", alice)
        try:
            await _open(page)
            refused = await serve_once()
            assert refused[0]["status"] == 429
            body = json.loads(refused[1]["body"])
            assert "Too many live pages and streams are open" in body["detail"]
        finally:
            await page.disconnect()
        answered = await serve_once()
        assert answered[0]["status"] == 200
        assert await socket_cap.open_count(alice.pk) == 0  # given back at its end

    run(scenario)

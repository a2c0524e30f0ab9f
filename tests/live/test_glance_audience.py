"""A socket's audience comes from who the viewer is, never from its query
string: a seated player's ``?glance=1`` (the home page's small board) is
still a player's, without the spectators' chat, and an ``?as=`` naming
someone else is closed, never taken as who the viewer is."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts.models import User
from games.models import Game
from live import consumers
from tests.live.conftest import collect, communicator, frames, run

pytestmark = pytest.mark.usefixtures("live_db")
HTMX = {"HTTP_HX_REQUEST": "true"}


def post(user: User, game: Game, room: str, body: str) -> None:
    client = Client()
    client.force_login(user)
    response = client.post(f"{game.get_absolute_url()}chat/{room}", {"body": body}, **HTMX)
    assert response.status_code == 200


def test_a_seated_players_glance_gets_no_spectators_chat(
    duel: Game, alice: User, charlie: User
) -> None:
    async def scenario() -> None:
        path = f"/ws/games/{duel.public_id}/"
        glance = communicator(path + "?glance=1", alice)
        spectator = communicator(path, charlie)
        for comm in (glance, spectator):
            assert (await comm.connect())[0]
        [(_, snapshot)] = frames(await collect(glance), "snapshot")
        assert "chat-players" in snapshot and "chat-spectators" not in snapshot
        assert "win-bar" not in snapshot
        await collect(spectator)
        await database_sync_to_async(post)(charlie, duel, "spectators", "spectators only")
        heard = []
        while "spectators only" not in "".join(heard):
            heard.append(await spectator.receive_from(timeout=10))
        # The players' message is the glance's signal that the spectators'
        # one, sent first, would have come by now.
        await database_sync_to_async(post)(alice, duel, "players", "players only")
        got: list[str] = []
        while "players only" not in "".join(got):
            got.append(await glance.receive_from(timeout=10))
        assert "spectators only" not in "".join(got)
        for comm in (glance, spectator):
            await comm.disconnect()

    run(scenario)


def test_an_as_naming_a_spectator_does_not_make_a_player_one(duel: Game, alice: User) -> None:
    async def scenario() -> None:
        comm = communicator(f"/ws/games/{duel.public_id}/?as={alice.pk}-x", alice)
        assert (await comm.connect())[0]
        closed = await comm.receive_output(timeout=10)
        assert closed == {"type": "websocket.close", "code": consumers.CLOSE_SESSION_ENDED}

    run(scenario)


def test_a_glancing_spectator_still_reads_the_spectators_chat(duel: Game, charlie: User) -> None:
    async def scenario() -> None:
        comm = communicator(f"/ws/games/{duel.public_id}/?glance=1", charlie)
        assert (await comm.connect())[0]
        [(_, snapshot)] = frames(await collect(comm), "snapshot")
        assert "chat-spectators" in snapshot and "chat-players" not in snapshot
        await comm.disconnect()

    run(scenario)

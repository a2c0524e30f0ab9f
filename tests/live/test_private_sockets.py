"""The sockets of a private game (the play page's and the waiting page's)
follow the page's rule: seated players, and holders of the current invite
token remembered in their session; a new token closes the others'."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from accounts.sessions import SessionStore
from games import access, services
from games.models import Game
from tests.live.conftest import collect, communicator, frames, run

pytestmark = pytest.mark.usefixtures("live_db")


def play_path(game: Game) -> str:
    return f"/ws/games/{game.public_id}/"


def waiting_path(game: Game) -> str:
    return f"/ws/games/{game.public_id}/waiting/"


def invited_session(token: str) -> SessionStore:
    """The session of a browser that followed the invite link."""
    client = Client()
    assert client.get(f"/join/{token}/").status_code == 302
    return SessionStore(session_key=client.session.session_key)


def with_session(comm: WebsocketCommunicator, session: Any) -> WebsocketCommunicator:
    comm.scope["session"] = session
    return comm


@pytest.fixture
def waiting_private(alice: User) -> Game:
    return services.create_game(host=alice, is_public=False)


@pytest.mark.parametrize("path", [play_path, waiting_path])
def test_outsiders_cannot_open_a_private_games_sockets(
    private_duel: Game, waiting_private: Game, charlie: User, path: Any
) -> None:
    game = private_duel if path is play_path else waiting_private
    stranger_session = SessionStore()
    stranger_session.create()

    async def scenario() -> None:
        for user in (None, charlie):
            comm = with_session(communicator(path(game), user), stranger_session)
            connected, code = await comm.connect()
            assert not connected
            assert code == 4403
            # Ended here, in the scenario's loop: a refused consumer left to
            # the loop's shutdown once hung it (its layer receive cancelled).
            await comm.disconnect()

    run(scenario)


def test_a_seated_player_opens_the_waiting_pages_socket(waiting_private: Game, alice: User) -> None:
    async def scenario() -> None:
        comm = communicator(waiting_path(waiting_private), alice)
        assert (await comm.connect())[0]
        await comm.disconnect()

    run(scenario)


def test_the_invite_link_opens_a_private_games_sockets_as_a_spectator(
    private_duel: Game, waiting_private: Game
) -> None:
    play_session = invited_session(private_duel.invite_token)
    waiting_session = invited_session(waiting_private.invite_token)

    async def scenario() -> None:
        watcher = with_session(communicator(play_path(private_duel)), play_session)
        assert (await watcher.connect())[0]
        [(_, snapshot)] = frames(await collect(watcher), "snapshot")
        assert 'id="board"' in snapshot and 'id="actions"' not in snapshot
        await watcher.disconnect()
        waiting = with_session(communicator(waiting_path(waiting_private)), waiting_session)
        assert (await waiting.connect())[0]
        await waiting.disconnect()

    run(scenario)


def test_a_new_invite_link_closes_the_sockets_the_old_one_opened(
    private_duel: Game, alice: User
) -> None:
    session = invited_session(private_duel.invite_token)

    async def scenario() -> None:
        player = communicator(play_path(private_duel), alice)
        watcher = with_session(communicator(play_path(private_duel)), session)
        for comm in (player, watcher):
            assert (await comm.connect())[0]
            await collect(comm)
        await database_sync_to_async(services.do_rotate_invite)(
            public_id=private_duel.public_id, user=alice
        )
        while (closed := await watcher.receive_output(timeout=5))["type"] != "websocket.close":
            pass  # a presence update may come first
        assert closed["code"] == 4403
        # The player stays: their socket answers a resync with a snapshot.
        await player.send_json_to({"type": "resync"})
        assert frames(await collect(player), "snapshot")
        await player.disconnect()
        again = with_session(communicator(play_path(private_duel)), session)
        connected, code = await again.connect()
        assert not connected and code == 4403
        await again.disconnect()

    run(scenario)


def test_a_remembered_token_that_is_not_the_games_opens_nothing(private_duel: Game) -> None:
    session = SessionStore()
    session[access.SESSION_KEY] = {private_duel.public_id: "a-wrong-token"}
    session.create()

    async def scenario() -> None:
        comm = with_session(communicator(play_path(private_duel)), session)
        connected, code = await comm.connect()
        assert not connected and code == 4403
        await comm.disconnect()

    run(scenario)

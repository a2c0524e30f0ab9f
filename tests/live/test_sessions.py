"""A socket ends with its session: logging out, or changing the password,
closes it at once. Real Daphne, real sockets; the logout and the password
change go through the site's own views (in this process, on the same Redis)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import websockets
from django.conf import settings
from django.test import Client

from accounts.models import User
from accounts.sessions import SessionStore
from games import access, services
from games.models import Game
from live.sessions import CLOSE_SESSION_ENDED, session_group
from tests.live.conftest import collect, communicator, roll, run

NEW_PASSWORD = "a-fresh-passphrase-872"
PANEL = 'id="actions"'  # the seat's private action panel


@pytest.fixture
def daphne_port(shared_daphne: int, transactional_db: None) -> int:
    return shared_daphne


def signed_in(user: User) -> tuple[Client, str]:
    """A browser session for ``user``: its client and its cookie."""
    client = Client()
    client.force_login(user)
    return client, str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def open_socket(port: int, game: Game, cookie: str | None, drawn_for: str = "") -> Any:
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"} if cookie else None
    query = f"?as={drawn_for}" if drawn_for else ""
    return websockets.connect(
        f"ws://127.0.0.1:{port}/ws/games/{game.public_id}/{query}",
        origin=f"http://127.0.0.1:{port}",
        additional_headers=headers,
    )


async def snapshot(socket: Any) -> str:
    async with asyncio.timeout(10):
        while True:
            message = str(await socket.recv())
            if message.startswith("<!--snapshot"):
                return message


async def until_closed(socket: Any) -> tuple[int | None, list[str]]:
    """The close code, and whatever arrived before the close frame."""
    received = []
    try:
        async with asyncio.timeout(5):
            while True:
                received.append(str(await socket.recv()))
    except websockets.exceptions.ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), received


async def push_of(socket: Any, version: int) -> str:
    async with asyncio.timeout(10):
        while True:
            message = str(await socket.recv())
            if message.startswith(f"<!--push {version}-->"):
                return message


def test_logging_out_closes_the_sessions_sockets_and_no_one_elses(
    daphne_port: int, duel: Game, alice: User, bob: User
) -> None:
    alice_client, alice_cookie = signed_in(alice)
    _, bob_cookie = signed_in(bob)

    async def scenario() -> None:
        async with (
            open_socket(daphne_port, duel, alice_cookie) as alices,
            open_socket(daphne_port, duel, bob_cookie) as bobs,
        ):
            assert PANEL in await snapshot(alices)
            assert PANEL in await snapshot(bobs)
            response = await asyncio.to_thread(alice_client.post, "/accounts/logout/")
            assert response.status_code == 302
            code, received = await until_closed(alices)
            assert code == CLOSE_SESSION_ENDED
            assert not any(PANEL in message for message in received)
            # Bob's socket is still his: the next move reaches it, with his panel.
            version = await roll(duel)
            assert PANEL in await push_of(bobs, version) + await push_of(bobs, version)
        # The page comes back with the old cookie: now an anonymous spectator.
        async with open_socket(daphne_port, duel, alice_cookie) as again:
            assert PANEL not in await snapshot(again)

    run(scenario)


@pytest.mark.slow  # sockets on a live database: in make test-long, to keep make test under seven minutes
def test_a_page_whose_socket_comes_back_as_someone_else_is_told_to_reload(
    daphne_port: int, duel: Game, alice: User
) -> None:
    """A page drawn for Alice's seat whose socket reconnects signed out (the
    logout's close not heard first): a snapshot would leave her action panel
    on the page, as it replaces only the regions that changed."""
    seat = duel.seats.get(user=alice).number
    alices_page = access.viewer_key(alice, seat)
    client, cookie = signed_in(alice)
    page = client.get(duel.get_absolute_url()).content.decode()
    assert f'ws-connect="/ws/games/{duel.public_id}/?as={alices_page}"' in page

    async def scenario() -> None:
        async with open_socket(daphne_port, duel, None, drawn_for=alices_page) as anonymous:
            code, received = await until_closed(anonymous)
            assert code == CLOSE_SESSION_ENDED
            assert received == []
        async with open_socket(daphne_port, duel, cookie, drawn_for=alices_page) as hers:
            assert PANEL in await snapshot(hers)
        spectators_page = access.viewer_key(None, None)
        async with open_socket(daphne_port, duel, None, drawn_for=spectators_page) as watching:
            assert PANEL not in await snapshot(watching)

    run(scenario)


@pytest.mark.slow  # sockets on a live database: in make test-long, to keep make test under seven minutes
def test_a_logged_out_player_cannot_reopen_a_private_game(
    daphne_port: int, private_duel: Game, alice: User
) -> None:
    client, cookie = signed_in(alice)

    async def scenario() -> None:
        async with open_socket(daphne_port, private_duel, cookie) as socket:
            assert PANEL in await snapshot(socket)
            await asyncio.to_thread(client.post, "/accounts/logout/")
            code, _ = await until_closed(socket)
            assert code == CLOSE_SESSION_ENDED
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            async with open_socket(daphne_port, private_duel, cookie):
                pass
        assert refused.value.response.status_code == 403

    run(scenario)


def test_a_password_change_closes_the_users_sockets_and_ends_the_other_sessions(
    daphne_port: int, duel: Game, alice: User, bob: User
) -> None:
    changer, this_cookie = signed_in(alice)
    _, other_cookie = signed_in(alice)  # Alice on another device
    _, bob_cookie = signed_in(bob)

    async def scenario() -> None:
        async with (
            open_socket(daphne_port, duel, this_cookie) as here,
            open_socket(daphne_port, duel, other_cookie) as elsewhere,
            open_socket(daphne_port, duel, bob_cookie) as bobs,
        ):
            for socket in (here, elsewhere, bobs):
                assert PANEL in await snapshot(socket)
            response = await asyncio.to_thread(
                changer.post,
                "/accounts/password/change/",
                {
                    "oldpassword": "pw-alice-123",
                    "password1": NEW_PASSWORD,
                    "password2": NEW_PASSWORD,
                },
            )
            assert response.status_code == 302
            for socket in (here, elsewhere):
                code, received = await until_closed(socket)
                assert code == CLOSE_SESSION_ENDED
                assert not any(PANEL in message for message in received)
            version = await roll(duel)
            assert PANEL in await push_of(bobs, version) + await push_of(bobs, version)
        # The other device's session is over; the one that changed it is not
        # (Django gave it a new key, which the browser now sends).
        async with open_socket(daphne_port, duel, other_cookie) as socket:
            assert PANEL not in await snapshot(socket)
        renewed = changer.cookies[settings.SESSION_COOKIE_NAME].value
        assert renewed != this_cookie
        async with open_socket(daphne_port, duel, renewed) as socket:
            assert PANEL in await snapshot(socket)

    run(scenario)


def test_logging_out_closes_the_lobby_and_waiting_pages_sockets(live_db: None, alice: User) -> None:
    waiting = services.create_game(host=alice, is_public=False)
    client, cookie = signed_in(alice)
    session = SessionStore(session_key=cookie)

    async def scenario() -> None:
        comms = [
            communicator("/ws/lobby/", alice),
            communicator(f"/ws/games/{waiting.public_id}/waiting/", alice),
        ]
        for comm in comms:
            comm.scope["session"] = session
            assert (await comm.connect())[0]
            await collect(comm)
        await asyncio.to_thread(client.post, "/accounts/logout/")
        for comm in comms:
            while (out := await comm.receive_output(timeout=5))["type"] != "websocket.close":
                pass  # a list pushed before the close
            assert out["code"] == CLOSE_SESSION_ENDED

    run(scenario)


def test_a_session_group_does_not_carry_the_session_key() -> None:
    key = "k" * 32
    group = session_group(key)
    assert key not in group and key[:8] not in group
    assert session_group(key) == group != session_group("j" * 32)

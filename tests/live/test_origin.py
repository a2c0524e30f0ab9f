"""A real daphne process takes WebSocket handshakes from its own origin only:
same scheme, host and port as the page's address."""

from __future__ import annotations

import asyncio

import pytest
import websockets

from games.models import Game
from tests.live.conftest import run


@pytest.fixture
def port(shared_daphne: int, transactional_db: None) -> int:
    return shared_daphne


def handshake_status(url: str, origin: str | None) -> int:
    """101 when the socket opened (and sent the snapshot), else the HTTP status."""

    async def scenario() -> int:
        try:
            async with websockets.connect(url, origin=origin) as socket_:
                await asyncio.wait_for(socket_.recv(), 10)
                return 101
        except websockets.exceptions.InvalidStatus as refused:
            return int(refused.response.status_code)

    return int(run(scenario))


def test_only_the_pages_own_origin_may_open_a_socket(port: int, duel: Game) -> None:
    url = f"ws://127.0.0.1:{port}/ws/games/{duel.public_id}/"
    assert handshake_status(url, f"http://127.0.0.1:{port}") == 101
    for foreign in (
        "http://localhost:9999",
        f"http://localhost:{port}",  # another host name for the same server
        f"https://127.0.0.1:{port}",  # another scheme
        "https://127.0.0.1",
        "http://evil.example",
        None,
    ):
        assert handshake_status(url, foreign) == 403, foreign

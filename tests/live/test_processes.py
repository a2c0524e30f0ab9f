"""Scale-out: two real daphne processes share one Redis. A spectator on the
first hears of a move posted through the second."""

from __future__ import annotations

import asyncio
import secrets
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
import websockets

from games import engine
from games.models import Game
from tests.live.conftest import run
from tests.live.servers import daphnes, session_cookie


@pytest.fixture
def two_daphnes(transactional_db: None) -> Iterator[list[int]]:
    with daphnes(2) as ports:
        yield ports


def post_roll(port: int, game: Game, user: Any) -> int:
    """Post the move as a browser would: session cookie, CSRF cookie and header."""
    token = secrets.token_hex(16)  # a CSRF secret: 32 characters
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{game.get_absolute_url()}act",
        data=urlencode({"kind": "roll", "expected_version": game.version}).encode(),
        headers={
            "Cookie": f"sessionid={session_cookie(user)}; csrftoken={token}",
            "X-CSRFToken": token,
            "HX-Request": "true",
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(response.status)


@pytest.mark.slow  # real processes started for it: in make test-long, to keep make test under ten minutes
def test_a_move_posted_to_one_process_reaches_a_spectator_of_the_other(
    two_daphnes: list[int], duel: Game
) -> None:
    first, second = two_daphnes
    mover = duel.seats.get(number=engine.from_dict(duel.state).turn).user
    expected = f"<!--push {duel.version + 1}-->"

    async def scenario() -> str:
        url = f"ws://127.0.0.1:{first}/ws/games/{duel.public_id}/"
        async with websockets.connect(url, origin=f"http://127.0.0.1:{first}") as spectator:
            snapshot = await asyncio.wait_for(spectator.recv(), 10)
            assert snapshot.startswith(f"<!--snapshot {duel.version}-->")
            status = await asyncio.to_thread(post_roll, second, duel, mover)
            assert status == 200
            async with asyncio.timeout(10):
                while True:
                    message = await spectator.recv()
                    if message.startswith(expected):
                        return str(message)

    message = run(scenario)
    assert 'id="board"' in message or 'id="pending"' in message
    duel.refresh_from_db()
    assert expected == f"<!--push {duel.version}-->"


@pytest.mark.slow  # real processes started for it: in make test-long, to keep make test under ten minutes
def test_a_foreign_origin_is_refused_by_a_real_process(two_daphnes: list[int], duel: Game) -> None:
    async def scenario() -> None:
        url = f"ws://127.0.0.1:{two_daphnes[0]}/ws/games/{duel.public_id}/"
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            async with websockets.connect(url, origin="http://evil.example"):
                pass
        assert refused.value.response.status_code == 403

    run(scenario)

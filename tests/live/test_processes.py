"""Scale-out: two real daphne processes share one Redis. A spectator on the
first hears of a move posted through the second."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
import websockets
from django.conf import settings
from django.test import Client

from games import engine
from games.models import Game
from tests.conftest import database_url_for_tests

BASE_DIR = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_serving(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"daphne exited early; see {log}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"daphne on port {port} did not answer within 60 s; see {log}")


@pytest.fixture
def two_daphnes(transactional_db: None) -> Iterator[list[int]]:
    """Two daphne processes on two ports, against the test database and the
    test run's Redis prefix (so they share one channel layer)."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url_for_tests(),
        REDIS_URL=settings.REDIS_URL,
        REDIS_PREFIX=settings.REDIS_PREFIX,
        DJANGO_SETTINGS_MODULE="monopoly_site.settings",
    )
    (BASE_DIR / ".run").mkdir(exist_ok=True)
    ports, processes, logs = [free_port(), free_port()], [], []
    try:
        for port in ports:
            log = BASE_DIR / ".run" / f"test-daphne-{os.getpid()}-{port}.log"
            out = open(log, "w")  # noqa: SIM115
            logs.append(out)
            processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "daphne",
                        "-b",
                        "127.0.0.1",
                        "-p",
                        str(port),
                        "monopoly_site.asgi:application",
                    ],
                    cwd=BASE_DIR,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
        for port, process, out in zip(ports, processes, logs, strict=True):
            wait_until_serving(port, process, Path(out.name))
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        for out in logs:
            out.close()


def post_roll(port: int, game: Game, user: Any) -> int:
    """Post the move as a browser would: session cookie, CSRF cookie and header."""
    client = Client()
    client.force_login(user)
    token = secrets.token_hex(16)  # a CSRF secret: 32 characters
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{game.get_absolute_url()}act",
        data=urlencode({"kind": "roll", "expected_version": game.version}).encode(),
        headers={
            "Cookie": f"sessionid={client.cookies['sessionid'].value}; csrftoken={token}",
            "X-CSRFToken": token,
            "HX-Request": "true",
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(response.status)


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

    message = asyncio.run(scenario())
    assert 'id="board"' in message or 'id="pending"' in message
    duel.refresh_from_db()
    assert expected == f"<!--push {duel.version}-->"


def test_a_foreign_origin_is_refused_by_a_real_process(two_daphnes: list[int], duel: Game) -> None:
    async def scenario() -> None:
        url = f"ws://127.0.0.1:{two_daphnes[0]}/ws/games/{duel.public_id}/"
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            async with websockets.connect(url, origin="http://evil.example"):
                pass
        assert refused.value.response.status_code == 403

    asyncio.run(scenario())

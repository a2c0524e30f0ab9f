"""Issue #15: every socket gets every version. Fifty spectator sockets open
at once on a freshly started daphne (whose ``live.fanout`` has no Redis
subscription yet), spread over several games; then the games move, the moves
made here, in the test process, so that every push reaches daphne through
Redis pub/sub. Each socket must get each new version once, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from django.db import connection

from games import services
from games.models import Game
from tests.live.conftest import FRAME, run
from tests.live.servers import daphnes

SOCKETS = 50
GAMES = 5
MOVES = 6  # per game


@pytest.fixture
def fresh_daphne(transactional_db: None) -> Iterator[int]:
    with daphnes(1) as [port]:
        yield port


def started_games() -> list[Game]:
    """Bot games whose bots this test moves itself (``services.play_bot_move``):
    a bot always has a move, and no task of theirs is queued."""
    return [
        services.create_seated_game(
            humans=[], bots=["heuristic"] * 2, start=True, bot_delay_ms=3_600_000
        )
        for _ in range(GAMES)
    ]


def move_apart(game: Game) -> int:
    """One bot move, in a thread of the loop's executor, leaving no
    connection open there; returns the new version."""
    try:
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        assert services.play_bot_move(game.pk, version), version
        return version + 1
    finally:
        connection.close()


class Spectator:
    """One socket's view: the snapshot's version, then each push's."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.snapshot: int | None = None
        self.pushes: list[int] = []
        self.changed = asyncio.Event()

    async def watch(self, port: int, opened: asyncio.Event) -> None:
        url = f"ws://127.0.0.1:{port}/ws/games/{self.game.public_id}/"
        async with websockets.connect(url, origin=f"http://127.0.0.1:{port}") as socket:
            opened.set()
            async for message in socket:
                match = FRAME.match(str(message))
                if match is None or match.group(1) == "live":
                    continue  # presence news
                if match.group(1) == "push" and 'id="status"' not in str(message):
                    continue  # the win bar's own push: it trails the game by design
                version = int(match.group(2))
                if match.group(1) == "snapshot":
                    assert self.snapshot is None, "a snapshot other than the first"
                    self.snapshot = version
                else:
                    self.pushes.append(version)
                self.changed.set()

    async def until(self, done: Any, timeout: float) -> None:
        async with asyncio.timeout(timeout):
            while not done(self):
                self.changed.clear()
                await self.changed.wait()


@pytest.mark.slow  # real processes started for it: in make test-long, to keep make test under ten minutes
def test_fifty_sockets_opened_at_once_on_a_fresh_daphne_get_every_version(
    fresh_daphne: int, no_bot_tasks: Any
) -> None:
    games = started_games()
    spectators = [Spectator(games[i % GAMES]) for i in range(SOCKETS)]

    async def scenario() -> dict[int, int]:
        loop = asyncio.get_running_loop()
        opened = [asyncio.Event() for _ in spectators]
        watching = [
            asyncio.create_task(s.watch(fresh_daphne, o))
            for s, o in zip(spectators, opened, strict=True)
        ]
        try:
            # All at once: 50 handshakes, so 50 first joins of 5 audiences.
            async with asyncio.timeout(60):
                await asyncio.gather(*(o.wait() for o in opened))
            await asyncio.gather(
                *(s.until(lambda s: s.snapshot is not None, 60) for s in spectators)
            )
            finals = {}
            async with asyncio.timeout(120):
                for _ in range(MOVES):
                    for game in games:
                        # A plain thread, not the loop's sync thread: the
                        # move's pushes then run on a loop of their own, apart
                        # from this one's 50 sockets.
                        finals[game.pk] = await loop.run_in_executor(None, move_apart, game)
            # A socket that misses a version is shown by the comparison below.
            await asyncio.gather(
                *(
                    s.until(lambda s: s.pushes and s.pushes[-1] >= finals[s.game.pk], 30)
                    for s in spectators
                ),
                return_exceptions=True,
            )
            return finals
        finally:
            for task in watching:
                task.cancel()
            async with asyncio.timeout(30):
                results = await asyncio.gather(*watching, return_exceptions=True)
            errors = [r for r in results if isinstance(r, Exception)]
            assert not errors, errors

    finals = run(scenario)
    for spectator in spectators:
        start = spectator.snapshot
        assert start is not None
        assert spectator.pushes == list(range(start + 1, finals[spectator.game.pk] + 1))

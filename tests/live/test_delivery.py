"""A push costs each socket only its send (issue #35): no Redis command and
no database query per socket, however many are open."""

from __future__ import annotations

import contextvars
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import redis.asyncio
from django.db.backends import utils as db_utils

from games.models import Game
from live import fanout, groups
from tests.live.conftest import FRAME, collect, communicator, receive_until, run

pytestmark = pytest.mark.usefixtures("live_db")

_counting: contextvars.ContextVar[Counter[str] | None] = contextvars.ContextVar(
    "counting", default=None
)


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Count, in ``_counting``'s counter, the Redis commands (a pipeline as
    one) and database queries made in its context: the context a push's
    delivery runs in (``fanout.publish`` hands it on to the delivering task,
    and ``database_sync_to_async`` to its thread)."""

    def counted(kind: str, real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counter = _counting.get()
            if counter is not None:
                counter[kind] += 1
            return real(*args, **kwargs)

        return wrapper

    for owner, name, kind in (
        (redis.client.Redis, "execute_command", "redis"),
        (redis.client.Pipeline, "execute", "redis pipeline"),
        (redis.asyncio.client.Redis, "execute_command", "redis"),
        (redis.asyncio.client.Pipeline, "execute", "redis pipeline"),
        (db_utils.CursorWrapper, "_execute", "query"),
        (db_utils.CursorWrapper, "_executemany", "query"),
    ):
        monkeypatch.setattr(owner, name, counted(kind, getattr(owner, name)))
    yield


def push_to(game: Game, sockets: int) -> Counter[str]:
    """What a push to ``sockets`` glancing sockets (anonymous home-page boards,
    which change no presence count) cost, from its publish until every one
    has it."""

    async def scenario() -> Counter[str]:
        path = f"/ws/games/{game.public_id}/?glance=1"
        comms = [communicator(path) for _ in range(sockets)]
        for comm in comms:
            assert (await comm.connect())[0]
            await collect(comm)
        version = game.version + 1
        message = {
            "type": "game.push",
            "part": "public",
            "version": version,
            "html": f"<!--push {version}-->",
        }
        counter: Counter[str] = Counter()
        token = _counting.set(counter)
        try:
            fanout.publish([(groups.spectators_group(game.pk), message)])
            for comm in comms:
                await receive_until(
                    comm,
                    lambda out: any(
                        (m := FRAME.match(o)) and m.group(2) == str(version) for o in out
                    ),
                )
        finally:
            _counting.reset(token)
        for comm in comms:
            await comm.disconnect()
        return counter

    result: Counter[str] = run(scenario)
    return result


def test_a_push_costs_no_round_trip_per_socket(duel: Game, round_trips: None) -> None:
    one, many = push_to(duel, 1), push_to(duel, 8)
    # The publish itself (one pipeline), whatever the number of sockets.
    assert one == many == Counter({"redis pipeline": 1})

"""Reading the API's NDJSON streams from a real Daphne, in a thread, or
from their consumer in this process."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.live.servers import Daphne, free_port

Line = dict[str, Any]


KEEPALIVE = 1  # seconds, in the tests' Daphne


@pytest.fixture(scope="session")
def stream_server(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """One Daphne on the test database for the API's stream tests (a start
    costs seconds): the streams need the ASGI server."""
    with django_db_blocker.unblock():
        server = Daphne(
            free_port(),
            env={
                "API_STREAM_KEEPALIVE_SECONDS": str(KEEPALIVE),
                # A whole game posts faster than a token's budget (tests/api/
                # test_rate_limits.py checks the limits themselves).
                "API_RATE_LIMIT_READ": "",
                "API_RATE_LIMIT_WRITE": "",
            },
        )
        server.start()
        try:
            server.wait_until_serving()
            yield f"http://127.0.0.1:{server.port}"
        finally:
            server.stop()


@pytest.fixture
def site(stream_server: str, transactional_db: None) -> str:
    return stream_server


class Stream:
    """One stream read in a thread until ``stop`` says so (the connection is
    then closed, as a client that goes away closes it) or it ends."""

    def __init__(
        self, url: str, token: str, stop: Callable[[Line], bool] = lambda line: False
    ) -> None:
        self.lines: queue.Queue[Line | None] = queue.Queue()
        self.seen: list[Line] = []
        self.status: int | None = None
        self.content_type = ""
        self.closed = threading.Event()
        self.error: Exception | None = None
        self._url, self._token, self._stop = url, token, stop
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        headers = {"Authorization": f"Bearer {self._token}"}
        try:
            with httpx.stream("GET", self._url, headers=headers, timeout=60) as answer:
                self.status = answer.status_code
                self.content_type = answer.headers.get("content-type", "")
                for text in answer.iter_lines():
                    if not text:
                        continue
                    line = json.loads(text)
                    self.lines.put(line)
                    if self._stop(line):
                        break
        except httpx.HTTPError as exc:
            self.error = exc  # the server went away: the stream has ended
        finally:
            self.lines.put(None)
            self.closed.set()

    def until(self, check: Callable[[Line], bool], timeout: float = 20) -> Line:
        """Lines up to the first that passes ``check`` (kept in ``seen``)."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line is not None, f"the stream ended first: {self.seen[-3:]}"
            self.seen.append(line)
            if check(line):
                return line

    def rest(self, timeout: float = 20) -> list[Line]:
        """Every line until the stream has closed."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if line is None:
                return self.seen
            self.seen.append(line)

    def join(self, timeout: float = 20) -> None:
        self._thread.join(timeout)
        assert not self._thread.is_alive()


def state_at(version: int) -> Callable[[Line], bool]:
    return lambda line: line["type"] == "state" and line["version"] >= version


def wait_for(check: Callable[[], Any], timeout: float = 20, every: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        time.sleep(every)


def edit(game: Any, change: Callable[[Any], Any], **fields: Any) -> None:
    """Script the game's position (``change`` edits the engine state or
    returns a new one, as ``engine.setup`` does) and
    set ``fields`` of the game row, with the row locked: a bot's move
    waiting on the lock then plays from the scripted position."""
    from django.db import transaction

    from games import engine
    from games.models import Game
    from tests.conftest import setup_writes

    with transaction.atomic(), setup_writes("a scripted position"):
        locked = Game.objects.select_for_update().get(pk=game.pk)
        state = engine.from_dict(locked.state)
        changed = change(state)  # a new state, or None for one changed in place
        locked.state = engine.to_dict(changed if isinstance(changed, engine.State) else state)
        for name, value in fields.items():
            setattr(locked, name, value)
        locked.save(update_fields=["state", *fields])
    game.refresh_from_db()


async def served(
    path: str, headers: dict[str, str], query: str = "", address: str = "127.0.0.1"
) -> list[dict[str, Any]]:
    """What the streams' consumer sends for one request, run in this
    process as the ASGI server runs it: the request, then, once the
    response has ended, the disconnect (``follow=false`` streams end)."""
    from channels.db import database_sync_to_async
    from django.db import connections

    from api.stream import StreamConsumer

    sent: list[dict[str, Any]] = []
    ended = asyncio.Event()
    requests = [{"type": "http.request", "body": b""}]

    async def receive() -> dict[str, Any]:
        if requests:
            return requests.pop()
        await ended.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            ended.set()

    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": query.encode(),
        "headers": [
            (b"host", b"localhost"),
            *((name.lower().encode(), value.encode("latin-1")) for name, value in headers.items()),
        ],
        "client": (address, 50000),
    }
    await StreamConsumer.as_asgi()(scope, receive, send)
    # The connection the consumer's reads opened in this thread, which
    # otherwise outlives the test database.
    await database_sync_to_async(connections.close_all)()
    return sent

"""The WebSocket rows of the authorisation matrix (``SOCKETS``), each cell
a real connection to a real Daphne with the persona's session cookie; and
a move's pushes, of which only the seat's own socket gets its panel."""

from __future__ import annotations

import asyncio
import re
import secrets
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
import websockets
from django.conf import settings

from games import engine
from games.models import Game
from monopoly_site.routing import websocket_urlpatterns
from tests.live.conftest import run
from tests.live.servers import daphnes
from tests.monopoly_site.authorization_table import (
    CLOSED,
    LISTENS,
    MOVES,
    PERSONAS,
    PLAYS,
    SEATED,
    SOCKETS,
    WATCHES,
    WS_GAME,
    WS_TOURNAMENT,
    Expect,
    Socket,
)
from tests.monopoly_site.authorization_world import (
    MOVER_SEAT,
    WAITING_SEAT,
    World,
    build_world,
    leaks,
    running_game,
)

pytestmark = pytest.mark.django_db
TIMEOUT = 10  # seconds, for a frame that must come
SEAT_PRIVATE = ('id="actions"', "expected_version", "Players' chat")
CONSUMERS = {
    str(route.pattern): route.callback.consumer_class.__name__  # type: ignore[attr-defined]
    for route in websocket_urlpatterns
}


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    with django_db_blocker.unblock():
        built = build_world()
        # Moved through Daphne by the push test: a game of its own.
        built.games["push"] = running_game(built.users, taken_over=False)
    yield built
    with django_db_blocker.unblock():
        built.remove()


@pytest.fixture(scope="module")
def port(world: World) -> Iterator[int]:
    with daphnes(1) as [served]:
        yield served


def _path(socket: Socket, world: World) -> str:
    kwargs = dict(socket.kwargs)
    if socket.game:
        kwargs["public_id"] = world.games[socket.game].public_id
    path = re.sub(r"<(?:str|int):(\w+)>", lambda m: kwargs[m.group(1)], socket.pattern)
    path = "/" + re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: kwargs[m.group(1)], path).strip("^$")
    return f"{path}?{socket.query}" if socket.query else path


async def _open(port: int, path: str, cookie: str | None) -> Any:
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"} if cookie else {}
    return await websockets.connect(
        f"ws://127.0.0.1:{port}{path}",
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        additional_headers=headers,
        open_timeout=TIMEOUT,
    )


async def _until(ws: Any, prefix: str) -> list[str]:
    """Every frame up to and including the first that starts with ``prefix``."""
    seen = []
    async with asyncio.timeout(TIMEOUT):
        while True:
            seen.append(str(await ws.recv()))
            if seen[-1].startswith(prefix):
                return seen


CELLS = [
    pytest.param(
        socket, persona, cell, id=f"{CONSUMERS[socket.pattern]}-{socket.variant}-{persona}"
    )
    for socket in SOCKETS
    for persona, cell in zip(PERSONAS, socket.cells, strict=True)
]


@pytest.mark.parametrize(("socket", "persona", "expect"), CELLS)
def test_socket_authorization(
    world: World, port: int, socket: Socket, persona: str, expect: Expect
) -> None:
    cookie = world.cookies.get(persona)
    path = _path(socket, world)

    async def scenario() -> list[str]:
        try:
            ws = await _open(port, path, cookie)
        except websockets.exceptions.InvalidStatus as refused:
            assert expect is CLOSED, f"{path} as {persona}: expected {expect}, got refused"
            assert refused.response.status_code == 403
            return []
        assert expect is not CLOSED, f"{path} as {persona}: expected {expect}, got accepted"
        try:
            if socket.pattern in (WS_GAME, WS_TOURNAMENT):
                return await _until(ws, "<!--snapshot")
            if expect is LISTENS and socket.kwargs:
                return await _until(ws, "<!--live-->")
            return []  # a waiting page's socket speaks only when the game changes
        finally:
            await ws.close()

    frames = run(scenario)
    text = "".join(frames)
    if expect in (PLAYS, MOVES):
        assert 'id="actions"' in text
        assert ('name="kind" value="roll"' in text) is (expect is MOVES)
    if expect is WATCHES:
        assert not [marker for marker in SEAT_PRIVATE if marker in text]
    assert not [s for s in world.running_secrets() if s in text], f"{path} reveals a secret"
    assert not leaks(persona, text), f"{path} as {persona} reveals {leaks(persona, text)}"
    if persona not in SEATED:
        leaked = [public_id for public_id in world.private_ids() if public_id in text]
        assert not leaked, f"{path} shows {persona} private games: {leaked}"


def _post_roll(port: int, game: Game, cookie: str) -> int:
    """As a browser posts a move: session and CSRF cookies, CSRF header, htmx."""
    token = secrets.token_hex(16)
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{game.get_absolute_url()}act",
        data=urlencode({"kind": engine.ROLL, "expected_version": game.version}).encode(),
        headers={
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}; csrftoken={token}",
            "X-CSRFToken": token,
            "HX-Request": "true",
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        return int(response.status)


def _kinds(html: str) -> set[str]:
    return set(re.findall(r'name="kind" value="([a-z_]+)"', html))


def test_only_the_seat_to_move_gets_its_decisions_in_a_moves_push(world: World, port: int) -> None:
    game = world.game("push")
    cookies = world.cookies
    path = f"/ws/games/{game.public_id}/"
    pushed = f"<!--push {game.version + 1}-->"

    async def scenario() -> dict[str, list[str]]:
        sockets = {
            p: await _open(port, path, cookies[p]) for p in ("spectator", "mover", "waiting")
        }
        try:
            for ws in sockets.values():
                await _until(ws, "<!--snapshot")
            assert await asyncio.to_thread(_post_roll, port, game, cookies["mover"]) == 200
            got = {"spectator": await _until(sockets["spectator"], pushed)}
            for persona in ("mover", "waiting"):
                # A seat gets the players' push and then its own.
                first = await _until(sockets[persona], pushed)
                got[persona] = first + await _until(sockets[persona], pushed)
            return got
        finally:
            for ws in sockets.values():
                await ws.close()

    got = {persona: "".join(frames) for persona, frames in run(scenario).items()}
    state = engine.from_dict(world.game("push").state)
    mine = {a.kind for a in engine.legal_actions(state, MOVER_SEAT)}
    theirs = {a.kind for a in engine.legal_actions(state, WAITING_SEAT)}
    decisions = mine - theirs
    assert decisions, "the roll left the mover nothing of their own to decide"
    assert decisions <= _kinds(got["mover"])
    assert not decisions & _kinds(got["waiting"])
    assert 'id="actions"' in got["waiting"]
    assert not [marker for marker in SEAT_PRIVATE if marker in got["spectator"]]
    for persona, text in got.items():
        assert not leaks(persona, text), f"{persona}'s pushes reveal {leaks(persona, text)}"

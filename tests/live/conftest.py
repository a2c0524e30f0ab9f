"""Helpers for driving the consumers in-process with WebsocketCommunicator.

There is no pytest-asyncio here: each test writes its scenario as a coroutine
and runs it with ``run``. The channel layer is the real Redis one."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import engine, services
from games.models import Game
from monopoly_site.routing import websocket_urlpatterns
from tests.games.conftest import alice, bob, charlie, duel, no_bot_tasks, private_duel

__all__ = ["alice", "bob", "charlie", "duel", "no_bot_tasks", "private_duel"]

FRAME = re.compile(r"^<!--(push|snapshot|live)(?: (\d+)(?: after \d+)?)?-->")


def run(scenario: Callable[[], Awaitable[Any]]) -> Any:
    """Run a coroutine function to completion in a thread of its own: the
    browser tests' Playwright keeps an event loop running in the main thread
    for the rest of the session.

    Each scenario gets an event loop of its own, and so a channel layer of its
    own: channels_redis keeps asyncio locks for the process's channel, which
    bind to the first loop that waits on them, and a receive that an earlier
    scenario's loop left behind failed the next scenario's ("bound to a
    different event loop") or hung it. A site process has one loop for good."""
    before = channel_layers[DEFAULT_CHANNEL_LAYER]
    channel_layers.set(DEFAULT_CHANNEL_LAYER, channel_layers.make_backend(DEFAULT_CHANNEL_LAYER))
    try:
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(async_to_sync(scenario)).result()
    finally:
        channel_layers.set(DEFAULT_CHANNEL_LAYER, before)


class Socket(WebsocketCommunicator):
    """A test socket that never sees the marks ``collect`` sends to the
    other sockets of a group (they are dropped as they are sent)."""

    def __init__(self, application: Any, path: str) -> None:
        super().__init__(application, path)
        self.mark_name = f"socket-{next(_sockets)}"
        self._output_queue = _Outbox(self.mark_name)


class _Outbox(asyncio.Queue[dict[str, Any]]):
    def __init__(self, mark_name: str) -> None:
        super().__init__()
        self.mark_name = mark_name

    def put_nowait(self, item: dict[str, Any]) -> None:
        match = MARK.match(item.get("text") or "")
        if match is None or match.group(1) == self.mark_name:
            super().put_nowait(item)


_sockets = itertools.count()
MARK = re.compile(r"^<!--live--><!--mark ([\w-]+) (\d+)-->$")
WAIT = 10.0  # seconds for a mark to come back before the test fails


def communicator(path: str, user: Any = None) -> Socket:
    """A socket straight into the router, with ``user`` as the scope's user
    (the middleware stack is covered by the origin test)."""
    from django.contrib.auth.models import AnonymousUser

    comm = Socket(URLRouter(websocket_urlpatterns), path)
    comm.scope["user"] = user if user is not None else AnonymousUser()
    return comm


async def collect(
    comm: WebsocketCommunicator, *, via: list[str] | None = None, quiet: float = 0.4
) -> list[str]:
    """Every message the socket has been sent so far, returned as soon as
    that is known rather than after a quiet spell.

    A mark goes out after them by each way a message reaches the socket, and
    the messages before the marks are returned once the marks are back. The
    channel layer (chat, presence, lobby lists, unread counts) delivers a
    socket's messages in order, and handles them only after the consumer's
    ``connect`` and any frame the client sent before: a first mark there
    shows that the socket has sent what it sends on connect, a second one
    everything sent to it by then. Game pushes come through ``live.fanout``,
    in order of publication: a mark published after the first mark is back
    shows every push published before (a push's on-commit publishes before
    the write that made it returns).

    ``via``: the channel-layer groups of a socket at a path not known here
    (its consumer must forward a ``live.push``). A socket made otherwise than
    by ``communicator``, or at a path not known here and without ``via``, is
    read until it has been quiet for ``quiet`` seconds, as it was before."""
    known = await _paths(comm) if isinstance(comm, Socket) else None
    if via is not None and isinstance(comm, Socket):
        known = (via, known[1] if known else [])
    if known is None:
        return await _until_quiet(comm, quiet)
    layer_groups, audiences = known
    out: list[str] = []
    await _mark(comm, layer_groups, [], out)
    await _mark(comm, layer_groups, audiences, out)
    return out


async def _until_quiet(comm: WebsocketCommunicator, quiet: float) -> list[str]:
    # ``receive_nothing`` does not cancel the consumer the way a timed-out
    # ``receive_from`` does.
    out = []
    while not await comm.receive_nothing(timeout=quiet):
        out.append(await comm.receive_from())
    return out


async def receive_until(
    comm: Socket, done: Callable[[list[str]], object], timeout: float = WAIT
) -> list[str]:
    """The messages from now until ``done(messages)`` is true (at once
    then); fails if it is not within ``timeout`` seconds."""
    out: list[str] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while not done(out):
        left = deadline - asyncio.get_running_loop().time()
        try:
            message = await comm.receive_from(timeout=max(left, 0.01))
        except TimeoutError:
            raise AssertionError(f"not done within {timeout} s; had {out!r}") from None
        if not MARK.match(message):
            out.append(message)
    return out


async def _mark(
    comm: Socket, layer_groups: list[str], audiences: list[str], out: list[str]
) -> None:
    from channels.layers import get_channel_layer

    from live import fanout

    expected = set()
    for group in layer_groups:
        html = _next_mark(comm)
        expected.add(html)
        await get_channel_layer().group_send(group, {"type": "live.push", "html": html})
    if audiences:
        # A socket is in one of these audiences, never both.
        html = _next_mark(comm)
        expected.add(html)
        fanout.publish([(audience, {"type": "live.push", "html": html}) for audience in audiences])
    deadline = asyncio.get_running_loop().time() + WAIT
    while expected:
        left = deadline - asyncio.get_running_loop().time()
        try:
            message = await comm.receive_from(timeout=max(left, 0.01))
        except TimeoutError:
            raise AssertionError(f"no mark came back within {WAIT} s; had {out!r}") from None
        if MARK.match(message):
            expected.discard(message)
        else:
            out.append(message)


_marks = itertools.count()


def _next_mark(comm: Socket) -> str:
    return f"<!--live--><!--mark {comm.mark_name} {next(_marks)}-->"


async def _paths(comm: Socket) -> tuple[list[str], list[str]] | None:
    """The channel-layer groups and the fan-out audiences by which a
    message reaches the socket at ``comm``'s path (None: not known here)."""
    from live import groups

    path = comm.scope["path"].strip("/").split("/")
    if path[:2] == ["ws", "games"]:
        pk = await database_sync_to_async(
            lambda: Game.objects.values_list("pk", flat=True).get(public_id=path[2])
        )()
        if path[3:] == ["waiting"]:
            return [groups.waiting_group(pk)], []
        return [groups.game_group(pk)], [groups.spectators_group(pk), groups.players_group(pk)]
    if path == ["ws", "lobby"]:
        return [groups.LOBBY_GROUP], []
    if path == ["ws", "watch"]:
        return [groups.WATCH_GROUP], []
    if path[:2] == ["ws", "inbox"]:
        return [groups.person_group(comm.scope["user"].pk)], []
    return None


def frames(messages: list[str], kind: str) -> list[tuple[int, str]]:
    out = []
    for message in messages:
        match = FRAME.match(message)
        if match and match.group(1) == kind:
            out.append((int(match.group(2) or 0), message))
    return out


def move(game: Game) -> int:
    """Whoever is to move makes their first legal move (not a trade);
    returns the new version."""
    game.refresh_from_db()
    state = engine.from_dict(game.state)
    # Whoever moves next, else anyone with a decision open, else anyone.
    players = [
        engine.next_actor(state),
        *(p.player for p in engine.pending_decisions(state)),
        *range(state.n),
    ]
    choices = [
        a for p in players if p is not None and p >= 0 for a in engine.legal_actions(state, p)
    ]
    # Not a StopIteration: raised into a future (a test's executor), it hangs the loop.
    action = next((a for a in choices if a.terms is None), None)
    if action is None:
        # Only the system may act (a window to close): the timer does it.
        later = timezone.now() + timedelta(days=30)
        assert services.expire_decision(game.pk, game.version, now=later), game.version
        game.refresh_from_db()
        return game.version
    player = action.player
    services.submit_action(
        public_id=game.public_id,
        user=game.seats.get(number=player).user,
        action=action.to_dict(),
        expected_version=game.version,
    )
    game.refresh_from_db()
    return game.version


@database_sync_to_async
def roll(game: Game) -> int:
    """Whoever is to move rolls; returns the new version."""
    game.refresh_from_db()
    mover = game.seats.get(number=engine.from_dict(game.state).turn).user
    services.submit_action(
        public_id=game.public_id, user=mover, action={"kind": "roll"}, expected_version=game.version
    )
    game.refresh_from_db()
    return game.version


@pytest.fixture(scope="session")
def shared_daphne(django_db_setup: None, django_db_blocker: Any) -> Iterator[int]:
    """One Daphne on the test database for the socket tests that need only
    a server (a start costs seconds); its port. A test that stops, restarts
    or configures its server starts one of its own."""
    from tests.live.servers import daphnes

    with django_db_blocker.unblock(), daphnes(1) as [port]:
        yield port


@pytest.fixture
def live_db(transactional_db: None) -> None:
    """The consumers read through their own threads and the broadcast runs
    on commit, so these tests need real commits."""


def pushes_of(game: Game, **announced: Any) -> list[list[tuple[str, dict[str, Any]]]]:
    """The batches the broadcast sends for ``game``'s current version, with
    what a write would have announced (``Committed``'s other fields)."""
    from games.services.write import Committed
    from live import broadcast

    return list(broadcast.game_pushes(Committed(game, game.version, **announced)))

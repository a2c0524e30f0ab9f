"""Helpers for driving the consumers in-process with WebsocketCommunicator.

There is no pytest-asyncio here: each test writes its scenario as a coroutine
and runs it with ``run``. The channel layer is the real Redis one."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
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


def communicator(path: str, user: Any = None) -> WebsocketCommunicator:
    """A socket straight into the router, with ``user`` as the scope's user
    (the middleware stack is covered by the origin test)."""
    from django.contrib.auth.models import AnonymousUser

    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    comm.scope["user"] = user if user is not None else AnonymousUser()
    return comm


async def collect(comm: WebsocketCommunicator, quiet: float = 0.4) -> list[str]:
    """Every message until the socket stays quiet for ``quiet`` seconds.
    (``receive_nothing`` does not cancel the consumer the way a timed-out
    ``receive_from`` does.)"""
    out = []
    while not await comm.receive_nothing(timeout=quiet):
        out.append(await comm.receive_from())
    return out


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

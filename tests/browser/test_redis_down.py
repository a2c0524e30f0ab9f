"""A game page in a real browser through a Redis outage (issue 15): its socket
goes offline, chat says it is unavailable and keeps the typed text, and once
Redis is back the socket reconnects by itself and the page shows the move
made meanwhile, without a reload."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from accounts.models import User
from games import engine
from games.models import Game
from tests.browser.test_live import context_for
from tests.games.conftest import alice, bob, duel
from tests.live.servers import Daphne, free_port
from tests.monopoly_site.test_redis_down import RedisServer, move, started_redis

# Minutes of browsers: in `make test-long` (which CI runs too), so that
# `make test` stays under ten minutes.
pytestmark = pytest.mark.slow

__all__ = ["alice", "bob", "duel"]

BACKOFF = 30_000  # ms: the page's reconnect backoff reaches 8 s between tries


redis_server = pytest.fixture(name="redis_server")(started_redis)


@pytest.fixture
def port(redis_server: RedisServer, transactional_db: None) -> Iterator[int]:
    daphne = Daphne(free_port(), env={"REDIS_URL": redis_server.url})
    daphne.start()
    try:
        daphne.wait_until_serving()
        yield daphne.port
    finally:
        daphne.stop()


@pytest.mark.browser
def test_a_game_page_rides_out_a_redis_outage_and_resyncs_by_itself(
    browser: Any, port: int, redis_server: RedisServer, duel: Game, alice: User, bob: User
) -> None:
    base = f"http://127.0.0.1:{port}"
    mover = duel.seats.get(number=engine.from_dict(duel.state).turn).user
    watcher = bob if mover == alice else alice
    context = context_for(browser, base, watcher)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(duel.get_absolute_url())
    page.wait_for_selector("#presence .presence-line:not(.muted)")  # the socket is up
    page.evaluate("window.__notReloaded = true")

    redis_server.kill()
    page.wait_for_selector(".game.is-offline")
    page.fill("#chat-players-body", "anyone there?")
    page.click(".chat-players .chat-form button")
    page.wait_for_selector(".chat-players .chat-error:has-text('Chat is unavailable')")
    assert page.input_value("#chat-players-body") == "anyone there?"  # not lost
    assert move(port, duel).status_code == 200  # the other player moves meanwhile
    duel.refresh_from_db()

    redis_server.start()
    page.wait_for_selector(f'#board[data-version="{duel.version}"]', timeout=BACKOFF)
    page.wait_for_selector(".game:not(.is-offline)")
    assert page.evaluate("window.__notReloaded") is True
    # Chat works again (the resync renders the chat afresh, form included).
    page.fill("#chat-players-body", "back again")
    page.click(".chat-players .chat-form button")
    page.wait_for_selector(".chat-players .chat-log :text('back again')")
    context.close()

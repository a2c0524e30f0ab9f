"""Away means told (issue #31): a player with a decision open and no page or
stream of theirs in front of them gets the live "your move" notice within a
minute, whether the decision arose while they were away, while they were
looking (and they have since closed or hidden the page), or from the
timer's move for them. A real worker and beat, real presence in Redis, and
the game's real socket consumer opened and closed."""

from __future__ import annotations

import asyncio
import functools
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async
from django.conf import settings as site
from django.utils import timezone

from games import engine, services
from games.models import Deadline, Game
from live import presence
from notifications.decisions import local_now
from notifications.models import Notification
from tests.live.conftest import collect, communicator, run
from tests.live.servers import daphnes, session_cookie
from tests.timers.conftest import due_soon, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# The promise: told within a minute of leaving (the tests' recheck is 2 s).
MINUTE = 60.0


@pytest.fixture(autouse=True)
def quick_recheck(settings: Any) -> None:
    """The moves made here look again as soon as the worker does."""
    settings.TURN_NOTICE_RECHECK_SECONDS = 2


def state_of(game: Game) -> engine.State:
    game.refresh_from_db()
    return engine.from_dict(game.state)


def notice(game: Game, user: Any) -> Notification | None:
    return Notification.objects.filter(
        game=game, user=user, kind="your_turn", read_at__isnull=True
    ).first()


def play_until_waiting_on(game: Game, player: int) -> None:
    """The others play (as the heuristic bot would) until ``player`` is to move."""
    while (state := state_of(game)).finished is False and engine.next_actor(state) != player:
        actor = engine.next_actor(state)
        assert actor is not None
        bot = engine.make_bot("heuristic", rng=engine.bot_rng(state, game.version))
        services.submit_action(
            public_id=game.public_id,
            user=game.seats.get(number=actor).user,
            action=bot.act(state, actor).to_dict(),
            expected_version=game.version,
        )


async def until(check: Any, timeout: float = 30.0) -> Any:
    """``wait_for`` inside a socket's scenario: each check in a thread of its
    own turn, so that the consumer's own database calls are not held up
    behind a waiting one."""
    end = asyncio.get_running_loop().time() + timeout
    while not (value := await database_sync_to_async(check)()):
        assert asyncio.get_running_loop().time() < end, f"timed out waiting for {check}"
        await asyncio.sleep(0.2)
    return value


def put_off_since(game: Game, player: int, moment: datetime) -> bool:
    """The worker has looked at each of ``player``'s open decisions since
    ``moment``, found them at the game and put the look off."""
    rows = list(Deadline.objects.filter(game=game, player=player))
    return bool(rows) and all(d.notice_at is not None and d.notice_at > moment for d in rows)


def test_a_decision_arising_while_the_player_is_away_tells_them(timers: None, duel: Game) -> None:
    away = 1 - state_of(duel).turn
    user = duel.seats.get(number=away).user
    play_until_waiting_on(duel, away)
    note = wait_for(lambda: notice(duel, user))
    assert note.text.startswith(f"Your move in game {duel.public_id}: ")


@pytest.mark.slow  # the longest of these (a whole turn each way): make test keeps the others
def test_a_player_who_closes_the_page_after_their_own_move_is_told(
    timers: None, duel: Game
) -> None:
    """The issue's first case: a move made on the page raises a decision of
    their own (buy, or end the turn), and the tab is closed on it."""
    player = state_of(duel).turn
    user = duel.seats.get(number=player).user

    async def scenario() -> float:
        comm = communicator(f"/ws/games/{duel.public_id}/", user)
        assert (await comm.connect())[0]
        await collect(comm)
        moved = await database_sync_to_async(_roll)(duel, user)
        # Its first look waits a recheck period (a mover is likely still
        # here), then finds the page open and puts the next one off.
        looked = moved + timedelta(seconds=2)
        await until(lambda: put_off_since(duel, player, looked))
        assert await database_sync_to_async(notice)(duel, user) is None
        await comm.disconnect()
        return time.monotonic()

    closed = run(scenario)
    assert player not in (presence.looking(duel.pk) or frozenset())
    note = wait_for(lambda: notice(duel, user), timeout=MINUTE)
    assert time.monotonic() - closed < MINUTE
    assert f"game {duel.public_id}" in note.text


def _roll(game: Game, user: Any) -> datetime:
    game.refresh_from_db()
    services.submit_action(
        public_id=game.public_id, user=user, action={"kind": "roll"}, expected_version=game.version
    )
    return timezone.now()


@pytest.mark.parametrize("leaving", ["closes", "hides"])
def test_a_decision_that_arose_while_the_player_looked_is_told_once_they_leave(
    timers: None, duel: Game, leaving: str
) -> None:
    """The opponent's moves raise the decision while the page is in front of
    its player: no notice; then the socket closes, or the page is hidden."""
    player = 1 - state_of(duel).turn
    user = duel.seats.get(number=player).user

    async def scenario() -> float:
        comm = communicator(f"/ws/games/{duel.public_id}/", user)
        assert (await comm.connect())[0]
        await comm.send_to(text_data='{"type": "visibility", "visible": true}')
        await collect(comm)
        await database_sync_to_async(play_until_waiting_on)(duel, player)
        arisen = timezone.now()
        await until(lambda: put_off_since(duel, player, arisen))
        assert await database_sync_to_async(notice)(duel, user) is None
        if leaving == "closes":
            await comm.disconnect()
            return time.monotonic()
        # The tab stays open behind another one (its socket too).
        await comm.send_to(text_data='{"type": "visibility", "visible": false}')
        left = time.monotonic()
        await until(lambda: notice(duel, user), timeout=MINUTE)
        await comm.disconnect()
        return left

    left = run(scenario)
    wait_for(lambda: notice(duel, user), timeout=MINUTE)
    assert time.monotonic() - left < MINUTE


def test_the_timer_playing_for_an_away_player_tells_them_with_their_next_decision(
    timers: None, timed_duel: Game
) -> None:
    game = timed_duel
    player = state_of(game).turn
    user = game.seats.get(number=player).user
    wait_for(lambda: notice(game, user))  # their roll, raised while away
    v = game.version
    due_soon(game, 1.0, player=player, kind="roll")
    note = wait_for(
        lambda: (n := notice(game, user)) is not None and "timer played" in n.text and n
    )
    # The timer's roll raised their next decision, told like any other.
    game.refresh_from_db()
    assert game.version > v
    assert any(d.player == player for d in Deadline.objects.filter(game=game))
    played = game.events.filter(kind="note", payload__source="timeout").get()
    at = local_now(user, played.created_at)
    today = at.date() == local_now(user, timezone.now()).date()
    clock = f"{at:%H:%M}" if today else f"{at:%a %H:%M}"
    assert note.text.startswith(f"The timer played Roll for you at {clock} ({at.tzname()}). ")
    assert f"Your move in game {game.public_id}: " in note.text


@pytest.mark.slow  # a real daphne process started for it: in make test-long
def test_a_player_whose_browser_socket_closes_with_their_decision_open_is_told(
    timers: None, duel: Game
) -> None:
    """The same through a real Daphne process and a real WebSocket signed in
    with a session cookie, as the browser opens and closes it."""
    player = 1 - state_of(duel).turn
    user = duel.seats.get(number=player).user
    cookie = session_cookie(user)

    async def scenario(port: int) -> float:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/games/{duel.public_id}/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"{site.SESSION_COOKIE_NAME}={cookie}"},
        ) as socket:
            async with asyncio.timeout(10):
                while not str(await socket.recv()).startswith("<!--snapshot"):
                    pass
            await socket.send('{"type": "visibility", "visible": true}')
            await until(lambda: player in (presence.looking(duel.pk) or ()))
            await asyncio.to_thread(play_until_waiting_on, duel, player)
            arisen = timezone.now()
            await until(lambda: put_off_since(duel, player, arisen))
            assert await database_sync_to_async(notice)(duel, user) is None
        return time.monotonic()

    with daphnes(1) as [port]:
        closed = run(functools.partial(scenario, port))
        note = wait_for(lambda: notice(duel, user), timeout=MINUTE)
    assert time.monotonic() - closed < MINUTE
    assert note.text.startswith(f"Your move in game {duel.public_id}: ")

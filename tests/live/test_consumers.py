"""GameConsumer and LobbyConsumer, driven in-process against the real Redis layer."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games import services
from games.models import Game
from games.web import regions
from games.web.regions import region_context
from games.web.snapshot import Snapshot
from live import consumers, fanout, groups
from monopoly_site.asgi import application
from tests.live.conftest import collect, communicator, frames, move, receive_until, roll, run

pytestmark = pytest.mark.usefixtures("live_db")


def game_path(game: Game) -> str:
    return f"/ws/games/{game.public_id}/"


def test_the_snapshot_arrives_on_connect(duel: Game) -> None:
    async def scenario() -> None:
        comm = communicator(game_path(duel))
        connected, _ = await comm.connect()
        assert connected
        messages = await collect(comm)
        [(version, snapshot)] = frames(messages, "snapshot")
        assert version == duel.version
        for region in ("status", "board", "pending", "players", "log", "chat"):
            assert f'id="{region}"' in snapshot
        assert any('id="presence"' in m for m in messages)
        await comm.disconnect()

    run(scenario)


def test_a_player_gets_the_snapshot_with_their_action_panel(duel: Game, alice: User) -> None:
    async def scenario() -> None:
        comm = communicator(game_path(duel), alice)
        assert (await comm.connect())[0]
        [(_, snapshot)] = frames(await collect(comm), "snapshot")
        assert 'id="actions"' in snapshot
        assert "Your actions" in snapshot
        await comm.disconnect()

    run(scenario)


def test_after_an_action_the_group_push_arrives_with_the_next_version(
    duel: Game, alice: User
) -> None:
    async def scenario() -> None:
        spectator = communicator(game_path(duel))
        player = communicator(game_path(duel), alice)
        for comm in (spectator, player):
            assert (await comm.connect())[0]
            await collect(comm)
        before = duel.version
        version = await roll(duel)
        assert version == before + 1
        seen = await collect(spectator)
        pushes = frames(seen, "push")
        assert [v for v, _ in pushes] == [version]  # one message with every region
        html = "".join(m for _, m in pushes)
        for region in ("status", "board", "pending", "players"):
            assert f'id="{region}"' in html
            assert f'data-version="{version}"' in html
        # The log only as what this version added, on top of the page's.
        assert f'<template data-delta="log" data-version="{version}"' in html
        assert 'id="log"' not in html
        mine = frames(await collect(player), "push")
        assert [v for v, _ in mine] == [version, version]
        assert 'id="actions"' in "".join(m for _, m in mine)
        for comm in (spectator, player):
            await comm.disconnect()

    run(scenario)


def test_a_spectator_never_receives_seat_private_content(
    duel: Game, alice: User, bob: User, charlie: User
) -> None:
    async def scenario() -> None:
        anonymous = communicator(game_path(duel))
        logged_in = communicator(game_path(duel), charlie)
        received: list[str] = []
        for comm in (anonymous, logged_in):
            assert (await comm.connect())[0]
            received += await collect(comm)
        for _ in range(3):
            try:
                await roll(duel)
            except services.GameError:
                break  # not a roll decision any more; three versions are plenty
            received += await collect(anonymous) + await collect(logged_in)
        assert frames(received, "push")
        for message in received:
            assert 'id="actions"' not in message
            assert "expected_version" not in message
            assert "badge you" not in message
            assert "Players' chat" not in message
        for comm in (anonymous, logged_in):
            await comm.disconnect()

    run(scenario)


def test_a_player_never_receives_another_seats_panel(duel: Game, alice: User, bob: User) -> None:
    async def scenario() -> None:
        comms = {
            "alice": communicator(game_path(duel), alice),
            "bob": communicator(game_path(duel), bob),
        }
        received: dict[str, list[str]] = {}
        for name, comm in comms.items():
            assert (await comm.connect())[0]
            received[name] = await collect(comm)
        await roll(duel)
        for name, comm in comms.items():
            received[name] += await collect(comm)

        def panel(user: User) -> str:
            game = Game.objects.get(pk=duel.pk)
            context = region_context(Snapshot.of(game), game.seats.get(user=user), shared=None)
            return regions.render(("actions",), {**context, **regions.NO_CSRF})

        alices_panel = await database_sync_to_async(panel)(alice)
        bobs_panel = await database_sync_to_async(panel)(bob)
        assert alices_panel != bobs_panel
        assert any(alices_panel in m for m in received["alice"])
        assert not any(bobs_panel in m for m in received["alice"])
        assert any(bobs_panel in m for m in received["bob"])
        assert not any(alices_panel in m for m in received["bob"])
        for comm in comms.values():
            await comm.disconnect()

    run(scenario)


def test_anonymous_users_cannot_open_a_private_game(
    private_duel: Game, alice: User, charlie: User
) -> None:
    async def scenario() -> None:
        for user in (None, charlie):
            comm = communicator(game_path(private_duel), user)
            connected, code = await comm.connect()
            assert not connected
            assert code == 4403
        seated = communicator(game_path(private_duel), alice)
        assert (await seated.connect())[0]
        await seated.disconnect()

    run(scenario)


def test_an_unknown_game_is_refused(db: None) -> None:
    async def scenario() -> None:
        comm = communicator("/ws/games/nosuchgame/")
        assert not (await comm.connect())[0]

    run(scenario)


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [(b"http://evil.example", False), (b"http://testserver", True)],
)
def test_a_foreign_origin_is_refused(duel: Game, origin: bytes, accepted: bool) -> None:
    async def scenario() -> None:
        headers = [(b"origin", origin), (b"host", b"testserver")]
        comm = WebsocketCommunicator(application, game_path(duel), headers=headers)
        connected, _ = await comm.connect()
        assert connected is accepted
        if connected:
            await comm.disconnect()

    run(scenario)


BAD_FRAMES: dict[str, str | bytes] = {
    "malformed": "not json",
    "unknown-type": '{"type": "move", "kind": "roll"}',
    "not-an-object": "[1, 2]",
    "oversized": '{"type": "resync", "x": "' + "a" * 5000 + '"}',
    "binary": b"\x00\x01",
    "since-a-string": '{"type": "resync", "since": "3"}',
    "since-negative": '{"type": "resync", "since": -1}',
    "since-a-boolean": '{"type": "resync", "since": true}',
    "since-on-a-ping": '{"type": "ping", "since": 3}',
    "visibility-not-a-boolean": '{"type": "visibility", "visible": "no"}',
    "visibility-missing": '{"type": "visibility"}',
}


def test_a_bad_frame_closes_only_that_socket_and_changes_nothing(duel: Game, alice: User) -> None:
    # One scenario for every kind of bad frame: each on a socket of its own,
    # beside one good socket that must be served throughout.
    async def scenario() -> None:
        good = communicator(game_path(duel))
        assert (await good.connect())[0]
        await collect(good)
        for name, frame in BAD_FRAMES.items():
            bad = communicator(game_path(duel), alice)
            assert (await bad.connect())[0], name
            await collect(bad)
            if isinstance(frame, bytes):
                await bad.send_to(bytes_data=frame)
            else:
                await bad.send_to(text_data=frame)
            closed = await bad.receive_output(timeout=2)
            while closed["type"] == "websocket.send":  # presence news still in flight
                assert closed["text"].startswith("<!--live-->"), name
                closed = await bad.receive_output(timeout=2)
            assert closed == {"type": "websocket.close", "code": 4400}, name
        game = await database_sync_to_async(Game.objects.get)(pk=duel.pk)
        assert game.version == duel.version
        assert game.state == duel.state
        # The other socket is still served.
        version = await roll(duel)
        assert [v for v, _ in frames(await collect(good), "push")] == [version]
        await good.disconnect()

    run(scenario)


def test_a_resync_frame_answers_with_a_snapshot(duel: Game) -> None:
    async def scenario() -> None:
        comm = communicator(game_path(duel))
        assert (await comm.connect())[0]
        await collect(comm)
        await comm.send_to(text_data='{"type": "resync"}')
        [(version, _)] = frames(await collect(comm), "snapshot")
        assert version == duel.version
        await comm.disconnect()

    run(scenario)


def test_a_heartbeat_gets_a_snapshot_only_when_the_game_moved_on(
    duel: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(consumers, "RESYNC_INTERVAL", 0.0)

    async def scenario() -> None:
        comm = communicator(game_path(duel))
        assert (await comm.connect())[0]
        await collect(comm)
        before = duel.version
        # Up to date: the heartbeat gets nothing; the plain resync after it does.
        await comm.send_to(text_data=json.dumps({"type": "resync", "since": before}))
        await comm.send_to(text_data='{"type": "resync"}')
        assert [v for v, _ in frames(await collect(comm), "snapshot")] == [before]
        # A move whose push never reaches this socket (lost on its way).
        with monkeypatch.context() as patch:
            patch.setattr(fanout, "publish", lambda messages: None)
            version = await roll(duel)
        await comm.send_to(text_data=json.dumps({"type": "resync", "since": before}))
        assert [v for v, _ in frames(await collect(comm), "snapshot")] == [version]
        await comm.disconnect()

    run(scenario)


def test_a_socket_told_its_pushes_were_interrupted_gets_a_snapshot(duel: Game) -> None:
    async def scenario() -> None:
        comm = communicator(game_path(duel))
        assert (await comm.connect())[0]
        await collect(comm)
        # What live.fanout hands the members of an audience whose Redis
        # subscription was lost and is back.
        hub = fanout._hubs[asyncio.get_running_loop()]
        hub.spawn([(groups.spectators_group(duel.pk), fanout.RESYNC)])
        assert [v for v, _ in frames(await collect(comm), "snapshot")] == [duel.version]
        await comm.disconnect()

    run(scenario)


def test_a_socket_told_to_resync_after_redis_came_back_empty_hears_the_next_moves(
    duel: Game,
) -> None:
    from django.conf import settings

    from live import presence

    group_key = f"{settings.REDIS_PREFIX}:asgi:group:{groups.game_group(duel.pk)}"

    async def scenario() -> None:
        comm = communicator(game_path(duel))
        assert (await comm.connect())[0]
        await collect(comm)
        # What a Redis restarted empty forgets: who is present (the
        # broadcast renders nothing for an audience nobody is in) and the
        # channel layer's groups (presence and chat frames).
        redis = presence._redis()
        assert await redis.delete(presence._key(duel.pk), group_key) == 2
        hub = fanout._hubs[asyncio.get_running_loop()]
        hub.spawn([(groups.spectators_group(duel.pk), fanout.RESYNC)])
        # The socket is back in its groups before its snapshot goes out:
        # from then on collect's marks reach it.
        seen = await receive_until(comm, lambda messages: frames(messages, "snapshot"))
        seen += await collect(comm)
        assert [v for v, _ in frames(seen, "snapshot")] == [duel.version]
        assert await redis.exists(group_key)
        # Two moves: the first push's audience may be decided before it.
        await database_sync_to_async(move)(duel)
        version = await database_sync_to_async(move)(duel)
        assert version in [v for v, _ in frames(await collect(comm), "push")]
        await comm.disconnect()

    run(scenario)


def test_stale_pushes_are_not_forwarded(duel: Game) -> None:
    async def scenario() -> None:
        comm = communicator(game_path(duel))
        assert (await comm.connect())[0]
        await collect(comm)
        layer = comm.instance.channel_layer if hasattr(comm, "instance") else None
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        await layer.group_send(
            groups.game_group(duel.pk),
            {
                "type": "game.push",
                "part": "public",
                "version": duel.version,
                "html": "<!--push-->old",
            },
        )
        assert await collect(comm) == []  # handled, and not forwarded
        await comm.disconnect()

    run(scenario)


def test_the_lobby_updates_when_a_game_is_created(alice: User, bob: User) -> None:
    async def scenario() -> None:
        comm = communicator("/ws/lobby/")
        assert (await comm.connect())[0]
        [first] = await collect(comm)
        assert 'id="open-games"' in first
        game = await database_sync_to_async(services.create_game)(host=alice, max_seats=2)
        [created] = await collect(comm)
        assert game.get_absolute_url() in created
        await database_sync_to_async(services.join_game)(public_id=game.public_id, user=bob)
        [joined] = await collect(comm)
        assert "2 / 2" in joined
        await comm.disconnect()

    run(scenario)


def test_the_watch_list_updates_when_a_game_starts(alice: User, bob: User) -> None:
    async def scenario() -> None:
        comm = communicator("/ws/watch/")
        assert (await comm.connect())[0]
        await collect(comm)
        game = await database_sync_to_async(services.create_game)(host=alice, max_seats=2)
        await database_sync_to_async(services.join_game)(public_id=game.public_id, user=bob)
        assert await collect(comm) == []  # not on the watch list before it starts
        await database_sync_to_async(services.start_game)(public_id=game.public_id, user=alice)
        [started] = await collect(comm)
        assert game.public_id in started
        await comm.disconnect()

    run(scenario)


@pytest.mark.slow  # waits out the one-second limit: in make test-long
def test_resyncs_are_limited_to_one_a_second_and_those_asked_meanwhile_answered_after_it(
    duel: Game,
) -> None:
    async def scenario() -> None:
        comm = communicator(game_path(duel))
        assert (await comm.connect())[0]
        await collect(comm)
        for _ in range(5):
            await comm.send_to(text_data='{"type": "resync"}')
        snapshots = []  # when each arrived
        while len(snapshots) < 2:
            [frame] = await receive_until(comm, bool)
            if frames([frame], "snapshot"):
                snapshots.append(time.monotonic())
        # One at once; the four asked within its second, one once it is up,
        # and no more: the socket had handled all five before the second.
        assert snapshots[1] - snapshots[0] >= consumers.RESYNC_INTERVAL * 0.9
        assert not frames(await collect(comm), "snapshot")
        await comm.disconnect()

    run(scenario)


def test_your_games_updates_for_each_player_when_a_game_starts(alice: User, bob: User) -> None:
    async def scenario() -> None:
        mine = communicator("/ws/lobby/", alice)
        assert (await mine.connect())[0]
        [first] = await collect(mine)
        assert 'id="your-games"' in first and 'id="open-games"' in first
        game = await database_sync_to_async(services.create_game)(host=alice, max_seats=2)
        created = "".join(await collect(mine))
        assert game.get_absolute_url() in created and 'id="your-games"' in created
        await database_sync_to_async(services.join_game)(public_id=game.public_id, user=bob)
        await collect(mine)
        await database_sync_to_async(services.start_game)(public_id=game.public_id, user=alice)
        started = "".join(await collect(mine))
        assert 'id="your-games"' in started and "In play" in started
        await mine.disconnect()

    run(scenario)


def test_an_anonymous_lobby_gets_no_personal_list(db: None) -> None:
    async def scenario() -> None:
        comm = communicator("/ws/lobby/")
        assert (await comm.connect())[0]
        [first] = await collect(comm)
        assert 'id="your-games"' not in first
        await comm.disconnect()

    run(scenario)


def test_the_waiting_page_reloads_when_someone_joins_and_when_it_starts(
    alice: User, bob: User
) -> None:
    async def scenario() -> None:
        game = await database_sync_to_async(services.create_game)(host=alice, max_seats=2)
        comm = communicator(f"/ws/games/{game.public_id}/waiting/")
        assert (await comm.connect())[0]
        assert await collect(comm) == []  # still waiting: nothing to reload for
        await database_sync_to_async(services.join_game)(public_id=game.public_id, user=bob)
        assert await collect(comm) == ["<!--reload-->"]
        await database_sync_to_async(services.start_game)(public_id=game.public_id, user=alice)
        assert await collect(comm) == ["<!--reload-->"]
        await comm.disconnect()
        # A page that arrives after the start is told to reload at once.
        late = communicator(f"/ws/games/{game.public_id}/waiting/")
        assert (await late.connect())[0]
        assert await collect(late) == ["<!--reload-->"]
        await late.disconnect()

    run(scenario)


def test_a_private_waiting_page_is_only_for_its_players(alice: User, charlie: User) -> None:
    async def scenario() -> None:
        game = await database_sync_to_async(services.create_game)(
            host=alice, max_seats=2, is_public=False
        )
        for user, allowed in ((charlie, False), (None, False), (alice, True)):
            comm = communicator(f"/ws/games/{game.public_id}/waiting/", user)
            assert (await comm.connect())[0] is allowed
            if allowed:
                await comm.disconnect()

    run(scenario)


def test_the_unread_count_reaches_the_persons_open_pages(duel: Game, alice: User) -> None:
    from notifications import live as unread
    from notifications import services as notices

    async def scenario() -> None:
        lobby = communicator("/ws/lobby/", alice)
        page = communicator(game_path(duel), alice)
        for comm in (lobby, page):
            assert (await comm.connect())[0]
            await collect(comm)
        # A Celery worker left running by another test (the session's) may
        # already have told Alice it is her turn: count from what she has.
        before = await database_sync_to_async(notices.unread_count)(alice)
        await database_sync_to_async(notices.notify)(alice.pk, duel.pk, "reminder", "hurry")
        # A game keeps one unread notice: the reminder may replace the turn's.
        after = await database_sync_to_async(notices.unread_count)(alice)
        assert after in (before, before + 1) and after >= 1
        for comm in (lobby, page):
            pushed = "".join(await collect(comm))
            assert 'id="nav-notifications" hx-swap-oob="true"' in pushed
            assert f'aria-label="{after} unread"' in pushed
        for comm in (lobby, page):
            await comm.disconnect()
        # Both closed: the next notice is not even rendered.
        assert not await database_sync_to_async(unread.push_unread)(alice.pk)

    run(scenario)


async def wait_until(check: Any, timeout: float = 5.0) -> None:
    """Until ``check()`` (run in a thread: it may read Redis) is true."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not await database_sync_to_async(check)():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


def test_a_hidden_page_is_not_looking_and_a_visible_one_is_again(duel: Game, alice: User) -> None:
    from live import presence

    seat = duel.seats.get(user=alice).number

    async def scenario() -> None:
        comm = communicator(game_path(duel), alice)
        assert (await comm.connect())[0]
        await collect(comm)
        assert seat in await database_sync_to_async(presence.looking)(duel.pk)
        await comm.send_to(text_data='{"type": "visibility", "visible": false}')
        await wait_until(lambda: presence.looking(duel.pk) == frozenset())
        await comm.send_to(text_data='{"type": "visibility", "visible": true}')
        await wait_until(lambda: presence.looking(duel.pk) == {seat})
        await comm.disconnect()

    run(scenario)

"""The spectators' win bar over the sockets (issue #20): queued after a move
someone spectates, pushed to spectators once stored, and never sent to a
seat's holder, whether on their game page or on a home-page glance."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games import services
from games.models import Game, PositionEstimate
from live import broadcast, estimating, groups, presence, tasks
from tests.games.conftest import played_turns
from tests.live.conftest import collect, communicator, frames, roll, run

pytestmark = pytest.mark.usefixtures("live_db")


@pytest.fixture(autouse=True)
def _few_playouts(settings: Any) -> None:
    settings.ANALYSIS_PLAYOUTS = 40


@pytest.fixture
def queued() -> Any:
    """The estimate tasks queued (no worker here: the test runs them)."""
    with mock.patch.object(tasks.estimate_position, "apply_async") as apply_async:
        yield apply_async


def path(game: Game, glance: bool = False) -> str:
    return f"/ws/games/{game.public_id}/" + ("?glance=1" if glance else "")


def queued_versions(apply_async: Any, game: Game) -> list[int]:
    return [c.args[0][1] for c in apply_async.call_args_list if c.args[0][0] == game.pk]


@pytest.mark.slow  # a real worker and sockets: in make test-long, to keep make test under seven minutes
def test_spectators_get_the_bar_after_a_move_and_players_never(
    duel: Game, alice: User, bob: User, queued: Any, no_bot_tasks: Any
) -> None:
    async def scenario() -> None:
        spectator = communicator(path(duel))
        player = communicator(path(duel), alice)
        other = communicator(path(duel), bob)
        glancing_player = communicator(path(duel, glance=True), alice)
        sockets = (spectator, player, other, glancing_player)
        for comm in sockets:
            assert (await comm.connect())[0]
        first = {comm: await collect(comm) for comm in sockets}
        [(_, snapshot)] = frames(first[spectator], "snapshot")
        assert 'id="win-bar"' in snapshot and "Shown a full round late" in snapshot
        for comm in (player, other, glancing_player):
            assert "win-bar" not in "".join(first[comm])
        # The spectator's arrival queued the estimate of the position as it is.
        before = duel.version
        assert queued_versions(queued, duel) == [before]

        version = await roll(duel)
        # A roll starts no turn: its estimate would never be shown (ever_shown).
        assert queued_versions(queued, duel) == [before]
        for comm in sockets:
            await collect(comm)  # the move's own pushes

        assert await database_sync_to_async(tasks.estimate_position)(duel.pk, version)
        # Shown only a full round later (duel is a person's game): the next
        # estimate stored then pushes the bar of this one.
        await database_sync_to_async(played_turns)(duel, 3)
        assert await database_sync_to_async(tasks.estimate_position)(duel.pk, duel.version)
        seen = await collect(spectator)
        [(pushed, html)] = frames(seen, "push")
        assert pushed == version
        assert 'id="win-bar"' in html and 'hx-swap-oob="true"' in html
        row = await database_sync_to_async(PositionEstimate.objects.get)(game=duel, version=version)
        alice_percent = round(row.probabilities[0] * 100)
        assert f"Chances of winning: alice {alice_percent}%" in html
        for comm in (player, other, glancing_player):
            assert "win-bar" not in "".join(await collect(comm))
        for comm in sockets:
            await comm.disconnect()

    run(scenario)


@pytest.mark.slow  # a real worker and sockets: in make test-long, to keep make test under seven minutes
def test_a_move_nobody_spectates_queues_no_estimate(
    duel: Game, alice: User, queued: Any, no_bot_tasks: Any
) -> None:
    """Players and the home page's glances are nobody to show it to: no
    playouts are spent on the game (private or public alike)."""

    async def scenario() -> None:
        player = communicator(path(duel), alice)
        glance = communicator(path(duel, glance=True))
        for comm in (player, glance):
            assert (await comm.connect())[0]
            await collect(comm)
        await roll(duel)
        for comm in (player, glance):
            await collect(comm)
            await comm.disconnect()

    run(scenario)
    assert queued_versions(queued, duel) == []


def test_a_spectator_arriving_at_an_estimated_position_queues_nothing(
    duel: Game, queued: Any
) -> None:
    PositionEstimate.objects.create(
        game=duel, version=duel.version, playouts=40, probabilities=[0.5, 0.5], stderr=[0.1, 0.1]
    )
    played_turns(duel, 2)  # a full round: the start's estimate may be shown
    PositionEstimate.objects.create(
        game=duel, version=duel.version, playouts=40, probabilities=[0.9, 0.1], stderr=[0.1, 0.1]
    )

    async def scenario() -> None:
        spectator = communicator(path(duel))
        assert (await spectator.connect())[0]
        [(_, snapshot)] = frames(await collect(spectator), "snapshot")
        assert "Chances of winning: alice 50%, bob 50%" in snapshot
        await spectator.disconnect()

    run(scenario)
    assert queued_versions(queued, duel) == []


def test_the_pushed_watch_list_has_no_bar_for_the_games_own_players(
    duel: Game, alice: User, charlie: User
) -> None:
    PositionEstimate.objects.create(
        game=duel, version=duel.version, playouts=40, probabilities=[0.7, 0.3], stderr=[0.1, 0.1]
    )
    played_turns(duel, 2)  # a full round: the estimate may be shown
    label = "Chances of winning: alice 70%, bob 30%"

    async def scenario() -> None:
        player = communicator("/ws/watch/", alice)
        spectator = communicator("/ws/watch/", charlie)
        for comm in (player, spectator):
            assert (await comm.connect())[0]
        # Other tests' games may push news of their own meanwhile: look at all.
        player_lists = await collect(player)
        spectator_lists = await collect(spectator)
        assert duel.public_id in player_lists[0]
        assert all(label not in page for page in player_lists)
        assert label in spectator_lists[0]
        await database_sync_to_async(groups.send)([(groups.WATCH_GROUP, broadcast.watch_refresh())])
        player_pushes = await collect(player)
        spectator_pushes = await collect(spectator)
        assert player_pushes and all(push.startswith("<!--live-->") for push in player_pushes)
        assert all(label not in push for push in player_pushes)
        assert any(label in push for push in spectator_pushes)
        for comm in (player, spectator):
            await comm.disconnect()

    run(scenario)


def test_the_games_end_pushes_the_result_to_spectators(
    duel: Game, bob: User, no_bot_tasks: Any
) -> None:
    async def scenario() -> None:
        spectator = communicator(path(duel))
        assert (await spectator.connect())[0]
        await collect(spectator)
        await database_sync_to_async(services.resign)(
            public_id=duel.public_id, user=bob, expected_version=duel.version
        )
        bars = [m for _, m in frames(await collect(spectator), "push") if 'id="win-bar"' in m]
        assert len(bars) == 1
        assert "Chances of winning: alice 100%, bob 0%" in bars[0]
        assert "The game is over." in bars[0]
        await spectator.disconnect()

    run(scenario)


def committed(game: Game, *kinds: str, seats: Any = None) -> Any:
    """A commit of ``game``'s next version with events of ``kinds``."""
    from games.models import GameEvent
    from games.services.write import Committed

    events = [
        GameEvent(game=game, seq=game.version + 1, index=i, kind=kind, payload={"kind": kind})
        for i, kind in enumerate(kinds)
    ]
    return Committed(game=game, version=game.version + 1, events=events, seats=seats)


WATCHED = presence.Summary(frozenset({0}), watching=1)


def test_a_move_that_starts_a_turn_queues_its_estimate_after_the_debounce(
    duel: Game, queued: Any
) -> None:
    record = committed(duel, "action", "turn_end", "turn_start")
    record.scratch["here"] = WATCHED
    estimating.on_commit(record)
    assert queued_versions(queued, duel) == [duel.version + 1]
    assert queued.call_args.kwargs["countdown"] == 1.0  # ANALYSIS_DEBOUNCE_MS


def test_a_persons_move_that_starts_no_turn_queues_no_estimate(duel: Game, queued: Any) -> None:
    """Its spectators only ever see the estimate of a turn's start a full
    round back: the playouts of any other version would be wasted."""
    record = committed(duel, "action", "dice", "move")
    record.scratch["here"] = WATCHED
    estimating.on_commit(record)
    assert queued_versions(queued, duel) == []
    # A turn_start told to one seat alone is no public start of a turn.
    private = committed(duel, "action", "turn_start")
    private.events[1].audience_seat = 0
    private.scratch["here"] = WATCHED
    estimating.on_commit(private)
    assert queued_versions(queued, duel) == []


def test_a_bots_only_game_queues_every_watched_move(queued: Any, no_bot_tasks: Any) -> None:
    """Without a person seated the bar trails the game by moves, not a
    round: each move's estimate may be shown."""
    from tests.games.test_replay import bot_game

    game, _ = bot_game(0)
    record = committed(game, "action", "dice", "move", seats=list(game.seats.all()))
    record.scratch["here"] = WATCHED
    estimating.on_commit(record)
    assert queued_versions(queued, game) == [game.version + 1]

"""Whole games through the API: one seat played by ``examples/api_bot.py``
(its own functions, against a real Daphne), the other by a site bot that the
real Celery worker moves, to a bankruptcy, with the engine's invariants
checked at the end."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from accounts.models import User
from api import reads
from examples import api_bot
from games import engine
from games.models import Game, GameEvent, Seat
from tests.api.conftest import api_for
from tests.api.streams import edit, site, stream_server

__all__ = ["site", "stream_server"]


def played(
    site: str, user: User, script: Any, timeout: float, switches: dict[str, Any] | None = None
) -> tuple[Game, list[str], Any]:
    """Create a game with the example bot's functions, add a site bot and
    start it, script the position (``script(state, seat, bot)``), then let
    the example bot play its seat to the end."""
    client = api_bot.connect(site, api_for(user).token)
    view = api_bot.create_game(client, seats=2, switches=switches)
    api_bot.add_bot_and_start(client, view["id"], "heuristic")
    game = Game.objects.get(public_id=view["id"])
    seat = game.seats.get(user=user).number

    def scripted(state: engine.State) -> engine.State:
        changed: engine.State = script(state, seat, 1 - seat)
        return changed

    edit(game, scripted, bot_delay_ms=20)
    log: list[str] = []
    outcome: dict[str, Any] = {}
    player = threading.Thread(
        target=lambda: outcome.update(end=api_bot.play(client, game.public_id, log=log.append)),
        daemon=True,
    )
    player.start()
    player.join(timeout)
    assert not player.is_alive(), f"not over after {timeout} s: {log[-5:]}"
    client.close()
    game.refresh_from_db()
    return game, log, outcome["end"]


def assert_ended_by_bankruptcy(game: Game, end: dict[str, Any]) -> None:
    assert game.status == Game.Status.FINISHED
    state = engine.from_dict(game.state)
    assert engine.check_invariants(state) == []
    assert state.finished and game.end_reason == "last_player"
    assert end["type"] == "end" and end["version"] == game.version
    assert end["winner"] == state.winner
    assert GameEvent.objects.filter(game=game, kind="bankrupt").exists()
    loser = Seat.objects.get(game=game, number=1 - state.winner)
    assert loser.status == Seat.Status.BANKRUPT
    assert reads.legal_actions(state, state.winner) == []


@pytest.mark.slow  # real processes started for it: in make test-long, to keep make test under ten minutes
def test_the_example_bot_plays_a_short_game_through_the_api_to_a_bankruptcy(
    site: str, alice: User, celery_worker_process: None
) -> None:
    """The site bot has $1 and the example bot owns every property, with rent
    paid as the books' automatic variant: the site bot's first landing on
    one ends it."""

    def script(state: engine.State, seat: int, bot: int) -> engine.State:
        # The example bot moves first, so that it has a turn to play.
        owners = dict.fromkeys(engine.PROPERTIES, seat)
        return engine.setup(state, cash={bot: 1}, owners=owners, turn=seat)

    automatic = {"rent_collection": "automatic"}
    game, log, end = played(site, alice, script, timeout=60, switches=automatic)
    assert_ended_by_bankruptcy(game, end)
    assert end["winner"] == game.seats.get(user=alice).number
    assert any(": roll" in line for line in log)  # the example bot played its turns


@pytest.mark.slow  # about a minute: a whole game from little cash
def test_the_example_bot_plays_a_whole_game_from_little_cash_through_the_api(
    site: str, alice: User, celery_worker_process: None
) -> None:
    def script(state: engine.State, seat: int, bot: int) -> engine.State:
        return engine.setup(state, cash={seat: 300, bot: 300})

    game, log, end = played(site, alice, script, timeout=600)
    assert_ended_by_bankruptcy(game, end)
    # Whether it lands on a square it can buy before someone goes bankrupt is
    # the dice's to say (its buying is test_api_bot_policy's): it played turns.
    assert sum(": roll" in line for line in log) >= 2

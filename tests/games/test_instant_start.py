"""A site bot that opens a game at the instant pace answers within the
start's own write, as within a move: no bot-move task, and the first person
to decide has their decision when the start commits. A paced bot is left to
its due row and its task."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from accounts.models import User
from games import engine, services
from games.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def _bot_opened(game: Game) -> bool:
    actions = GameEvent.objects.filter(game=game, kind="action").values_list("payload", flat=True)
    return any(a["player"] == 1 for a in actions)


def _a_game_the_bot_opens(alice: User, capture: Any, bot_delay_ms: int) -> Game:
    """Games of alice (seat 0) and a bot are started until the dice let the bot open."""
    for _ in range(40):
        with capture(execute=True):
            game = services.create_seated_game(
                humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=bot_delay_ms
            )
        state = engine.from_dict(game.state)
        if engine.next_actor(state) == 1 or _bot_opened(game):
            return game
    raise AssertionError("the bot never opened")


def test_an_instant_bot_that_opens_answers_within_the_start(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    with mock.patch("games.scheduling.play_bot_move") as task:
        game = _a_game_the_bot_opens(alice, django_capture_on_commit_callbacks, 0)
    assert _bot_opened(game) and game.version > 1
    assert game.auto_move_at is None
    assert engine.next_actor(engine.from_dict(game.state)) == 0
    task.apply_async.assert_not_called()
    # Each of the bot's moves is a version of its own, after the start's.
    seqs = set(GameEvent.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == set(range(1, game.version + 1))


def test_a_paced_bot_that_opens_is_left_to_its_due_row_and_task(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    with mock.patch("games.scheduling.play_bot_move") as task:
        game = _a_game_the_bot_opens(alice, django_capture_on_commit_callbacks, 1000)
    assert not _bot_opened(game) and game.version == 1
    assert game.auto_move_at is not None
    task.apply_async.assert_called_with((game.pk, game.version), eta=game.auto_move_at)

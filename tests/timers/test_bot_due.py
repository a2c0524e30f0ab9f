"""A bot's next move has a due row (``Game.auto_move_at``), written with the
version that made it due, and the sweep plays it if its task never runs."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import Game
from games.services.timers import BOT_GRACE_SECONDS, overdue_games
from tests.conftest import setup_writes

pytestmark = pytest.mark.django_db


def bot_game(delay_ms: int = 1000, humans: list[Any] | None = None) -> Game:
    return services.create_seated_game(
        humans=humans or [], bots=["heuristic", "heuristic"], start=True, bot_delay_ms=delay_ms
    )


def test_a_bot_to_move_is_due_after_the_games_bot_delay(no_bot_tasks: Any) -> None:
    before = timezone.now()
    game = bot_game(delay_ms=1500)
    assert game.auto_move_at is not None
    assert before + timedelta(seconds=1.5) <= game.auto_move_at
    assert game.auto_move_at <= timezone.now() + timedelta(seconds=1.5)


def test_each_bot_move_writes_the_next_due_row_with_its_version(no_bot_tasks: Any) -> None:
    game = bot_game(delay_ms=0)
    for _ in range(5):
        first_due = Game.objects.get(pk=game.pk).auto_move_at
        assert services.play_bot_move(game.pk, game.version)
        game.refresh_from_db()
        assert game.auto_move_at is not None and game.auto_move_at >= first_due


def test_a_game_with_no_bot_to_move_has_no_due_row(duel: Game, no_bot_tasks: Any) -> None:
    assert duel.auto_move_at is None


def test_the_sweep_leaves_a_bot_move_to_its_task_until_the_task_is_late(
    no_bot_tasks: Any,
) -> None:
    game = bot_game(delay_ms=0)
    due = game.auto_move_at
    assert (game.pk, game.version) not in overdue_games(due)
    late = due + timedelta(seconds=BOT_GRACE_SECONDS)
    assert (game.pk, game.version) in overdue_games(late)


def test_an_overdue_bot_move_is_played_by_the_timer_path(no_bot_tasks: Any) -> None:
    game = bot_game(delay_ms=0)
    assert services.expire_decision(game.pk, game.version, now=game.auto_move_at)
    after = Game.objects.get(pk=game.pk)
    assert after.version == game.version + 1
    assert after.events.filter(seq=after.version, kind="action").exists()


def test_a_bot_move_not_yet_due_is_left_alone(no_bot_tasks: Any) -> None:
    game = bot_game(delay_ms=60_000)
    assert not services.expire_decision(game.pk, game.version)
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_due_row_with_no_bot_to_move_is_cleared(duel: Game, no_bot_tasks: Any) -> None:
    # As left by a take-over the player has since reclaimed, say.
    with setup_writes("a bot move due with no bot to move"):
        Game.objects.filter(pk=duel.pk).update(auto_move_at=timezone.now() - timedelta(seconds=5))
    assert not services.expire_decision(duel.pk, duel.version)
    after = Game.objects.get(pk=duel.pk)
    assert after.auto_move_at is None and after.version == duel.version
    assert (duel.pk, duel.version) not in overdue_games()


def test_a_finished_game_has_no_due_row(no_bot_tasks: Any) -> None:
    game = bot_game(delay_ms=0)
    for _ in range(6_000):
        if game.status != Game.Status.ACTIVE:
            break
        assert services.play_bot_move(game.pk, game.version)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.auto_move_at is None


def test_reclaiming_a_seat_from_the_bot_ends_its_due_row(
    duel: Game, alice: Any, no_bot_tasks: Any
) -> None:
    from games.models import Seat

    # Alice (seat 0, to roll) timed out into a take-over: her move is due.
    with setup_writes("seat 0 taken over, its move due"):
        Seat.objects.filter(game=duel, number=0).update(taken_over=True)
        Game.objects.filter(pk=duel.pk).update(auto_move_at=timezone.now())
    services.reclaim_seat(public_id=duel.public_id, user=alice)
    assert Game.objects.get(pk=duel.pk).auto_move_at is None

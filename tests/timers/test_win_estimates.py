"""The spectators' win estimates on the real worker (issue #20): a version
is estimated and stored once however often its task fires, and a task for
a version the game has moved past does nothing (the newer move's does it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game, PositionEstimate
from live import tasks
from tests.live.conftest import move
from tests.timers.conftest import run_task

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def estimated(game: Game) -> list[int]:
    return list(PositionEstimate.objects.filter(game=game).values_list("version", flat=True))


def test_the_worker_stores_a_version_once_even_if_its_task_fires_twice(
    celery_worker_process: None, duel: Game, no_bot_tasks: Any
) -> None:
    v = duel.version
    tasks.estimate_position.apply_async((duel.pk, v))
    tasks.estimate_position.apply_async((duel.pk, v))
    # Queued behind those two: once it has answered, both have run.
    assert run_task(tasks.estimate_position, duel.pk, v) is False
    assert estimated(duel) == [v]
    [row] = PositionEstimate.objects.filter(game=duel)
    assert row.playouts >= 1 and sum(row.probabilities) == pytest.approx(1)


def test_the_worker_drops_a_version_the_game_has_moved_past(
    celery_worker_process: None, duel: Game, no_bot_tasks: Any
) -> None:
    old = duel.version
    assert run_task(tasks.estimate_position, duel.pk, old) is True
    new = move(duel)
    # Just estimated: the game is not starved, so the old task leaves the
    # new version to its own task.
    assert run_task(tasks.estimate_position, duel.pk, old) is False
    assert estimated(duel) == [old]
    assert run_task(tasks.estimate_position, duel.pk, new) is True
    assert estimated(duel) == [old, new]

"""A finished game's analysis (issue #20, "After the game"): stored once, the
winner at 1 at the end, the turning points, the sweep that finds the games."""

from __future__ import annotations

import threading
import time
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection

from accounts.models import User
from games import analysis, services, tasks
from games.models import GameAnalysis
from tests.games.test_watch import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cheap_analysis(settings: Any) -> None:
    settings.POSTGAME_PLAYOUTS = 24
    settings.POSTGAME_MAX_POSITIONS = 12
    settings.POSTGAME_REFINE_POSITIONS = 6
    settings.POSTGAME_TARGET_STDERR = 0.05


def user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", f"pw-{name}-12345")


def config(**kw: Any) -> analysis.Settings:
    base = {
        "playouts": 10,
        "max_positions": 10,
        "refine_positions": 0,
        "target_stderr": 0.05,
        "turn_cap": 100,
    }
    return analysis.Settings(**{**base, **kw})


@pytest.fixture
def no_analysis_tasks() -> Any:
    """The game's end queues no analysis: a worker left running by another
    test would otherwise analyse it before the test's own calls."""
    with mock.patch("games.scheduling.schedule_analysis") as scheduled:
        yield scheduled


def test_analysis_is_stored_once_when_the_task_fires_twice(
    no_bot_tasks: Any, no_analysis_tasks: Any
) -> None:
    game = finished_game(user("ada"), moves=10)
    assert tasks.analyse_game(game.pk) is True
    first = GameAnalysis.objects.get(game=game)
    assert tasks.analyse_game(game.pk) is False
    assert GameAnalysis.objects.filter(game=game).count() == 1
    assert GameAnalysis.objects.get(game=game).created_at == first.created_at


@pytest.mark.django_db(transaction=True)
def test_two_analyses_stored_at_the_same_time_make_one_row(
    no_bot_tasks: Any, no_analysis_tasks: Any
) -> None:
    game = finished_game(user("ada"), moves=6)
    result = analysis.analyse(game, config())
    barrier = threading.Barrier(2)
    outcomes: list[Any] = []

    def store() -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(analysis.store(game, result))
        except Exception as exc:  # the test reports it below
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=store) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes, key=str) == [False, True]
    assert GameAnalysis.objects.filter(game=game).count() == 1


def test_finished_game_gives_the_winner_everything_at_the_last_step(no_bot_tasks: Any) -> None:
    game = finished_game(user("ada"), moves=12)
    winner = game.seats.get(final_rank=1).number
    result = analysis.analyse(game, config())
    last = result.points[-1]
    assert last["step"] == game.version - 1  # every action, the resignation included
    assert last["probabilities"][winner] == 1.0
    assert sum(last["probabilities"]) == 1.0
    for point in result.points:
        assert sum(point["probabilities"]) == pytest.approx(1.0, abs=1e-3)
    steps = [p["step"] for p in result.points]
    assert steps == sorted(steps) and steps[0] == 0


def test_the_resignation_is_a_turning_point_linked_to_its_step(no_bot_tasks: Any) -> None:
    ada = user("ada")
    game = finished_game(ada, moves=8)
    tasks.analyse_game(game.pk)
    stored = GameAnalysis.objects.get(game=game)
    last = game.version - 1
    resign = next(tp for tp in stored.turning_points if tp["step"] == last)
    ada_seat = game.seats.get(user=ada).number
    assert resign["seat"] in (ada_seat, 1 - ada_seat)  # ada falls to 0, the bot rises to 1
    assert "ada resigns" in resign["text"]
    assert resign["text"].startswith(f"Turn {resign['turn']}: ")
    assert resign["text"].endswith("%") and " → " in resign["text"]


def test_turning_points_are_the_largest_swings_with_their_moves() -> None:
    points = {
        0: [0.5, 0.5],
        1: [0.52, 0.48],
        2: [0.31, 0.69],  # bob +21
        3: [0.33, 0.67],
        4: [0.8, 0.2],  # ann +47
        5: [0.75, 0.25],
        6: [0.6, 0.4],  # 15
        7: [0.6, 0.4],  # nothing
    }
    turns = dict.fromkeys(points, 23)
    log = {
        2: [("buy", "bob buys Boardwalk for $400.")],
        4: [
            ("dice", "bob rolls 2 and 3."),
            ("move", "bob moves to Park Place."),
            ("rent", "bob pays ann $1,100 rent for Park Place."),
        ],
        5: [("dice", "ann rolls 1 and 3."), ("move", "ann moves to Income Tax.")],
    }

    def lines(a: int, b: int) -> list[tuple[str, str]]:
        return [line for s in range(a + 1, b + 1) for line in log.get(s, [])]

    found = analysis.turning_points(points, turns, ["ann", "bob"], lines)
    assert [tp["step"] for tp in found] == [4, 2, 6, 5, 1]
    assert found[0]["text"] == "Turn 23: bob pays ann $1,100 rent for Park Place: ann 33% → 80%"
    assert found[1]["text"] == "Turn 23: bob buys Boardwalk for $400: ann 52% → 31%"
    assert (found[1]["seat"], found[1]["before"], found[1]["after"]) == (0, 0.52, 0.31)
    assert found[2]["text"] == "Turn 23: a move: ann 75% → 60%"
    # Only the throw and the walk: then they tell the move.
    assert found[3]["text"] == (
        "Turn 23: ann rolls 1 and 3, ann moves to Income Tax: ann 80% → 75%"
    )


def test_long_games_are_sampled_then_refined_to_the_move_that_swung() -> None:
    calls: list[int] = []

    def estimate(step: int) -> list[float]:
        calls.append(step)
        return [0.2, 0.8] if step >= 437 else [0.6, 0.4]

    points = analysis.estimate_steps(estimate, 1000, config(max_positions=21, refine_positions=30))
    assert len(calls) == len(set(calls)) <= 21 + 30
    assert 436 in points and 437 in points  # the swing is one move wide now
    assert analysis.largest_swings(points, 1)[0][:2] == (436, 437)


def test_the_sweep_hands_out_unanalysed_finished_games_newest_first(
    no_bot_tasks: Any,
) -> None:
    old = finished_game(user("ada"), moves=2)
    new = finished_game(user("bob"), moves=2)
    done = finished_game(user("cy"), moves=2)
    GameAnalysis.objects.create(game=done, playouts=1, points=[], turning_points=[])
    services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)  # running
    assert analysis.unanalysed_games(10) == [new.pk, old.pk]
    with mock.patch("games.tasks.analyse_game.delay") as delay:
        assert tasks.sweep_analyses() == 1  # one a sweep by default
        assert tasks.sweep_analyses() == 1
        assert tasks.sweep_analyses() == 0  # both handed out: not again
    assert [c.args for c in delay.call_args_list] == [(new.pk,), (old.pk,)]


def test_the_sweep_waits_while_every_slot_is_taken(no_bot_tasks: Any) -> None:
    game = finished_game(user("ada"), moves=2)
    cache.set("analysis:slot:0", 1, 60)
    with mock.patch("games.tasks.analyse_game.delay") as delay:
        assert tasks.sweep_analyses() == 0
        # A task that finds no slot leaves the game to a later sweep.
        assert tasks.analyse_game(game.pk) is False
        cache.delete("analysis:slot:0")
        assert tasks.sweep_analyses() == 1
    delay.assert_called_once_with(game.pk)
    assert not GameAnalysis.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_game_that_ends_is_handed_to_the_analysis_after_commit(no_bot_tasks: Any) -> None:
    ada, bob = user("ada"), user("bob")
    game = services.create_seated_game(humans=[ada, bob], bots=[], start=True)
    with mock.patch("games.tasks.analyse_game.delay") as delay:
        services.resign(public_id=game.public_id, user=bob, expected_version=game.version)
    delay.assert_called_once_with(game.pk)


def test_a_game_that_does_not_replay_is_stored_empty_and_not_retried(
    no_bot_tasks: Any,
) -> None:
    game = finished_game(user("ada"), moves=2)
    with mock.patch("games.analysis.analyse", side_effect=analysis.engine.IllegalAction("x")):
        assert analysis.analyse_game(game.pk) is True
    assert GameAnalysis.objects.get(game=game).points == []
    assert analysis.unanalysed_games(5) == []


@pytest.mark.django_db(transaction=True)
def test_the_worker_analyses_what_the_sweep_finds(celery_worker_process: None) -> None:
    with (
        mock.patch("games.scheduling.schedule_bots"),
        mock.patch("games.scheduling.queue_analysis"),
    ):
        game = finished_game(user("ada"), moves=4)
    assert tasks.sweep_analyses() == 1
    deadline = time.monotonic() + 30
    while not GameAnalysis.objects.filter(game=game).exists():
        assert time.monotonic() < deadline, "the worker did not store the analysis"
        time.sleep(0.2)
    stored = GameAnalysis.objects.get(game=game)
    assert stored.points[-1]["probabilities"][game.seats.get(final_rank=1).number] == 1.0


def test_beat_sweeps_for_unanalysed_games(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-analyses"]
    assert entry["task"] == tasks.sweep_analyses.name
    assert entry["schedule"] == settings.POSTGAME_SWEEP_SECONDS

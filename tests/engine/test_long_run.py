"""Long runs: bot games with the invariants checked after every action.

`make test` plays 500 games of each kind (a few seconds), so the property is
exercised on every run; the full 10,000 of each (several minutes) are marked
slow and run in `make test-long`, which CI runs and which runs before each
release. Both play the same seeds: a short run's games are the first games of
the long run, so a failure in either reproduces with the same arguments."""

from __future__ import annotations

import pytest

from games.engine import simulate

SHORT = 500
LONG = 10_000


def assert_heuristic_bot_games_keep_every_invariant(games: int) -> None:
    out = simulate(
        games, players=4, seed=2024, bot="heuristic", max_turns=100, check_invariants=True
    )
    assert out["games"] == games
    assert out["invariant_violations"] == 0, out.get("violation_examples")


def assert_random_bot_games_keep_every_invariant(games: int) -> None:
    out = simulate(games, players=3, seed=2025, bot="random", max_turns=30, check_invariants=True)
    assert out["games"] == games
    assert out["invariant_violations"] == 0, out.get("violation_examples")


def test_five_hundred_heuristic_bot_games_keep_every_invariant() -> None:
    assert_heuristic_bot_games_keep_every_invariant(SHORT)


def test_five_hundred_random_bot_games_keep_every_invariant() -> None:
    assert_random_bot_games_keep_every_invariant(SHORT)


@pytest.mark.slow
def test_ten_thousand_heuristic_bot_games_keep_every_invariant() -> None:
    assert_heuristic_bot_games_keep_every_invariant(LONG)


@pytest.mark.slow
def test_ten_thousand_random_bot_games_keep_every_invariant() -> None:
    assert_random_bot_games_keep_every_invariant(LONG)

"""Long runs: 10,000 random-bot and 10,000 heuristic-bot games, invariants
checked after every action. Marked slow; they run in CI."""

from __future__ import annotations

import pytest

from games.engine import simulate


@pytest.mark.slow
def test_ten_thousand_heuristic_bot_games_keep_every_invariant() -> None:
    out = simulate(
        10_000, players=4, seed=2024, bot="heuristic", max_turns=100, check_invariants=True
    )
    assert out["games"] == 10_000
    assert out["invariant_violations"] == 0, out.get("violation_examples")


@pytest.mark.slow
def test_ten_thousand_random_bot_games_keep_every_invariant() -> None:
    out = simulate(10_000, players=3, seed=2025, bot="random", max_turns=30, check_invariants=True)
    assert out["games"] == 10_000
    assert out["invariant_violations"] == 0, out.get("violation_examples")

"""Final places and net worths, read off a finished engine state."""

from __future__ import annotations

from games import engine


def final_ranking(state: engine.State) -> list[tuple[int, int, int]]:
    """(rank, player, net worth) for every seat, best first.

    Survivors rank by their end-of-game valuation (the engine's ``values``;
    in a last-player game there is one survivor). Bankrupt players follow,
    the last to go bankrupt ranking highest."""
    values = state.values or [0] * state.n
    survivors = sorted((p for p in range(state.n) if state.alive[p]), key=lambda p: (-values[p], p))
    fallen = list(reversed(state.bankrupt_order))
    fallen += [p for p in range(state.n) if not state.alive[p] and p not in fallen]
    return [
        (rank, player, values[player] if state.alive[player] else 0)
        for rank, player in enumerate(survivors + fallen, start=1)
    ]

"""Playouts per second of the win estimate (`make bench-estimate`).

The position: a 4-player us-2003 game (splitmix64 seed 7) played by the
heuristic bots for 60 player-turns, all four still in. It times
``estimate_win_probabilities`` with exactly 1,000 playouts (no early stop)
``--repeat`` times on one core (CPU time of this process), then once with the
defaults (early stop at a standard error of 0.015), and prints JSON.

    python bench/estimate.py [--playouts 1000] [--repeat 3] [--turns 60]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import native
from games.engine import (
    P_OVER,
    State,
    count_draws,
    estimate_win_probabilities,
    make_bot,
    new_game,
    next_actor,
    step,
)


def midgame(turns: int, seed: int = 7) -> tuple[State, tuple[int, int]]:
    s = new_game("us-2003", ["P1", "P2", "P3", "P4"], seed)
    bots = [make_bot("heuristic") for _ in range(4)]
    ev: list[tuple[str, int, tuple[object, ...]]] = []
    while s.turn_no < turns and s.phase != P_OVER:
        p = next_actor(s)
        step(s, bots[p].act(s, p), ev)
    return s, count_draws(ev)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--turns", type=int, default=60)
    args = parser.parse_args()
    s, drawn = midgame(args.turns)
    times = []
    for i in range(args.repeat):
        start = time.process_time()
        est = estimate_win_probabilities(
            s, args.playouts, i + 1, cards_drawn=drawn, target_stderr=None
        )
        times.append(time.process_time() - start)
    best = min(times)
    start = time.process_time()
    early = estimate_win_probabilities(s, args.playouts * 4, 1, cards_drawn=drawn)
    early_seconds = time.process_time() - start
    print(
        json.dumps(
            {
                "position": {"preset": "us-2003", "players": 4, "turn": s.turn_no},
                "alive": sum(s.alive),
                "playouts": args.playouts,
                "cpu_seconds": [round(t, 3) for t in times],
                "ms_per_1000_playouts": round(best / args.playouts * 1_000_000, 1),
                "playouts_per_second": round(args.playouts / best),
                "probabilities": [round(p, 3) for p in est.probabilities],
                "stderr": [round(e, 4) for e in est.stderr],
                "early_stop": {
                    "playouts": early.playouts,
                    "cpu_seconds": round(early_seconds, 3),
                    "max_stderr": round(max(early.stderr), 4),
                },
                "engine_build": "compiled" if native.status() == "compiled" else "pure",
            }
        )
    )


if __name__ == "__main__":
    main()

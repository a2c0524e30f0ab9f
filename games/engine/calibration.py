"""Does the win estimate mean anything? ``manage.py analyse --calibrate``.

Play bot games (presets and seat counts varied), estimate every player's
chance at sampled positions, and once each game is over score the estimates
against who won: the Brier score, the Brier score of "every player still in
has the same chance", the log loss, and a reliability table (predictions in
bands of ten points against how often those players won).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

from .bots import make_bot, next_actor
from .core import valuation
from .estimate import CAP_WINNER, estimate_win_probabilities
from .events import EventLog
from .game import new_game, step
from .sim import game_seed
from .state import P_OVER, State

#: Presets and seat counts, cycled together (7 and 5 are coprime: every
#: pairing comes up once in 35 games). The UK preset seats at most 6.
PRESET_CYCLE: Final = (
    "us-2003",
    "us-2008",
    "uk",
    "short-2003",
    "short-classic",
    "time-limit",
    "quick-web",
)
SEAT_CYCLE: Final = (2, 3, 4, 5, 6)
#: A true game still running here is won by the richest, as the cap values it.
GAME_TURN_LIMIT: Final = 2000
#: Log loss counts a predicted 0 for the winner as this.
LOG_FLOOR: Final = 0.001
BANDS: Final = 10


@dataclass(frozen=True, slots=True)
class Position:
    """One sampled position: its game, turn, each seat's estimate (None for
    a seat already out) and the seat that went on to win."""

    game: int
    preset: str
    players: int
    turn: int
    probabilities: tuple[float, ...]
    alive: tuple[bool, ...]
    winner: int


def game_setup(seed: int, index: int) -> tuple[str, int, int]:
    """The preset, seat count and seed of calibration game ``index``."""
    return (
        PRESET_CYCLE[index % len(PRESET_CYCLE)],
        SEAT_CYCLE[index % len(SEAT_CYCLE)],
        game_seed(seed, index),
    )


def calibration_game(
    seed: int, index: int, every: int, playouts: int, turn_cap: int, cap_value: str = CAP_WINNER
) -> list[Position]:
    """Play calibration game ``index`` with heuristic bots, estimating at
    the start of every ``every``-th player-turn (as a spectator would see
    it: only the card draws that were shown), then mark the winner."""
    preset, players, game = game_setup(seed, index)
    s = new_game(preset, [f"bot-{i + 1}" for i in range(players)], game)
    bots = [make_bot("heuristic", "pay") for _ in range(players)]
    ev: EventLog = []
    drawn = [0, 0]
    sampled: list[tuple[int, tuple[float, ...], tuple[bool, ...]]] = []
    next_sample = 0
    while s.phase != P_OVER and s.turn_no < GAME_TURN_LIMIT:
        if s.turn_no >= next_sample:
            est = estimate_win_probabilities(
                s,
                playouts,
                game * 7919 + s.turn_no,
                turn_cap=turn_cap,
                target_stderr=None,
                cards_drawn=(drawn[0], drawn[1]),
                cap_value=cap_value,
            )
            sampled.append((s.turn_no, est.probabilities, tuple(s.alive)))
            next_sample = s.turn_no + every
        p = next_actor(s)
        step(s, bots[p].act(s, p), ev)
        for e in ev:
            if e[0] == "card":
                drawn[int(e[2][0])] += 1
        ev.clear()
    winner = s.winner if s.phase == P_OVER else _richest(s)
    return [
        Position(index, preset, players, turn, probs, alive, winner)
        for turn, probs, alive in sampled
    ]


def _richest(s: State) -> int:
    best = -1
    for p in range(s.n):
        if s.alive[p] and (best < 0 or valuation(s, p) > valuation(s, best)):
            best = p
    return best


def score(positions: list[Position]) -> dict[str, Any]:
    """Brier score, the uniform baseline's, log loss and reliability bands
    of ``positions`` (seats already out are left out of every figure)."""
    brier = baseline = log_loss = 0.0
    band_n = [0] * BANDS
    band_p = [0.0] * BANDS
    band_won = [0] * BANDS
    for pos in positions:
        alive = [p for p in range(pos.players) if pos.alive[p]]
        uniform = 1.0 / len(alive)
        for p in alive:
            y = 1.0 if p == pos.winner else 0.0
            q = pos.probabilities[p]
            brier += (q - y) ** 2
            baseline += (uniform - y) ** 2
            b = min(BANDS - 1, int(q * BANDS))
            band_n[b] += 1
            band_p[b] += q
            band_won[b] += int(y)
        log_loss -= math.log(max(LOG_FLOOR, pos.probabilities[pos.winner]))
    count = max(1, len(positions))
    reliability = []
    for b in range(BANDS):
        n = band_n[b]
        reliability.append(
            {
                "band": [b / BANDS, (b + 1) / BANDS],
                "mean_predicted": round(band_p[b] / n, 4) if n else None,
                "observed": round(band_won[b] / n, 4) if n else None,
                "count": n,
            }
        )
    return {
        "positions": len(positions),
        "games": len({pos.game for pos in positions}),
        "brier": round(brier / count, 5),
        "baseline_brier": round(baseline / count, 5),
        "improvement": round(1 - brier / baseline, 4) if baseline else None,
        "log_loss": round(log_loss / count, 5),
        "reliability": reliability,
    }


__all__ = ["Position", "calibration_game", "game_setup", "score"]

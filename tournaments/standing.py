"""Standings and tie-breaks: pure, standard library only.

CONTRACT (placeholder: the pairing work fills it in). Order: points, then
the sum of opponents' points, then places (more firsts, then more seconds,
...), then the sum of final net worth; then the player id, so it is total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """One player's result in one round: a table (``opponents`` non-empty)
    or a bye (``opponents`` empty, ``place`` None)."""

    player: int
    round_no: int
    points: float
    place: int | None = None
    net_worth: int = 0
    opponents: tuple[int, ...] = ()


@dataclass(frozen=True)
class Row:
    rank: int
    player: int
    points: float
    opponents_points: float
    places: tuple[int, ...]  # count of firsts, seconds, ... (index 0: firsts)
    net_worth: int
    games: int
    byes: int


def rank(players: Sequence[int], outcomes: Sequence[Outcome]) -> list[Row]:
    raise NotImplementedError

"""Seating a tournament round: pure, standard library only, deterministic.

CONTRACT (the foundation's placeholder: the pairing work replaces the bodies,
keeping these names and signatures; docs/tournaments.md states the algorithm).
Players are opaque ints (entry ids). ``order`` is the standings order, best
first. ``met[a]`` is the set of players ``a`` has shared a table with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Seating:
    tables: list[list[int]]
    byes: list[int] = field(default_factory=list)


def default_points(size: int) -> list[float]:
    """Points by finishing place for a table of ``size``, first place first."""
    raise NotImplementedError


def bye_points(points: Sequence[float]) -> float:
    """A bye is worth the median place's points."""
    raise NotImplementedError


def table_sizes(n: int, size: int, lo: int, hi: int) -> tuple[list[int], int]:
    """Table sizes (within ``lo``..``hi``, as close to ``size`` as can be)
    seating as many of ``n`` players as possible, and how many get a bye."""
    raise NotImplementedError


def seat_swiss(
    order: Sequence[int],
    met: Mapping[int, set[int]],
    byes: Mapping[int, int],
    *,
    size: int,
    lo: int,
    hi: int,
    seed: int,
    round_no: int,
) -> Seating:
    """Tables by standings in blocks, minimising repeat meetings; byes to
    those with fewest byes (lowest in the standings first)."""
    raise NotImplementedError


def seat_elimination(
    order: Sequence[int], *, size: int, lo: int, hi: int, seed: int, round_no: int
) -> Seating:
    """An elimination round: tables balanced by standings (snake seeding)."""
    raise NotImplementedError


def roundrobin_schedule(
    players: Sequence[int], *, size: int, lo: int, hi: int, rounds: int, seed: int
) -> list[Seating]:
    """A group's whole schedule (social golfer): no two players share a
    table twice where the numbers allow it."""
    raise NotImplementedError

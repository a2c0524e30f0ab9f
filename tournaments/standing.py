"""Standings and tie-breaks: pure, standard library only.

Order: points, then
the sum of opponents' points, then places (more firsts, then more seconds,
...), then the sum of final net worth; then the player id, so it is total.
"""

from __future__ import annotations

from collections import defaultdict
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
    """The standings of ``players``, best first, ``rank`` 1, 2, ...

    A player's opponents' points are the sum, over each table they played,
    of the event totals of everyone else at it (a player met twice counts
    twice; a bye adds nothing). Outcomes of players not listed (withdrawn
    entries a caller leaves out) still count for their opponents."""
    points: dict[int, float] = defaultdict(float)
    for o in outcomes:
        points[o.player] += o.points
    width = max((o.place for o in outcomes if o.place is not None), default=0)
    wanted = set(players)
    opp: dict[int, float] = defaultdict(float)
    places: dict[int, list[int]] = {p: [0] * width for p in players}
    worth: dict[int, int] = defaultdict(int)
    games: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    for o in outcomes:
        if o.player not in wanted:
            continue
        if o.opponents:
            games[o.player] += 1
            opp[o.player] += sum(points[q] for q in o.opponents)
        else:
            byes[o.player] += 1
        if o.place is not None and o.place >= 1:
            places[o.player][o.place - 1] += 1
        worth[o.player] += o.net_worth

    def key(p: int) -> tuple[float, float, tuple[int, ...], int, int]:
        return (-points[p], -opp[p], tuple(-c for c in places[p]), -worth[p], p)

    ordered = sorted(dict.fromkeys(players), key=key)
    return [
        Row(
            rank=i,
            player=p,
            points=points[p],
            opponents_points=opp[p],
            places=tuple(places[p]),
            net_worth=worth[p],
            games=games[p],
            byes=byes[p],
        )
        for i, p in enumerate(ordered, start=1)
    ]

"""Seating a tournament round: pure, standard library only, deterministic.

Players are opaque ints (entry ids). ``order`` is the standings order, best
first. ``met[a]`` is the set of players ``a`` has shared a table with (it
need not be symmetric: a meeting recorded on either side counts).
docs/tournaments.md states the algorithms and their measured figures.

Every function is a function of its arguments alone: the only randomness is
a ``random.Random`` keyed by ``seed`` (and the round), used to break ties
and to draw the seat order at each table (who moves first), so the same
standings and seed give the same seating on every machine.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.golfer import Completion, circle, deviation, padded_design, perfect_rounds
from tournaments.seating import (
    EXACT_PLAYERS,
    RESTARTS,
    SEARCH_BUDGET,
    keyed_rng,
    neighbours,
    repair,
    repeat_pairs,
    round_floor,
    seat_indices,
)
from tournaments.seating import lower_bound_repeats as lower_bound_repeats

#: How far (in tables) the Swiss repair search moves a player in one swap:
#: the standings blocks stay close to what they were.
SWISS_WINDOW = 8

#: Points by finishing place for the table sizes Monopoly is played at.
#: Board Game Arena's +6/+5/+3/+1 for four, the same first and last place
#: (6 and 1) at every size so that mixed sizes in a round stay comparable.
POINTS: dict[int, tuple[float, ...]] = {
    2: (6.0, 1.0),
    3: (6.0, 3.0, 1.0),
    4: (6.0, 5.0, 3.0, 1.0),
    5: (6.0, 5.0, 4.0, 2.0, 1.0),
    6: (6.0, 5.0, 4.0, 3.0, 2.0, 1.0),
}


@dataclass(frozen=True)
class Seating:
    tables: list[list[int]]
    byes: list[int] = field(default_factory=list)


def default_points(size: int) -> list[float]:
    """Points by finishing place for a table of ``size``, first place first.

    Sizes 2..6 follow ``POINTS``; other sizes fall from 6 to 1 evenly."""
    if size < 1:
        raise ValueError("A table has at least one seat.")
    if size in POINTS:
        return list(POINTS[size])
    if size == 1:
        return [6.0]
    return [round(1 + 5 * (size - 1 - i) / (size - 1), 2) for i in range(size)]


def bye_points(points: Sequence[float]) -> float:
    """A bye is worth the median place's points (for an even number of
    places, the mean of the two middle ones)."""
    if not points:
        return 0.0
    ranked = sorted(points, reverse=True)
    n = len(ranked)
    if n % 2:
        return float(ranked[n // 2])
    return (ranked[n // 2 - 1] + ranked[n // 2]) / 2


def check_bounds(size: int, lo: int, hi: int) -> None:
    """Refuse table bounds no seating can honour."""
    if not 2 <= lo <= size <= hi:
        raise ValueError(
            f"Table sizes need 2 <= minimum <= size <= maximum, got {lo}, {size}, {hi}."
        )


def table_sizes(n: int, size: int, lo: int, hi: int) -> tuple[list[int], int]:
    """Table sizes (within ``lo``..``hi``, as close to ``size`` as can be)
    seating as many of ``n`` players as possible, and how many get a bye.

    Among the ways to split the seated players into tables, the sizes as
    even as possible for each table count; the count is chosen by the total
    distance from ``size``, then the largest distance, then the most tables
    of exactly ``size``, then the most tables. Larger tables come first."""
    check_bounds(size, lo, hi)
    for seated in range(n, 0, -1):
        best: tuple[tuple[int, int, int, int], list[int]] | None = None
        for t in range(-(-seated // hi), seated // lo + 1):
            q, r = divmod(seated, t)
            sizes = [q + 1] * r + [q] * (t - r)
            devs = [abs(s - size) for s in sizes]
            key = (sum(devs), max(devs), -sizes.count(size), -t)
            if best is None or key < best[0]:
                best = (key, sizes)
        if best is not None:
            return best[1], n - seated
    return [], n


def pick_byes(order: Sequence[int], byes: Mapping[int, int], count: int) -> list[int]:
    """The ``count`` players with the fewest byes so far, the lowest in the
    standings first among equals, in standings order."""
    if count <= 0:
        return []
    pos = {p: i for i, p in enumerate(order)}
    chosen = sorted(order, key=lambda p: (byes.get(p, 0), -pos[p]))[:count]
    return sorted(chosen, key=pos.__getitem__)


def repeats(tables: Sequence[Sequence[int]], met: Mapping[int, set[int]]) -> int:
    """How many pairs sharing a table have met before."""
    count = 0
    for t in tables:
        for i, a in enumerate(t):
            seen = met.get(a, set())
            for b in t[i + 1 :]:
                if b in seen or a in met.get(b, ()):
                    count += 1
    return count


def _seat_order(tables: list[list[int]], rng: random.Random) -> list[list[int]]:
    # Who moves first matters in Monopoly: the seat order is drawn.
    out = []
    for t in tables:
        t = list(t)
        rng.shuffle(t)
        out.append(t)
    return out


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
    budget: int = SEARCH_BUDGET,
) -> Seating:
    """Tables by standings in blocks, minimising repeat meetings; byes to
    those with fewest byes (lowest in the standings first).

    Tables come leaders first; each table's list is its seat order."""
    players = list(order)
    if len(set(players)) != len(players):
        raise ValueError("A player appears twice in the standings.")
    sizes, n_byes = table_sizes(len(players), size, lo, hi)
    bye_list = pick_byes(players, byes, n_byes)
    out = set(bye_list)
    rest = [p for p in players if p not in out]
    rng = keyed_rng(seed, "swiss", round_no)
    nb = neighbours(rest, met)
    tables = seat_indices(len(rest), sizes, nb, rng, budget, window=SWISS_WINDOW, restarts=RESTARTS)
    seated = [[rest[i] for i in t] for t in tables]
    return Seating(tables=_seat_order(seated, rng), byes=bye_list)


def seat_elimination(
    order: Sequence[int],
    *,
    size: int,
    lo: int,
    hi: int,
    seed: int,
    round_no: int,
    met: Mapping[int, set[int]] | None = None,
) -> Seating:
    """An elimination round: tables balanced by standings (snake seeding).

    Seeds go 1, 2, ..., k across the tables and back k, ..., 1, a full table
    skipped. When no split within ``lo``..``hi`` seats everyone, the best
    seeds get the byes (they go through). Given ``met``, players of the same
    seeding tier (seat index) swap tables to remove repeat meetings: up to
    ``EXACT_PLAYERS`` seated, the fewest of all such seatings; beyond, by
    the repair search; then, if repeats remain, the repair search between
    neighbouring tiers too (never ending with more)."""
    players = list(order)
    sizes, n_byes = table_sizes(len(players), size, lo, hi)
    bye_list = players[:n_byes]
    rest = players[n_byes:]
    tables: list[list[int]] = [[] for _ in sizes]
    forward = True
    i = 0
    while i < len(rest):
        lane = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for t in lane:
            if i < len(rest) and len(tables[t]) < sizes[t]:
                tables[t].append(rest[i])
                i += 1
        forward = not forward
    rng = keyed_rng(seed, "elimination", round_no)
    if met and tables:
        _untangle_tiers(tables, met, rng, SEARCH_BUDGET)
    return Seating(tables=_seat_order(tables, rng), byes=bye_list)


def _untangle_tiers(
    tables: list[list[int]], met: Mapping[int, set[int]], rng: random.Random, budget: int
) -> None:
    """The repair search (tabu, in place) with swaps only between players
    of the same tier (the same seat index in the snake), so the tables'
    strength stays what the snake made it; if repeats are left, between
    neighbouring tiers too (a table's seeds then move by one tier at most)."""
    players = [p for t in tables for p in t]
    idx = {p: i for i, p in enumerate(players)}
    tier = [0] * len(players)
    for t in tables:
        for k, p in enumerate(t):
            tier[idx[p]] = k
    nb = neighbours(players, met)
    ix = [[idx[p] for p in t] for t in tables]
    if len(players) <= EXACT_PLAYERS:
        ix = _tiers_exact(ix, nb)
    else:
        repair(ix, nb, rng, checks=budget // 2, tier=tier)
    if repeat_pairs(ix, nb) > round_floor(ix, nb):
        repair(ix, nb, rng, checks=budget // 2, tier=tier, tier_gap=1)
    tables[:] = [[players[i] for i in t] for t in ix]


def _tiers_exact(tables: list[list[int]], nb: Sequence[set[int]]) -> list[list[int]]:
    """Every way to deal each tier's players (tier 0 fixed) over the tables
    with that seat: the fewest repeat meetings, then the fewest players
    moved from the snake, the first such in enumeration order."""
    depth = max(len(t) for t in tables)
    tiers = [[ti for ti, t in enumerate(tables) if len(t) > k] for k in range(depth)]
    best: tuple[tuple[int, int], list[list[int]]] | None = None
    current: list[list[int]] = [[t[0]] for t in tables]

    def deal(k: int, cost: int, moved: int) -> None:
        nonlocal best
        if best is not None and (cost, moved) >= best[0]:
            return
        if k == depth:
            best = ((cost, moved), [list(t) for t in current])
            return
        where = tiers[k]
        snake = [tables[ti][k] for ti in where]
        for perm in itertools.permutations(snake):
            added = 0
            for ti, p in zip(where, perm, strict=True):
                added += sum(1 for x in current[ti] if x in nb[p])
                current[ti].append(p)
            shifted = sum(1 for a, b in zip(perm, snake, strict=True) if a != b)
            deal(k + 1, cost + added, moved + shifted)
            for ti in where:
                current[ti].pop()

    deal(1, 0, 0)
    assert best is not None
    return best[1]


# --- round-robin groups (social golfer) ------------------------------------


def roundrobin_schedule(
    players: Sequence[int],
    *,
    size: int,
    lo: int,
    hi: int,
    rounds: int,
    seed: int,
    attempts: int = 3,
    budget: int = SEARCH_BUDGET // 4,
    polish: int = 30_000,
) -> list[Seating]:
    """A group's whole schedule (social golfer): no two players share a
    table twice where the numbers allow it.

    Known constructions first, at the sizes ``table_sizes`` gives (the
    circle method for pairs, Kirkman's 15, a transversal design or affine
    plane over GF(g) for ``size * g`` players, g a prime power at least
    ``size``); rounds beyond them, and other numbers, are searched round by
    round (a repeat-free seating when the search finds one, else the repair
    search), then the whole schedule is polished by a tabu search. When
    that leaves repeats, a transversal design padded with absent players
    (tables of k and k - 1 within the bounds) is taken if it covers every
    round; else both are searched from up to ``attempts`` seeded orders and
    the schedule with the fewest repeat meetings wins, then the one with
    table sizes closest to ``size``. Byes go to those with the fewest so
    far, drawn among equals."""
    check_bounds(size, lo, hi)
    group = list(players)
    if len(set(group)) != len(group):
        raise ValueError("A player appears twice in the group.")
    n = len(group)
    rng = keyed_rng(seed, "roundrobin")
    mapped = list(group)
    rng.shuffle(mapped)
    sched, byes = _schedule(n, size, lo, hi, rounds, seed, attempts, budget, polish)
    return [
        Seating(
            tables=_seat_order([[mapped[i] for i in t] for t in r], rng),
            byes=[mapped[i] for i in b],
        )
        for r, b in zip(sched, byes, strict=True)
    ]


@functools.lru_cache(maxsize=256)
def _schedule(
    n: int,
    size: int,
    lo: int,
    hi: int,
    rounds: int,
    seed: int,
    attempts: int,
    budget: int,
    polish: int,
) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[int, ...], ...]]:
    """The schedule of indices 0..n-1 and each round's byes. Kept (a pure
    function of its arguments): the site asks again at each round."""
    sizes, n_byes = table_sizes(n, size, lo, hi)
    start: list[list[list[int]]] = []
    start_byes: list[list[int]] = []
    if n_byes == 0 and sizes == [size] * len(sizes):
        start = (perfect_rounds(n, size) or [])[:rounds]
        start_byes = [[] for _ in start]
    elif size == hi == 2 and n % 2 == 1:
        # Pairs for an odd number: the circle method with a ghost, whose
        # partner has the round off (each player once in n rounds).
        for r in circle(n + 1)[:rounds]:
            start.append([t for t in r if n not in t])
            start_byes.append([a + b - n for a, b in r if n in (a, b)])
    quick = Completion(n, sizes, n_byes, rounds, seed, 1, budget, polish)
    best = quick.complete(start, start_byes)
    if best[2] > 0:
        padded = padded_design(n, size, lo, hi, rounds) or []
        if len(padded) == rounds:
            best = quick.complete(padded, [[] for _ in padded])
        else:
            full = Completion(n, sizes, n_byes, rounds, seed, attempts, budget, polish)
            candidates = [full.complete(start, start_byes)]
            if padded:
                candidates.append(full.complete(padded, [[] for _ in padded]))
            best = min(candidates, key=lambda c: (c[2], deviation(c[0], size)))
    sched, byes, _ = best
    return (
        tuple(tuple(tuple(t) for t in r) for r in sched),
        tuple(tuple(b) for b in byes),
    )

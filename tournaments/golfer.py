"""Round-robin schedules (the social golfer problem) for
``tournaments.pairing.roundrobin_schedule``: known constructions and the
searches that complete them. Pure, standard library only, deterministic.

Players here are indices 0..n-1 of a group.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from tournaments.seating import keyed_rng, lower_bound_repeats, neighbours, seat_indices

#: Irreducible polynomials (coefficients from the constant up, monic) for
#: the prime-power fields the constructions use beyond the primes.
_IRREDUCIBLE: dict[int, tuple[int, tuple[int, ...]]] = {
    4: (2, (1, 1, 1)),
    8: (2, (1, 1, 0, 1)),
    9: (3, (1, 0, 1)),
    16: (2, (1, 1, 0, 0, 1)),
    25: (5, (2, 1, 1)),
    27: (3, (1, 2, 0, 1)),
    49: (7, (1, 0, 1)),
}

#: Kirkman's fifteen schoolgirls: 15 players at tables of 3 for 7 rounds,
#: every pair once (a Kirkman triple system, as printed by Kirkman, 1850).
_KIRKMAN_15: tuple[tuple[str, ...], ...] = (
    ("ABJ", "CEM", "FKL", "HIN", "DGO"),
    ("ACH", "DEI", "FGM", "JLN", "BKO"),
    ("ADL", "BHM", "GIK", "CFN", "EJO"),
    ("AEG", "BIL", "CJK", "DMN", "FHO"),
    ("AFI", "BCD", "GHJ", "EKN", "LMO"),
    ("AKM", "DFJ", "EHL", "BGN", "CIO"),
    ("BEF", "CGL", "DHK", "IJM", "ANO"),
)


def is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def galois_field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q), elements 0..q-1 (the
    base-p digits of a polynomial's coefficients), or None if not known."""
    if is_prime(q):
        return (
            [[(a + b) % q for b in range(q)] for a in range(q)],
            [[(a * b) % q for b in range(q)] for a in range(q)],
        )
    if q not in _IRREDUCIBLE:
        return None
    p, poly = _IRREDUCIBLE[q]
    k = len(poly) - 1

    def digits(a: int) -> list[int]:
        return [(a // p**i) % p for i in range(k)]

    def number(d: Sequence[int]) -> int:
        return sum(c * p**i for i, c in enumerate(d))

    def mul(a: int, b: int) -> int:
        prod = [0] * (2 * k - 1)
        for i, x in enumerate(digits(a)):
            for j, y in enumerate(digits(b)):
                prod[i + j] = (prod[i + j] + x * y) % p
        for deg in range(2 * k - 2, k - 1, -1):
            c = prod[deg]
            if c:
                for i, pc in enumerate(poly):
                    prod[deg - k + i] = (prod[deg - k + i] - c * pc) % p
        return number(prod[:k])

    add = [
        [number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)]) for b in range(q)]
        for a in range(q)
    ]
    return add, [[mul(a, b) for b in range(q)] for a in range(q)]


def transversal(size: int, g: int) -> list[list[list[int]]] | None:
    """Rounds of ``g`` tables of ``size`` for ``size * g`` players in which
    no pair meets twice: player (i, j) is ``i * g + j``; in round r, table c
    holds (i, c + r i) over GF(g), so players of different rows meet in
    exactly one round (j - j' = r (i - i')). When ``size == g`` (an affine
    plane) the rows themselves make one more round."""
    if size > g:
        return None
    fld = galois_field(g)
    if fld is None:
        return None
    add, mul = fld
    out = [[[i * g + add[c][mul[r][i]] for i in range(size)] for c in range(g)] for r in range(g)]
    if size == g:
        out.append([[i * g + j for j in range(g)] for i in range(size)])
    return out


def circle(n: int) -> list[list[list[int]]]:
    """The circle method: n - 1 rounds of pairs for an even n, each pair once."""
    out = []
    ring = list(range(1, n))
    for _ in range(n - 1):
        line = [0, *ring]
        out.append([[line[i], line[n - 1 - i]] for i in range(n // 2)])
        ring = ring[-1:] + ring[:-1]
    return out


def perfect_rounds(n: int, size: int) -> list[list[list[int]]] | None:
    """A known repeat-free schedule for ``n`` players at tables of exactly
    ``size`` (indices 0..n-1), as many rounds as the construction gives."""
    if n % size or n == 0:
        return None
    if size == 2:
        return circle(n)
    if n == 15 and size == 3:
        return [[[ord(c) - ord("A") for c in t] for t in r] for r in _KIRKMAN_15]
    return transversal(size, n // size)


def deviation(sched: Sequence[Sequence[Sequence[int]]], size: int) -> int:
    return sum(abs(len(t) - size) for r in sched for t in r)


def prime_power_at_least(m: int, limit: int = 64) -> int | None:
    for q in range(max(2, m), limit + 1):
        if is_prime(q) or q in _IRREDUCIBLE:
            return q
    return None


def padded_design(n: int, size: int, lo: int, hi: int, rounds: int) -> list[list[list[int]]] | None:
    """A transversal design for k * g >= n players with the extra ones
    absent (the last indices, whole rows first: each table loses at most
    one player a row), for the k in ``lo..hi`` giving the most rounds whose
    tables all stay within the bounds (up to ``rounds``), then the table
    sizes closest to ``size``."""
    best: tuple[tuple[int, int], list[list[list[int]]]] | None = None
    for k in range(lo, hi + 1):
        g = prime_power_at_least(max(k, -(-n // k)))
        if g is None:
            continue
        design = transversal(k, g)
        if design is None:
            continue
        kept = []
        for r in design:
            tables = [[p for p in t if p < n] for t in r]
            tables = [t for t in tables if t]
            if all(lo <= len(t) <= hi for t in tables):
                kept.append(tables)
        kept = kept[:rounds]
        key = (len(kept), -deviation(kept, size))
        if kept and (best is None or key > best[0]):
            best = (key, kept)
    return None if best is None else best[1]


class Completion:
    """Rounds after a schedule's start, searched (see roundrobin_schedule)."""

    def __init__(
        self,
        n: int,
        sizes: list[int],
        n_byes: int,
        rounds: int,
        seed: int,
        attempts: int,
        budget: int,
        polish: int,
    ) -> None:
        self.n, self.sizes, self.n_byes, self.rounds = n, sizes, n_byes, rounds
        self.seed, self.attempts, self.budget, self.polish = seed, attempts, budget, polish

    def complete(
        self, start: list[list[list[int]]], start_byes: list[list[int]]
    ) -> tuple[list[list[list[int]]], list[list[int]], int]:
        """(rounds, byes of each round, repeat meetings) of the best attempt."""
        n = self.n
        best: tuple[list[list[list[int]]], list[list[int]], int] | None = None
        for attempt in range(max(1, self.attempts)):
            arng = keyed_rng(self.seed, "roundrobin", len(start), attempt)
            sched = [[list(t) for t in r] for r in start]
            met: list[set[int]] = [set() for _ in range(n)]
            for r in sched:
                _record(r, met)
            bye_count = [0] * n
            for b in start_byes:
                for i in b:
                    bye_count[i] += 1
            byes_by_round = [list(b) for b in start_byes]
            for _ in range(len(sched), self.rounds):
                order = list(range(n))
                arng.shuffle(order)
                out = sorted(order, key=lambda i: bye_count[i])[: self.n_byes]
                for i in out:
                    bye_count[i] += 1
                gone = set(out)
                rest = [i for i in order if i not in gone]
                nb = neighbours(rest, {i: met[i] for i in rest})
                seated = seat_indices(len(rest), self.sizes, nb, arng, self.budget, window=None)
                tables = [[rest[k] for k in t] for t in seated]
                _record(tables, met)
                sched.append(tables)
                byes_by_round.append(sorted(out))
            seen: Counter[int] = Counter()
            for r in sched:
                for t in r:
                    for i in t:
                        seen[i] += len(t) - 1
            floor = lower_bound_repeats(seen, n)
            cost = polish_schedule(sched, n, arng, checks=self.polish, floor=floor)
            if best is None or cost < best[2]:
                best = (sched, byes_by_round, cost)
            if cost <= floor or len(sched) == len(start):
                break
        assert best is not None
        return best


def polish_schedule(
    sched: list[list[list[int]]], n: int, rng: random.Random, *, checks: int, floor: int
) -> int:
    """Tabu search over the whole schedule, in place (after Dotú and Van
    Hentenryck's for the social golfer): take a player at a table where
    they meet someone a second time, swap them with the player of another
    table of the same round that lowers the repeat meetings most (even if
    none does), and keep both where they are for a few steps. Ends with the
    best schedule seen; returns its repeat meetings."""
    cnt = [[0] * n for _ in range(n)]
    for r in sched:
        for t in r:
            for i, a in enumerate(t):
                for b in t[i + 1 :]:
                    cnt[a][b] += 1
                    cnt[b][a] += 1
    cost = sum(max(0, cnt[a][b] - 1) for a in range(n) for b in range(a + 1, n))
    best_cost, best = cost, [[list(t) for t in r] for r in sched]
    tabu: dict[tuple[int, int], int] = {}
    step = last_best = 0
    patience = 200 + 5 * n
    while best_cost > floor and checks > 0 and step - last_best < patience:
        step += 1
        conflicted = [
            (ri, ti, x)
            for ri, r in enumerate(sched)
            for ti, t in enumerate(r)
            for x in t
            if any(cnt[x][z] >= 2 for z in t if z != x)
        ]
        if not conflicted:
            break
        free = [c for c in conflicted if tabu.get((c[0], c[2]), 0) <= step] or conflicted
        ri, ta_i, x = free[rng.randrange(len(free))]
        rnd = sched[ri]
        ta = rnd[ta_i]
        out_x = sum(1 for z in ta if z != x and cnt[x][z] >= 2)
        move: tuple[tuple[int, float], int, int] | None = None
        for tb_i, tb in enumerate(rnd):
            if tb_i == ta_i:
                continue
            for y in tb:
                checks -= 1
                out_y = sum(1 for z in tb if z != y and cnt[y][z] >= 2)
                in_x = sum(1 for z in tb if z != y and cnt[x][z] >= 1)
                in_y = sum(1 for z in ta if z != x and cnt[y][z] >= 1)
                delta = in_x + in_y - out_x - out_y
                if tabu.get((ri, y), 0) > step and cost + delta >= best_cost:
                    continue  # tabu, unless it beats the best seen
                key = (delta, rng.random())
                if move is None or key < move[0]:
                    move = (key, tb_i, y)
        if move is None:
            tabu.clear()
            continue
        (delta, _), tb_i, y = move
        tb = rnd[tb_i]
        for z in ta:
            if z != x:
                cnt[x][z] -= 1
                cnt[z][x] -= 1
                cnt[y][z] += 1
                cnt[z][y] += 1
        for z in tb:
            if z != y:
                cnt[y][z] -= 1
                cnt[z][y] -= 1
                cnt[x][z] += 1
                cnt[z][x] += 1
        ta[ta.index(x)] = y
        tb[tb.index(y)] = x
        cost += delta
        tenure = 3 + rng.randrange(8)
        tabu[(ri, x)] = tabu[(ri, y)] = step + tenure
        if cost < best_cost:
            best_cost, best = cost, [[list(t) for t in r] for r in sched]
            last_best = step
    sched[:] = best
    return best_cost


def _record(tables: Sequence[Sequence[int]], met: list[set[int]]) -> None:
    for t in tables:
        for a in t:
            met[a].update(x for x in t if x != a)


def _cost_ix(tables: Sequence[Sequence[int]], met: Sequence[set[int]]) -> int:
    return sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if b in met[a])

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

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

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

#: Candidate checks the exact search may spend on one seating before the
#: repair search takes over (a count, not a clock, so results never depend
#: on the machine's speed).
SEARCH_BUDGET = 60_000

#: How far (in tables) the Swiss repair search moves a player in one swap:
#: the standings blocks stay close to what they were.
SWISS_WINDOW = 8

#: Up to this many players at tables, a seating that still has repeat
#: meetings is proved minimal by an exhaustive (budgeted) search.
EXACT_PLAYERS = 12


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


def _rng(seed: int, *keys: object) -> random.Random:
    # A string seed is hashed with SHA-512 by ``random``: the same stream on
    # every machine and whatever PYTHONHASHSEED says.
    return random.Random(":".join(str(k) for k in (seed, *keys)))


def pick_byes(order: Sequence[int], byes: Mapping[int, int], count: int) -> list[int]:
    """The ``count`` players with the fewest byes so far, the lowest in the
    standings first among equals, in standings order."""
    if count <= 0:
        return []
    pos = {p: i for i, p in enumerate(order)}
    chosen = sorted(order, key=lambda p: (byes.get(p, 0), -pos[p]))[:count]
    return sorted(chosen, key=pos.__getitem__)


def _neighbours(players: Sequence[int], met: Mapping[int, set[int]]) -> list[set[int]]:
    """``met`` as sets of indices into ``players``, made symmetric."""
    idx = {p: i for i, p in enumerate(players)}
    nb: list[set[int]] = [set() for _ in players]
    for p, i in idx.items():
        for q in met.get(p, ()):
            j = idx.get(q)
            if j is not None and j != i:
                nb[i].add(j)
                nb[j].add(i)
    return nb


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


# --- the exact search ------------------------------------------------------


class _Budget:
    def __init__(self, checks: int) -> None:
        self.left = checks

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def _search(
    m: int, sizes: Sequence[int], nb: Sequence[set[int]], allowed: int, budget: _Budget
) -> tuple[list[list[int]] | None, bool]:
    """The first seating, in standings order, with at most ``allowed``
    repeat pairs: each table opens with the best player not yet seated and
    takes, seat by seat, the best players that keep within ``allowed``.

    Every partition into the given sizes is reached once (tables in order
    of their best player, each table's members in order), so an exhausted
    search proves there is none. Returns (seating or None, exhausted)."""
    seated = [False] * m
    tables: list[list[int]] = []
    targets: list[int] = []
    remaining = Counter(sizes)
    state = [0, 0]  # repeat pairs so far, players seated

    def open_choices() -> Iterator[tuple[int, int]]:
        # The distinct sizes left, the largest first; (size, 0).
        for s in sorted((s for s, c in remaining.items() if c > 0), reverse=True):
            yield s, 0

    def slot_choices(table: list[int]) -> Iterator[tuple[int, int]]:
        # (player, repeat pairs it adds), best in the standings first.
        for j in range(table[-1] + 1, m):
            if seated[j]:
                continue
            if not budget.spend():
                return
            nj = nb[j]
            c = 0
            for x in table:
                if x in nj:
                    c += 1
            if state[0] + c <= allowed:
                yield j, c

    # One frame a decision: (opens a table?, its choices); ``done[k]`` is
    # what frame k did last, undone before its next choice.
    frames: list[tuple[bool, Iterator[tuple[int, int]]]] = [(True, open_choices())]
    done: list[tuple[int, int]] = []
    while frames:
        if budget.left < 0:
            return None, False
        opens, choices = frames[-1]
        if len(done) == len(frames):
            who, added = done.pop()
            state[1] -= 1
            if opens:
                seated[tables.pop()[0]] = False
                remaining[targets.pop()] += 1
            else:
                tables[-1].pop()
                seated[who] = False
                state[0] -= added
        choice = next(choices, None)
        if choice is None:
            frames.pop()
            continue
        if opens:
            first = seated.index(False)
            seated[first] = True
            remaining[choice[0]] -= 1
            tables.append([first])
            targets.append(choice[0])
            done.append((first, 0))
        else:
            j, c = choice
            seated[j] = True
            tables[-1].append(j)
            state[0] += c
            done.append(choice)
        state[1] += 1
        if state[1] == m:
            return [list(t) for t in tables], True
        if len(tables[-1]) < targets[-1]:
            frames.append((False, slot_choices(tables[-1])))
        else:
            frames.append((True, open_choices()))
    return None, budget.left >= 0


# --- the repair search -----------------------------------------------------


def _greedy(m: int, sizes: Sequence[int], nb: Sequence[set[int]]) -> list[list[int]]:
    """Tables in standings order, each seat taking the best player not yet
    seated with the fewest earlier meetings at the table."""
    seated = [False] * m
    tables: list[list[int]] = []
    nxt = 0  # every player before it is seated
    for s in sizes:
        while seated[nxt]:
            nxt += 1
        table = [nxt]
        seated[nxt] = True
        while len(table) < s:
            best, best_c = -1, m
            for j in range(nxt, m):
                if seated[j]:
                    continue
                nj = nb[j]
                c = sum(1 for x in table if x in nj)
                if c < best_c:
                    best, best_c = j, c
                    if c == 0:
                        break
            table.append(best)
            seated[best] = True
        tables.append(table)
    return tables


def _repair(
    tables: list[list[int]],
    nb: Sequence[set[int]],
    rng: random.Random,
    *,
    checks: int,
    window: int | None = None,
) -> None:
    """Tabu search over swaps between tables, in place: take a player with
    a repeat meeting at random, make the swap (with a player at a table at
    most ``window`` away; any table if None) that lowers the repeat pairs
    most, preferring the nearest table, even when none lowers them; the
    players just swapped stay put for a few steps. Ends with the best
    seating seen, after ``checks`` swap evaluations or none left."""
    n_tables = len(tables)
    if n_tables < 2:
        return
    where = {p: ti for ti, t in enumerate(tables) for p in t}

    def clash(p: int, table: Sequence[int], without: int = -1) -> int:
        np_ = nb[p]
        c = 0
        for x in table:
            if x != without and x in np_:
                c += 1
        return c

    c = {p: clash(p, t) for t in tables for p in t}
    bad = {p for p, k in c.items() if k}
    total = sum(c.values()) // 2
    best_total, best = total, [list(t) for t in tables]
    floor = _round_floor(tables, nb)
    tabu: dict[int, int] = {}
    step = last_best = 0
    patience = 100 + 4 * len(where)
    span = n_tables - 1 if window is None else min(window, n_tables - 1)
    while best_total > floor and checks > 0 and step - last_best < patience:
        step += 1
        free = sorted(p for p in bad if tabu.get(p, 0) <= step) or sorted(bad)
        x = free[rng.randrange(len(free))]
        a = where[x]
        ta = tables[a]
        cx = c[x]
        move: tuple[tuple[int, int, float], int, int] | None = None
        for dist in range(1, span + 1):
            for b in (a - dist, a + dist):
                if not 0 <= b < n_tables:
                    continue
                tb = tables[b]
                for y in tb:
                    if tabu.get(y, 0) > step:
                        continue
                    checks -= 1
                    delta = clash(x, tb, y) + clash(y, ta, x) - cx - c[y]
                    key = (delta, dist, rng.random())
                    if move is None or key < move[0]:
                        move = (key, b, y)
        if move is None:
            tabu.clear()
            continue
        (delta, _, _), b, y = move
        tb = tables[b]
        ta[ta.index(x)] = y
        tb[tb.index(y)] = x
        where[x], where[y] = b, a
        tenure = 2 + rng.randrange(4)
        tabu[x] = tabu[y] = step + tenure
        total += delta
        for t in (ta, tb):
            for p in t:
                c[p] = clash(p, t)
                if c[p]:
                    bad.add(p)
                else:
                    bad.discard(p)
        if total < best_total:
            best_total, best = total, [list(t) for t in tables]
            last_best = step
    tables[:] = best


def _round_floor(tables: Sequence[Sequence[int]], nb: Sequence[set[int]]) -> int:
    """Repeat pairs no seating of these players at these sizes avoids: one
    who has met ``d`` of the other ``m - 1`` and sits with at least
    ``s - 1`` of them meets ``(s - 1) - (m - 1 - d)`` again, at least."""
    m = sum(len(t) for t in tables)
    s = min(len(t) for t in tables)
    forced = sum(max(0, (s - 1) - (m - 1 - len(nb[p]))) for t in tables for p in t)
    return (forced + 1) // 2


def _cost(tables: Sequence[Sequence[int]], nb: Sequence[set[int]]) -> int:
    return sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if b in nb[a])


def _seat(
    m: int,
    sizes: Sequence[int],
    nb: Sequence[set[int]],
    rng: random.Random,
    budget: int,
    *,
    window: int | None,
) -> list[list[int]]:
    """Tables of indices 0..m-1 (0 best): the first seating in standings
    order without repeat meetings when the search finds one, else the
    fewest repeat meetings the searches reach."""
    if m == 0:
        return []
    found, exhausted = _search(m, sizes, nb, 0, _Budget(budget))
    if found is not None:
        return found
    if m <= EXACT_PLAYERS and exhausted:
        # Small: the first seating with 1, 2, ... repeats is the fewest.
        for allowed in range(1, m * m):
            found, exhausted = _search(m, sizes, nb, allowed, _Budget(budget))
            if found is not None:
                return found
            if not exhausted:
                break
    tables = _greedy(m, sizes, nb)
    _repair(tables, nb, rng, checks=budget, window=window)
    tables.sort(key=min)
    for t in tables:
        t.sort()
    return tables


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
    rng = _rng(seed, "swiss", round_no)
    nb = _neighbours(rest, met)
    tables = _seat(len(rest), sizes, nb, rng, budget, window=SWISS_WINDOW)
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
    seeding tier swap tables where that removes repeat meetings."""
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
    rng = _rng(seed, "elimination", round_no)
    if met:
        _untangle_tiers(tables, met)
    return Seating(tables=_seat_order(tables, rng), byes=bye_list)


def _untangle_tiers(tables: list[list[int]], met: Mapping[int, set[int]]) -> None:
    """Swap players at the same seat index (the same tier) between tables
    while that lowers repeat meetings: the tables' strength stays balanced."""

    def clash(p: int, t: list[int], without: int) -> int:
        seen = met.get(p, set())
        return sum(1 for x in t if x not in (p, without) and (x in seen or p in met.get(x, ())))

    for _ in range(10):
        improved = False
        for a, ta in enumerate(tables):
            for k, x in enumerate(ta):
                if clash(x, ta, -1) == 0:
                    continue
                for b, tb in enumerate(tables):
                    if b == a or k >= len(tb):
                        continue
                    y = tb[k]
                    before = clash(x, ta, -1) + clash(y, tb, -1)
                    after = clash(x, tb, y) + clash(y, ta, x)
                    if after < before:
                        ta[k], tb[k] = y, x
                        x = y
                        improved = True
                        if clash(x, ta, -1) == 0:
                            break
        if not improved:
            return


# --- round-robin groups (social golfer) ------------------------------------

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


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def _field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q), elements 0..q-1 (the
    base-p digits of a polynomial's coefficients), or None if not known."""
    if _is_prime(q):
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


def _transversal(size: int, g: int) -> list[list[list[int]]] | None:
    """Rounds of ``g`` tables of ``size`` for ``size * g`` players in which
    no pair meets twice: player (i, j) is ``i * g + j``; in round r, table c
    holds (i, c + r i) over GF(g), so players of different rows meet in
    exactly one round (j - j' = r (i - i')). When ``size == g`` (an affine
    plane) the rows themselves make one more round."""
    if size > g:
        return None
    fld = _field(g)
    if fld is None:
        return None
    add, mul = fld
    out = [[[i * g + add[c][mul[r][i]] for i in range(size)] for c in range(g)] for r in range(g)]
    if size == g:
        out.append([[i * g + j for j in range(g)] for i in range(size)])
    return out


def _circle(n: int) -> list[list[list[int]]]:
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
        return _circle(n)
    if n == 15 and size == 3:
        return [[[ord(c) - ord("A") for c in t] for t in r] for r in _KIRKMAN_15]
    return _transversal(size, n // size)


def lower_bound_repeats(meetings: Mapping[int, int], n: int) -> int:
    """Pigeonhole: a player who sat with ``k`` opponents in all (counted
    with multiplicity) among ``n - 1`` possible ones met at least
    ``k - (n - 1)`` of them again; each repeat pair is counted by both."""
    excess = sum(max(0, k - (n - 1)) for k in meetings.values())
    return (excess + 1) // 2


def roundrobin_schedule(
    players: Sequence[int],
    *,
    size: int,
    lo: int,
    hi: int,
    rounds: int,
    seed: int,
    attempts: int = 6,
    budget: int = SEARCH_BUDGET // 4,
) -> list[Seating]:
    """A group's whole schedule (social golfer): no two players share a
    table twice where the numbers allow it.

    Known constructions first (the circle method for pairs, Kirkman's 15,
    a transversal design / affine plane over GF(g) for ``size * g`` players
    with g a prime power at least ``size``); rounds beyond them, and other
    numbers, are searched round by round (repeat-free seating when one is
    found within the budget, else the repair search), from ``attempts``
    seeded orders, keeping the schedule with the fewest repeat meetings.
    Byes go to those with the fewest so far, drawn among equals."""
    check_bounds(size, lo, hi)
    group = list(players)
    if len(set(group)) != len(group):
        raise ValueError("A player appears twice in the group.")
    n = len(group)
    rng = _rng(seed, "roundrobin")
    mapped = list(group)
    rng.shuffle(mapped)
    sizes, n_byes = table_sizes(n, size, lo, hi)
    start: list[list[list[int]]] = []
    start_byes: list[list[int]] = []
    if n_byes == 0 and sizes == [size] * len(sizes):
        start = (perfect_rounds(n, size) or [])[:rounds]
        start_byes = [[] for _ in start]
    elif size == hi == 2 and n % 2 == 1:
        # Pairs for an odd number: the circle method with a ghost, whose
        # partner has the round off (each player once in n rounds).
        for r in _circle(n + 1)[:rounds]:
            start.append([t for t in r if n not in t])
            start_byes.append([a + b - n for a, b in r if n in (a, b)])
    best: list[list[list[int]]] | None = None
    best_cost = -1
    for attempt in range(max(1, attempts)):
        arng = _rng(seed, "roundrobin", attempt)
        sched = [[list(t) for t in r] for r in start]
        met: list[set[int]] = [set() for _ in range(n)]
        for r in sched:
            _record(r, met)
        bye_count = [0] * n
        for b in start_byes:
            for i in b:
                bye_count[i] += 1
        cost = 0
        byes_by_round = [list(b) for b in start_byes]
        for _ in range(len(sched), rounds):
            order = list(range(n))
            arng.shuffle(order)
            bye_order = sorted(order, key=lambda i: bye_count[i])
            out = bye_order[:n_byes]
            for i in out:
                bye_count[i] += 1
            rest = [i for i in order if i not in set(out)]
            nb = _neighbours(rest, {i: met[i] for i in rest})
            tables = [
                [rest[k] for k in t] for t in _seat(len(rest), sizes, nb, arng, budget, window=None)
            ]
            cost += _cost_ix(tables, met)
            _record(tables, met)
            sched.append(tables)
            byes_by_round.append(sorted(out))
        if best is None or cost < best_cost:
            best, best_cost, best_byes = sched, cost, byes_by_round
        seen: Counter[int] = Counter()
        for r in sched:
            for t in r:
                for i in t:
                    seen[i] += len(t) - 1
        if cost <= lower_bound_repeats(seen, n) or len(sched) == len(start):
            break
    assert best is not None
    return [
        Seating(
            tables=_seat_order([[mapped[i] for i in t] for t in r], rng),
            byes=[mapped[i] for i in b],
        )
        for r, b in zip(best, best_byes, strict=True)
    ]


def _record(tables: Sequence[Sequence[int]], met: list[set[int]]) -> None:
    for t in tables:
        for a in t:
            met[a].update(x for x in t if x != a)


def _cost_ix(tables: Sequence[Sequence[int]], met: Sequence[set[int]]) -> int:
    return sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if b in met[a])

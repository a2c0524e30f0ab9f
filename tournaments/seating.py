"""The seating searches behind ``tournaments.pairing``: pure, standard
library only, deterministic (docs/tournaments.md states them).

Players here are indices 0..m-1 into the standings (0 the best) and ``nb``
their earlier meetings as sets of indices; ``tournaments.pairing`` maps
entries to indices and back.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

#: Candidate checks the exact search may spend on one seating before the
#: repair search takes over (a count, not a clock, so results never depend
#: on the machine's speed).
SEARCH_BUDGET = 60_000

#: When the repair search leaves repeats a seating might avoid, it starts
#: again from this many random seatings for up to this many players.
RESTARTS = 8
RESTART_PLAYERS = 200

#: Up to this many players at tables, a seating that still has repeat
#: meetings is proved minimal by an exhaustive (budgeted) search.
EXACT_PLAYERS = 12


def keyed_rng(seed: int, *keys: object) -> random.Random:
    # A string seed is hashed with SHA-512 by ``random``: the same stream on
    # every machine and whatever PYTHONHASHSEED says.
    return random.Random(":".join(str(k) for k in (seed, *keys)))


def neighbours(players: Sequence[int], met: Mapping[int, set[int]]) -> list[set[int]]:
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


def lower_bound_repeats(meetings: Mapping[int, int], n: int) -> int:
    """Pigeonhole: a player who sat with ``k`` opponents in all (counted
    with multiplicity) among ``n - 1`` possible ones met at least
    ``k - (n - 1)`` of them again; each repeat pair is counted by both."""
    excess = sum(max(0, k - (n - 1)) for k in meetings.values())
    return (excess + 1) // 2


# --- the exact search ------------------------------------------------------


class Budget:
    def __init__(self, checks: int) -> None:
        self.left = checks

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def first_seating(
    m: int, sizes: Sequence[int], nb: Sequence[set[int]], allowed: int, budget: Budget
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


def greedy(m: int, sizes: Sequence[int], nb: Sequence[set[int]]) -> list[list[int]]:
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


def repair(
    tables: list[list[int]],
    nb: Sequence[set[int]],
    rng: random.Random,
    *,
    checks: int,
    window: int | None = None,
    tier: Sequence[int] | None = None,
    tier_gap: int = 0,
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
    floor = round_floor(tables, nb)
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
                    if tabu.get(y, 0) > step or (
                        tier is not None and abs(tier[y] - tier[x]) > tier_gap
                    ):
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


def round_floor(tables: Sequence[Sequence[int]], nb: Sequence[set[int]]) -> int:
    """Repeat pairs no seating of these players at these sizes avoids: one
    who has met ``d`` of the other ``m - 1`` and sits with at least
    ``s - 1`` of them meets ``(s - 1) - (m - 1 - d)`` again, at least."""
    m = sum(len(t) for t in tables)
    s = min(len(t) for t in tables)
    forced = sum(max(0, (s - 1) - (m - 1 - len(nb[p]))) for t in tables for p in t)
    return (forced + 1) // 2


def repeat_pairs(tables: Sequence[Sequence[int]], nb: Sequence[set[int]]) -> int:
    return sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if b in nb[a])


def seat_indices(
    m: int,
    sizes: Sequence[int],
    nb: Sequence[set[int]],
    rng: random.Random,
    budget: int,
    *,
    window: int | None,
    restarts: int = 0,
) -> list[list[int]]:
    """Tables of indices 0..m-1 (0 best): the first seating in standings
    order without repeat meetings when the search finds one, else the
    fewest repeat meetings the searches reach."""
    if m == 0:
        return []
    found, exhausted = first_seating(m, sizes, nb, 0, Budget(budget))
    if found is not None:
        return found
    tables = greedy(m, sizes, nb)
    repair(tables, nb, rng, checks=budget, window=window)
    cost, floor = repeat_pairs(tables, nb), round_floor(tables, nb)
    if cost > floor and window is not None:
        # Near the leaders' tables nobody is left to swap with: any table.
        repair(tables, nb, rng, checks=budget, window=None)
        cost = repeat_pairs(tables, nb)
    if m <= EXACT_PLAYERS and exhausted and cost > floor:
        # Small: bisect on the repeats allowed (an exhausted search proves
        # there is no seating with so few); the search at the fewest then
        # gives the first such seating in standings order.
        low, high = max(1, floor), cost
        while low < high:
            mid = (low + high) // 2
            found, exhausted = first_seating(m, sizes, nb, mid, Budget(budget))
            if found is not None:
                high = mid
            elif exhausted:
                low = mid + 1
            else:
                break
        else:
            found, _ = first_seating(m, sizes, nb, low, Budget(budget))
            if found is not None:
                return found
            floor = cost  # proved: none has fewer than these tables
    if cost > floor and m <= RESTART_PLAYERS and restarts:
        # The repair from the standings' greedy seating is stuck: restart
        # it from random seatings, then draw the tables back together by
        # standings without adding a repeat.
        for _ in range(restarts):
            flat = list(range(m))
            rng.shuffle(flat)
            other, k = [], 0
            for size in sizes:
                other.append(flat[k : k + size])
                k += size
            repair(other, nb, rng, checks=budget // restarts, window=None)
            c = repeat_pairs(other, nb)
            if c < cost:
                tables, cost = other, c
                settle(tables, nb)
            if cost <= floor:
                break
    tables.sort(key=min)
    for t in tables:
        t.sort()
    return tables


def settle(tables: list[list[int]], nb: Sequence[set[int]]) -> None:
    """Swap players between tables, in place, while that brings each
    table's players closer together in the standings (the sum of their
    distances from the table's mean place) and adds no repeat meeting."""

    def clash(p: int, table: Sequence[int], without: int) -> int:
        return sum(1 for x in table if x != without and x != p and x in nb[p])

    for _ in range(5):
        moved = False
        for a, ta in enumerate(tables):
            for b in range(a + 1, len(tables)):
                tb = tables[b]
                ca, cb = sum(ta) / len(ta), sum(tb) / len(tb)
                for i, x in enumerate(ta):
                    for j, y in enumerate(tb):
                        gain = abs(x - ca) + abs(y - cb) - abs(y - ca) - abs(x - cb)
                        if gain <= 0:
                            continue
                        before = clash(x, ta, -1) + clash(y, tb, -1)
                        if clash(x, tb, y) + clash(y, ta, x) > before:
                            continue
                        ta[i], tb[j] = y, x
                        x = y
                        ca, cb = sum(ta) / len(ta), sum(tb) / len(tb)
                        moved = True
        if not moved:
            return

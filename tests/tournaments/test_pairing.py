"""Seating properties (tournaments.pairing), with hypothesis and exhaustive
checks on small cases."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tournaments import pairing
from tournaments.pairing import Seating

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- helpers ---------------------------------------------------------------


def partitions(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[list[int]]]:
    """Every way to split ``players`` into tables of the given sizes."""
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for s in sorted(set(sizes)):
        left = list(sizes)
        left.remove(s)
        for mates in itertools.combinations(rest, s - 1):
            others = [p for p in rest if p not in mates]
            for tail in partitions(others, left):
                yield [[first, *mates], *tail]


def fewest_repeats(players: Sequence[int], sizes: Sequence[int], met: dict[int, set[int]]) -> int:
    return min(pairing.repeats(p, met) for p in partitions(players, sizes))


def met_from(rounds: Sequence[Seating]) -> dict[int, set[int]]:
    met: dict[int, set[int]] = {}
    for r in rounds:
        for t in r.tables:
            for a in t:
                met.setdefault(a, set()).update(x for x in t if x != a)
    return met


def pair_counts(rounds: Sequence[Seating]) -> Counter[tuple[int, int]]:
    c: Counter[tuple[int, int]] = Counter()
    for r in rounds:
        for t in r.tables:
            for a, b in itertools.combinations(sorted(t), 2):
                c[(a, b)] += 1
    return c


def assert_everyone_once(players: Sequence[int], s: Seating, lo: int, hi: int) -> None:
    seated = [p for t in s.tables for p in t]
    assert sorted(seated + s.byes) == sorted(players)
    assert all(lo <= len(t) <= hi for t in s.tables)


@st.composite
def bounds(draw: st.DrawFn) -> tuple[int, int, int]:
    size = draw(st.integers(2, 6))
    lo = draw(st.integers(2, size))
    hi = draw(st.integers(size, 6))
    return size, lo, hi


@st.composite
def swiss_case(
    draw: st.DrawFn, max_players: int = 40
) -> tuple[list[int], dict[int, set[int]], dict[int, int], tuple[int, int, int]]:
    """Standings, earlier meetings (random tables of earlier rounds) and
    byes so far."""
    n = draw(st.integers(0, max_players))
    ids = draw(st.permutations(range(100, 100 + n)))
    size, lo, hi = draw(bounds())
    met: dict[int, set[int]] = {}
    for _ in range(draw(st.integers(0, 4))):
        shuffled = draw(st.permutations(ids))
        k = draw(st.integers(2, 6))
        for i in range(0, len(shuffled), k):
            t = shuffled[i : i + k]
            for a in t:
                met.setdefault(a, set()).update(x for x in t if x != a)
    byes = {p: draw(st.integers(0, 2)) for p in ids}
    return list(ids), met, byes, (size, lo, hi)


# --- points and sizes ------------------------------------------------------


def test_default_points_fall_from_six_to_one_at_every_size() -> None:
    assert pairing.default_points(4) == [6, 5, 3, 1]
    for size in range(2, 7):
        pts = pairing.default_points(size)
        assert len(pts) == size and pts[0] == 6 and pts[-1] == 1
        assert pts == sorted(pts, reverse=True)


def test_bye_is_worth_the_median_place() -> None:
    assert pairing.bye_points([6, 3, 1]) == 3
    assert pairing.bye_points([6, 5, 3, 1]) == 4
    assert pairing.bye_points(pairing.default_points(6)) == 3.5


@given(n=st.integers(0, 300), b=bounds())
@FAST
def test_table_sizes_seat_everyone_within_bounds_when_a_split_exists(
    n: int, b: tuple[int, int, int]
) -> None:
    size, lo, hi = b
    sizes, byes = pairing.table_sizes(n, size, lo, hi)
    assert all(lo <= s <= hi for s in sizes)
    assert sum(sizes) + byes == n
    splittable = any(t * lo <= n <= t * hi for t in range(1, n + 1))
    assert (byes == 0) == (splittable or n == 0)


def test_table_sizes_keep_close_to_the_size() -> None:
    assert pairing.table_sizes(12, 4, 3, 5) == ([4, 4, 4], 0)
    assert pairing.table_sizes(9, 4, 3, 5) == ([5, 4], 0)
    assert pairing.table_sizes(10, 4, 4, 4) == ([4, 4], 2)
    assert pairing.table_sizes(2, 4, 3, 5) == ([], 2)


def test_refuses_bounds_that_no_table_honours() -> None:
    with pytest.raises(ValueError):
        pairing.table_sizes(10, 4, 5, 6)


# --- Swiss -----------------------------------------------------------------


@given(case=swiss_case(), seed=st.integers(0, 2**32), round_no=st.integers(1, 9))
@FAST
def test_swiss_seats_everyone_once_or_gives_a_bye(
    case: tuple[list[int], dict[int, set[int]], dict[int, int], tuple[int, int, int]],
    seed: int,
    round_no: int,
) -> None:
    order, met, byes, (size, lo, hi) = case
    s = pairing.seat_swiss(order, met, byes, size=size, lo=lo, hi=hi, seed=seed, round_no=round_no)
    assert_everyone_once(order, s, lo, hi)
    assert len(s.byes) == pairing.table_sizes(len(order), size, lo, hi)[1]
    if s.byes:
        seated = [p for t in s.tables for p in t]
        # Nobody gets a second bye while anyone seated has had fewer.
        assert max(byes[p] for p in s.byes) <= min((byes[p] for p in seated), default=99)


@given(case=swiss_case(max_players=9), seed=st.integers(0, 2**32))
@settings(max_examples=150, deadline=None)
def test_swiss_has_the_fewest_repeats_of_all_seatings_exhaustively(
    case: tuple[list[int], dict[int, set[int]], dict[int, int], tuple[int, int, int]],
    seed: int,
) -> None:
    order, met, byes, (size, lo, hi) = case
    s = pairing.seat_swiss(order, met, byes, size=size, lo=lo, hi=hi, seed=seed, round_no=2)
    seated = [p for t in s.tables for p in t]
    sizes = [len(t) for t in s.tables]
    assert pairing.repeats(s.tables, met) == fewest_repeats(seated, sizes, met)


def test_swiss_avoids_a_repeat_that_standings_blocks_would_make() -> None:
    # Round 1 seated 1-4 and 5-8; the standings keep them together.
    met = met_from([Seating(tables=[[1, 2, 3, 4], [5, 6, 7, 8]])])
    s = pairing.seat_swiss(
        [1, 2, 3, 4, 5, 6, 7, 8], met, {}, size=2, lo=2, hi=2, seed=1, round_no=2
    )
    assert pairing.repeats(s.tables, met) == 0
    # Leaders at table 1: the leader sits with the best player not yet met.
    assert sorted(s.tables[0]) == [1, 5]


def test_swiss_without_history_seats_by_standings_in_blocks() -> None:
    order = list(range(50, 0, -1))
    s = pairing.seat_swiss(order, {}, {}, size=4, lo=3, hi=5, seed=3, round_no=1)
    blocks = [sorted(t) for t in s.tables]
    flat = [p for b in blocks for p in sorted(b, key=order.index)]
    assert flat == order


def test_bye_goes_to_the_lowest_ranked_among_those_with_fewest_byes() -> None:
    order = [1, 2, 3, 4, 5]
    s = pairing.seat_swiss(order, {}, {5: 1, 4: 0}, size=4, lo=4, hi=4, seed=1, round_no=2)
    assert s.byes == [4]


@given(case=swiss_case(), seed=st.integers(0, 2**32))
@FAST
def test_swiss_is_deterministic_for_a_seed(
    case: tuple[list[int], dict[int, set[int]], dict[int, int], tuple[int, int, int]],
    seed: int,
) -> None:
    order, met, byes, (size, lo, hi) = case
    a = pairing.seat_swiss(order, met, byes, size=size, lo=lo, hi=hi, seed=seed, round_no=3)
    b = pairing.seat_swiss(
        list(order), dict(met), dict(byes), size=size, lo=lo, hi=hi, seed=seed, round_no=3
    )
    assert a == b


def test_swiss_byes_go_round_before_anyone_has_a_second() -> None:
    players = list(range(1, 8))
    byes: Counter[int] = Counter()
    met: dict[int, set[int]] = {}
    for r in range(1, 8):
        s = pairing.seat_swiss(players, met, byes, size=3, lo=3, hi=3, seed=9, round_no=r)
        for p in s.byes:
            byes[p] += 1
        assert max(byes.values()) - min(byes[p] for p in players) <= 1
        for t in s.tables:
            for a in t:
                met.setdefault(a, set()).update(x for x in t if x != a)


def test_swiss_seats_a_thousand_players_well_under_a_second() -> None:
    players = list(range(1000))
    met: dict[int, set[int]] = {}
    worst = 0.0
    for r in range(1, 4):
        order = players[r:] + players[:r]
        start = time.perf_counter()
        s = pairing.seat_swiss(order, met, {}, size=4, lo=3, hi=5, seed=1, round_no=r)
        worst = max(worst, time.perf_counter() - start)
        assert pairing.repeats(s.tables, met) == 0
        for t in s.tables:
            for a in t:
                met.setdefault(a, set()).update(x for x in t if x != a)
    assert worst < 1.0


# --- elimination -----------------------------------------------------------


@given(n=st.integers(0, 80), b=bounds(), seed=st.integers(0, 2**32))
@FAST
def test_elimination_seats_everyone_once_within_bounds(
    n: int, b: tuple[int, int, int], seed: int
) -> None:
    size, lo, hi = b
    order = list(range(1, n + 1))
    s = pairing.seat_elimination(order, size=size, lo=lo, hi=hi, seed=seed, round_no=1)
    assert_everyone_once(order, s, lo, hi)
    # The best seeds are spread one a table; the byes (if any) are theirs.
    assert s.byes == order[: len(s.byes)]
    tops = order[len(s.byes) : len(s.byes) + len(s.tables)]
    assert sorted(next(i for i, t in enumerate(s.tables) if p in t) for p in tops) == list(
        range(len(s.tables))
    )


def test_elimination_moves_players_apart_who_met_when_it_can() -> None:
    # The four who went through from two tables of the last round.
    met = met_from([Seating(tables=[[1, 3, 9, 10], [2, 4, 11, 12]])])
    order = [1, 2, 3, 4, 5, 6, 7, 8]
    s = pairing.seat_elimination(order, size=4, lo=4, hi=4, seed=1, round_no=2, met=met)
    assert pairing.repeats(s.tables, met) == 0


# --- round-robin -----------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "size", "rounds"),
    [(9, 3, 4), (16, 4, 5), (15, 3, 7), (8, 2, 7), (7, 2, 7), (20, 4, 5), (25, 5, 6), (12, 3, 4)],
)
def test_roundrobin_meets_nobody_twice_where_a_perfect_schedule_exists(
    n: int, size: int, rounds: int
) -> None:
    players = list(range(10, 10 + n))
    sched = pairing.roundrobin_schedule(players, size=size, lo=size, hi=size, rounds=rounds, seed=4)
    assert len(sched) == rounds
    for s in sched:
        assert_everyone_once(players, s, size, size)
    assert max(pair_counts(sched).values()) == 1


@given(n=st.integers(2, 20), b=bounds(), rounds=st.integers(1, 5), seed=st.integers(0, 2**32))
@settings(max_examples=20, deadline=None)
def test_roundrobin_seats_everyone_and_spreads_byes_evenly(
    n: int, b: tuple[int, int, int], rounds: int, seed: int
) -> None:
    size, lo, hi = b
    players = list(range(n))
    sched = pairing.roundrobin_schedule(players, size=size, lo=lo, hi=hi, rounds=rounds, seed=seed)
    assert len(sched) == rounds
    byes: Counter[int] = Counter()
    for s in sched:
        assert_everyone_once(players, s, lo, hi)
        byes.update(s.byes)
        assert max(byes[p] for p in players) - min(byes[p] for p in players) <= 1


def perfect_schedule_exists(n: int, sizes: Sequence[int], rounds: int) -> bool:
    """Exhaustively: ``rounds`` rounds of tables of ``sizes`` for ``n``
    players, no pair twice (round 1 fixed: relabelling changes nothing)."""
    first: list[list[int]] = []
    k = 0
    for s in sizes:
        first.append(list(range(k, k + s)))
        k += s
    met = met_from([Seating(tables=first)])

    def extend(left: int, met: dict[int, set[int]]) -> bool:
        if left == 0:
            return True
        for p in partitions(list(range(n)), sizes):
            if pairing.repeats(p, met) == 0:
                nxt = {a: set(b) for a, b in met.items()}
                for t in p:
                    for a in t:
                        nxt.setdefault(a, set()).update(x for x in t if x != a)
                if extend(left - 1, nxt):
                    return True
        return False

    return extend(rounds - 1, met)


@given(n=st.integers(4, 8), size=st.integers(2, 4), rounds=st.integers(1, 4))
@settings(max_examples=40, deadline=None)
def test_roundrobin_is_perfect_whenever_a_perfect_schedule_exists_exhaustively(
    n: int, size: int, rounds: int
) -> None:
    assume(n % size == 0)
    players = list(range(n))
    sched = pairing.roundrobin_schedule(players, size=size, lo=size, hi=size, rounds=rounds, seed=1)
    if perfect_schedule_exists(n, [size] * (n // size), rounds):
        assert max(pair_counts(sched).values()) == 1


def test_roundrobin_is_deterministic_for_a_seed() -> None:
    players = list(range(30))
    a = pairing.roundrobin_schedule(players, size=4, lo=3, hi=5, rounds=6, seed=11)
    b = pairing.roundrobin_schedule(players, size=4, lo=3, hi=5, rounds=6, seed=11)
    assert a == b


def test_lower_bound_counts_opponents_beyond_the_field() -> None:
    # 5 players, 3 rounds at tables of 3: 6 opponents each among 4 others.
    assert pairing.lower_bound_repeats({p: 6 for p in range(5)}, 5) == 5
    assert pairing.lower_bound_repeats({p: 3 for p in range(30)}, 30) == 0

"""The splitmix64 generator on 32-bit halves gives the textbook numbers."""

from __future__ import annotations

import random

from games.engine.rng import MASK, next_below, next_u64, seed_state, shuffle


def _textbook(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def _textbook_shuffle(x: int, items: list[int]) -> int:
    for i in range(len(items) - 1, 0, -1):
        x, r = _textbook(x)
        j = r % (i + 1)
        items[i], items[j] = items[j], items[i]
    return x


EDGES = [0, 1, 2**32 - 1, 2**32, 2**62 - 1, 2**62, 2**63, MASK - 0x9E3779B97F4A7C15, MASK]


def _states() -> list[int]:
    rnd = random.Random(20261124)
    return EDGES + [rnd.getrandbits(64) for _ in range(20000)] + [seed_state(s) for s in range(500)]


def test_next_u64_matches_the_textbook_splitmix64() -> None:
    for x in _states():
        assert next_u64(x) == _textbook(x), hex(x)


def test_next_below_is_the_textbook_output_modulo_n() -> None:
    for i, x in enumerate(_states()):
        n = (2, 6, 36, 40, 1000, 2**31 - 1, 2**40 + 7)[i % 7]
        new, r = _textbook(x)
        assert next_below(x, n) == (new, r % n), (hex(x), n)


def test_a_chain_of_draws_stays_on_the_textbook_sequence() -> None:
    x = y = seed_state(42)
    for _ in range(10000):
        x, r = next_u64(x)
        y, q = _textbook(y)
        assert (x, r) == (y, q)


def test_shuffle_matches_the_textbook_fisher_yates() -> None:
    for x in _states()[:2000]:
        n = x % 40 + 1
        a, b = list(range(n)), list(range(n))
        assert shuffle(x, a) == _textbook_shuffle(x, b)
        assert a == b

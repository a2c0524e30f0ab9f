"""A tiny seeded PRNG (splitmix64) whose whole state is one integer.

The state lives in ``State.rng`` so a game serialises, and replays, exactly.
"""

from __future__ import annotations

from typing import Final

MASK: Final = 0xFFFFFFFFFFFFFFFF
GAMMA: Final = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Turn any integer seed into a 64-bit generator state."""
    return (seed * 0x2545F4914F6CDD1D + 0x1234567) & MASK


M32: Final = 0xFFFFFFFF

# splitmix64 below works on 32-bit halves (high, low), and multiplies in
# 16-bit pieces: compiled with mypyc, an integer product stays a machine
# operation only while both factors are below 2**30, and 64-bit values
# overflow into Python longs, several times slower. The results are bit for
# bit those of the textbook form:
#
#     x = (x + GAMMA) & MASK
#     z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
#     z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
#     return x, z ^ (z >> 31)
#
# (tests/engine/test_rng.py checks them against it).


def _mul(hi: int, lo: int, c3: int, c2: int, c1: int, c0: int) -> tuple[int, int]:
    """(hi, lo) times the constant with 16-bit pieces c3..c0, modulo 2**64,
    as (high, low) halves: the schoolbook products that reach below 2**64."""
    l0, l1, h0, h1 = lo & 0xFFFF, lo >> 16, hi & 0xFFFF, hi >> 16
    p1 = l0 * c1 + l1 * c0
    low = l0 * c0 + ((p1 & 0xFFFF) << 16)
    p3 = l0 * c3 + l1 * c2 + h0 * c1 + h1 * c0
    high = (low >> 32) + (p1 >> 16) + l0 * c2 + l1 * c1 + h0 * c0 + ((p3 & 0xFFFF) << 16)
    return high & M32, low & M32


def _mix(hi: int, lo: int) -> tuple[int, int, int, int]:
    """One splitmix64 step on state halves: (state hi, lo, output hi, lo)."""
    lo += 0x7F4A7C15
    hi = (hi + 0x9E3779B9 + (lo >> 32)) & M32
    lo &= M32
    # 0xBF58476D1CE4E5B9 and 0x94D049BB133111EB in 16-bit pieces.
    zh, zl = _mul(
        hi ^ (hi >> 30), lo ^ (((lo >> 30) | (hi << 2)) & M32), 0xBF58, 0x476D, 0x1CE4, 0xE5B9
    )
    zh, zl = _mul(
        zh ^ (zh >> 27), zl ^ (((zl >> 27) | (zh << 5)) & M32), 0x94D0, 0x49BB, 0x1331, 0x11EB
    )
    return hi, lo, zh ^ (zh >> 31), zl ^ (((zl >> 31) | (zh << 1)) & M32)


def next_u64(x: int) -> tuple[int, int]:
    """Advance state ``x``; return (new state, 64 random bits)."""
    hi, lo, zh, zl = _mix(x >> 32, x & M32)
    return (hi << 32) | lo, (zh << 32) | zl


def next_below(x: int, n: int) -> tuple[int, int]:
    """Advance state ``x``; return (new state, ``next_u64``'s bits modulo
    ``n``), without making the 64-bit number."""
    hi, lo, zh, zl = _mix(x >> 32, x & M32)
    return (hi << 32) | lo, ((zh % n) * (0x100000000 % n) + zl) % n


def shuffle(x: int, items: list[int]) -> int:
    """Fisher-Yates shuffle of ``items`` in place; return the new state."""
    hi, lo = x >> 32, x & M32
    for i in range(len(items) - 1, 0, -1):
        hi, lo, zh, zl = _mix(hi, lo)
        n = i + 1
        j = ((zh % n) * (0x100000000 % n) + zl) % n
        items[i], items[j] = items[j], items[i]
    return (hi << 32) | lo


class Rng:
    """A bot-local generator with the same algorithm (not part of game state)."""

    __slots__ = ("x",)

    def __init__(self, seed: int) -> None:
        self.x = seed_state(seed)

    def below(self, n: int) -> int:
        self.x, r = next_u64(self.x)
        return r % n

    def random(self) -> float:
        self.x, r = next_u64(self.x)
        return (r >> 11) / 9007199254740992.0

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


def next_u64(x: int) -> tuple[int, int]:
    """Advance state ``x``; return (new state, 64 random bits)."""
    x = (x + GAMMA) & MASK
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def shuffle(x: int, items: list[int]) -> int:
    """Fisher-Yates shuffle of ``items`` in place; return the new state."""
    for i in range(len(items) - 1, 0, -1):
        x, r = next_u64(x)
        j = r % (i + 1)
        items[i], items[j] = items[j], items[i]
    return x


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

"""The engine's two generators; either one's whole state is one integer.

``State.rng`` holds it, so a game serialises, and replays, exactly:

* **splitmix64** (``GEN_SPLITMIX``), seeded by an integer: fast, for
  simulation and analysis. It is invertible, so a few observed outputs give
  its state away: never use it where players must not predict the dice.
* **keyed** (``GEN_KEYED``): BLAKE2b keyed by the game's secret (at least
  256 bits), of a counter. ``State.rng`` is the counter. Without the secret,
  the throws seen so far say nothing about the next ones; once the secret is
  revealed, anyone can recompute every throw and card.

A site game with a person seated is keyed not by the server's secret itself
but by ``dice_key(secret, seeds)``: the secret (committed to before any seat
was taken) mixed with a seed that each person chose (docs/fair-dice.md).
"""

from __future__ import annotations

import hmac
from hashlib import blake2b, sha256
from typing import Final

from .state import State

GEN_SPLITMIX: Final = 0
GEN_KEYED: Final = 1
GENERATOR_NAMES: Final = ("splitmix64", "blake2b-keyed")

#: The keyed stream of the dice and cards; bots draw from streams of their own
#: (``KeyedRng``), so their choices never shift the game's throws.
GAME_STREAM: Final = b"game"
MIN_SECRET_BYTES: Final = 32
MAX_SECRET_BYTES: Final = 64  # BLAKE2b's longest key

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


def secret_key(secret: str) -> bytes:
    """The key bytes of a secret given as hex; ``ValueError`` unless it is
    hex of 32 to 64 bytes."""
    key = bytes.fromhex(secret)
    if not MIN_SECRET_BYTES <= len(key) <= MAX_SECRET_BYTES:
        raise ValueError(
            f"A game secret must be {MIN_SECRET_BYTES} to {MAX_SECRET_BYTES} bytes, not {len(key)}."
        )
    return key


def commitment(secret: str) -> str:
    """SHA-256 of the secret's bytes, as hex: published when the game starts."""
    return sha256(secret_key(secret)).hexdigest()


#: What the dice key's HMAC message starts with: the derivation's name and
#: version, so that no other use of the secret can give the same key.
DICE_KEY_LABEL: Final = b"monopoly fair dice v1"
HEX_DIGITS: Final = "0123456789abcdefABCDEF"
MIN_SEED_BYTES: Final = 16
MAX_SEED_BYTES: Final = 64


def seed_bytes(seed: str) -> bytes:
    """The bytes of a player's seed given as hex; ``ValueError`` unless it
    is hex of 16 to 64 bytes."""
    # Only hex digits: fromhex would skip spaces, and a seed must have one
    # spelling, the one every verifier reads.
    if not all(c in HEX_DIGITS for c in seed):
        raise ValueError("A seed is written in hexadecimal digits (0-9, a-f) only.")
    try:
        raw = bytes.fromhex(seed)
    except ValueError:
        raise ValueError("A seed is written in hexadecimal digits, two per byte.") from None
    if not MIN_SEED_BYTES <= len(raw) <= MAX_SEED_BYTES:
        raise ValueError(
            f"A seed must be {MIN_SEED_BYTES} to {MAX_SEED_BYTES} bytes "
            f"({2 * MIN_SEED_BYTES} to {2 * MAX_SEED_BYTES} hex digits), not {len(raw)}."
        )
    return raw


def dice_key(secret: str, seeds: list[str | None]) -> str:
    """The key of a game's dice, as hex: HMAC-SHA256 keyed by the secret's
    bytes, of ``DICE_KEY_LABEL`` followed, for each seat in seat order, by
    one byte giving the length of that seat's seed and the seed's bytes
    (length 0 and nothing for a seat that gave none: None for a site bot's,
    "" for a person's whose client sent none). The lengths make the message
    unambiguous: no other list of seeds gives the same bytes."""
    message = bytearray(DICE_KEY_LABEL)
    for seed in seeds:
        raw = seed_bytes(seed) if seed else b""
        message.append(len(raw))
        message.extend(raw)
    return hmac.new(secret_key(secret), bytes(message), sha256).hexdigest()


def keyed_u64(key: bytes, stream: bytes, counter: int) -> int:
    """The 64-bit output number ``counter`` of ``stream`` under ``key``."""
    data = stream + b":" + counter.to_bytes(8, "big")
    return int.from_bytes(blake2b(data, key=key, digest_size=8).digest(), "big")


def keyed_below(key: bytes, stream: bytes, counter: int, n: int) -> tuple[int, int]:
    """(next counter, a uniform number below ``n``): outputs past the last
    whole multiple of ``n`` are skipped, so no outcome is favoured at all."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        r = keyed_u64(key, stream, counter)
        counter += 1
        if r < limit:
            return counter, r % n


def keyed_shuffle(key: bytes, stream: bytes, counter: int, items: list[int]) -> int:
    """Fisher-Yates shuffle of ``items`` in place; return the next counter."""
    for i in range(len(items) - 1, 0, -1):
        counter, j = keyed_below(key, stream, counter, i + 1)
        items[i], items[j] = items[j], items[i]
    return counter


class KeyedRng(Rng):
    """A bot's generator on a keyed stream of the game's secret: a bot's
    choices are as unpredictable as the dice."""

    __slots__ = ("key", "stream")

    def __init__(self, key: bytes, stream: bytes) -> None:
        super().__init__(0)
        self.x = 0
        self.key = key
        self.stream = stream

    def below(self, n: int) -> int:
        self.x, r = keyed_below(self.key, self.stream, self.x, n)
        return r

    def random(self) -> float:
        r = keyed_u64(self.key, self.stream, self.x)
        self.x += 1
        return (r >> 11) / 9007199254740992.0


def draw_below(s: State, n: int) -> int:
    """A number below ``n`` from the game's own generator, whichever it is."""
    if s.generator == GEN_KEYED:
        s.rng, r = keyed_below(secret_key(s.secret), GAME_STREAM, s.rng, n)
        return r
    s.rng, r = next_below(s.rng, n)
    return r


def shuffle_state(s: State, items: list[int]) -> None:
    """Shuffle ``items`` in place with the game's own generator."""
    if s.generator == GEN_KEYED:
        s.rng = keyed_shuffle(secret_key(s.secret), GAME_STREAM, s.rng, items)
    else:
        s.rng = shuffle(s.rng, items)


def bot_rng(s: State, salt: int) -> Rng:
    """The generator of a bot's move number ``salt`` (the site passes the
    game's version). Keyed games give each move a keyed stream of its own;
    splitmix64 games keep the old ``seed ^ salt`` seeding."""
    if s.generator == GEN_KEYED:
        return KeyedRng(secret_key(s.secret), b"bot:%d" % salt)
    return Rng(s.seed ^ salt)

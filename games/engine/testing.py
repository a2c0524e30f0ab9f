"""Helpers to script a game for tests: fixed dice and stacked decks."""

from __future__ import annotations

from .cards import DECKS
from .state import State


def force_dice(s: State, *throws: tuple[int, int]) -> None:
    """Make the next throws come out as given, e.g. ``force_dice(s, (3, 4))``."""
    for d1, d2 in throws:
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise ValueError(f"impossible dice {(d1, d2)}")
        s.forced_dice += [d1, d2]


def stack_deck(s: State, deck: int, *top: int) -> None:
    """Put the cards with these indices (see cards.py) on top of ``deck``."""
    rest = [c for c in s.decks[deck] if c not in top]
    missing = [c for c in top if c not in s.decks[deck]]
    if missing:
        raise ValueError(f"cards {missing} are not in the deck")
    s.decks[deck] = list(top) + rest


def card_index(s: State, deck: int, effect: str, arg: int | None = None) -> int:
    """Index of the first card with this effect (and first argument)."""
    for i, c in enumerate(DECKS[s.rules.decks][deck]):
        if c[0] == effect and (arg is None or c[1] == arg):
            return i
    raise ValueError(f"no {effect} card in deck {deck}")

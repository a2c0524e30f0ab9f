"""Shared helpers for scripted engine scenarios (no database)."""

from __future__ import annotations

from typing import Any

from games.engine import (
    DECKS,
    GROUP_MEMBERS,
    Action,
    Event,
    State,
    apply,
    card_index,
    check_invariants,
    force_dice,
    new_game,
    ruleset,
    setup,
    stack_deck,
)
from games.engine import actions as A  # the kinds, as the engine's own modules name them

__all__ = [
    "A",
    "act",
    "card",
    "deal",
    "force_dice",
    "game",
    "kinds",
    "setup",
    "stack_deck",
    "use_up_houses",
]


def game(preset: str = "us-2003", players: int = 2, **switches: Any) -> State:
    """A fresh game where seat 0 moves first, every player on GO."""
    s = new_game(ruleset(preset, **switches), [f"P{i}" for i in range(players)], seed=7)
    return setup(s, turn=0)


def act(s: State, kind: str, player: int | None = None, **kw: Any) -> tuple[State, list[Event]]:
    """Apply one action (by default for the turn player) and check invariants."""
    p = s.turn if player is None else player
    new, events = apply(s, Action(kind, p, **kw))
    errors = check_invariants(new)
    assert not errors, errors
    return new, events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def find(events: list[Event], kind: str) -> Event:
    for e in events:
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind} event in {kinds(events)}")


def deal(s: State, player: int, *squares: int) -> State:
    """``s`` with properties handed to ``player`` without payment (scenario setup)."""
    return setup(s, owners=dict.fromkeys(squares, player))


def use_up_houses(s: State, owner: int, count: int) -> State:
    """``count`` houses, evenly, on groups ``owner`` is given (dark green first)."""
    owners: dict[int, int] = {}
    levels: dict[int, int] = {}
    for g in (6, 4, 5, 3, 2):
        members = GROUP_MEMBERS[g]
        for sq in members:
            owners[sq], levels[sq] = owner, 0
        for _ in range(4):
            for sq in members:
                if count:
                    levels[sq] += 1
                    count -= 1
        if not count:
            break
    return setup(s, owners=owners, buildings=levels)


def card(s: State, deck: int, effect: str, arg: int | None = None) -> int:
    return card_index(s, deck, effect, arg)


def top_card(s: State, deck: int, effect: str, arg: int | None = None) -> None:
    stack_deck(s, deck, card(s, deck, effect, arg))


def deck_size(s: State, deck: int) -> int:
    return len(DECKS[s.rules.decks][deck])

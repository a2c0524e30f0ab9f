"""Words for the engine's numbers, shared by the pages, the decision
registry and the notices: money, squares, the auctioned items."""

from __future__ import annotations

from games import engine

AUCTION_ITEMS = ("property", "house", "hotel")


def money(rules: engine.Ruleset, amount: int) -> str:
    sign = "-" if amount < 0 else ""
    return f"{sign}{rules.currency}{abs(amount):,}"


def fine_or_chance_amount(rules: engine.Ruleset) -> int:
    """The fine of the UK "pay a fine or take a Chance" card."""
    return next((c[1] for c in engine.DECKS[rules.decks][1] if c[0] == engine.FINE_OR_CHANCE), 10)


def square_name(rules: engine.Ruleset, sq: int) -> str:
    return engine.square_name(sq, rules.uk)

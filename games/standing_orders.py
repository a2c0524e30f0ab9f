"""Standing orders: a player's intent stated in advance, as a pure function.

The orders are stored per seat (``clean`` says what they may hold); each
decision kind's entry in ``games.decisions`` says which order answers it,
and ``decisions.standing_action`` gives the action the orders give now.
The services apply it through the same write path as a click and log it
"(standing order)".
"""

from __future__ import annotations

from typing import Any

from games import engine

AUCTION_CHOICES = ("", "pass", "printed", "upto")
JAIL_CHOICES = ("", "card", "pay", "roll")
# What a seat that never set its orders (``{}``) has. Rent is claimed for
# it: in a days-long game nobody should have to come back before the next
# throw for every landing, or lose the rent (a player may turn it off).
DEFAULTS: dict[str, Any] = {
    "claim_rent": True,
    "buy_min_cash_left": None,
    "auction": "",
    "auction_max": 0,
    "jail": "",
    "auto_roll": False,
}

# A game whose turns last an hour or more runs for days: its lobby offers
# the orders that remove most of the waiting, each with its one line.
SUGGEST_FROM_SECONDS = 3600
SUGGESTED: dict[str, Any] = {"auto_roll": True, "claim_rent": True, "auction": "printed"}
SUGGESTED_LINES = (
    (
        "Roll automatically",
        "When rolling is your only decision the dice are thrown at once, not when you return.",
    ),
    (
        "Claim rent automatically",
        "Rent owed to you is collected the moment someone lands, so none lapses while you are away.",
    ),
    (
        "Bid up to the printed price",
        "In auctions you bid the least that leads, never above the property's price.",
    ),
)


def suggested_for(turn_seconds: int) -> bool:
    return turn_seconds >= SUGGEST_FROM_SECONDS


def with_suggested(orders: Any) -> dict[str, Any]:
    """The orders with the suggested ones set (the others kept)."""
    return clean({**clean(orders), **SUGGESTED})


def uses_suggested(orders: Any) -> bool:
    o = clean(orders)
    return all(o[k] == v for k, v in SUGGESTED.items())


def clean(orders: Any) -> dict[str, Any]:
    """The stored orders with defaults filled in and junk dropped."""
    out = dict(DEFAULTS)
    if not isinstance(orders, dict):
        return out
    out["claim_rent"] = bool(orders.get("claim_rent", DEFAULTS["claim_rent"]))
    out["auto_roll"] = bool(orders.get("auto_roll"))
    x = orders.get("buy_min_cash_left")
    out["buy_min_cash_left"] = int(x) if isinstance(x, int) and x >= 0 else None
    if orders.get("auction") in AUCTION_CHOICES:
        out["auction"] = orders["auction"]
    x = orders.get("auction_max")
    out["auction_max"] = int(x) if isinstance(x, int) and x >= 0 else 0
    if orders.get("jail") in JAIL_CHOICES:
        out["jail"] = orders["jail"]
    return out


def any_set(orders: dict[str, Any]) -> bool:
    return clean(orders) != DEFAULTS


def auction_action(
    state: engine.State, player: int, o: dict[str, Any], find: Any
) -> engine.Action | None:
    if o["auction"] == "pass":
        passing: engine.Action | None = find(engine.PASS_BID)
        return passing
    au = engine.auction_view(state)
    if au is None:
        return None
    # Only property auctions have a printed price; buildings are bid by hand.
    if o["auction"] == "printed":
        limit = engine.PRICE[au.square] if au.kind == engine.A_PROPERTY else 0
    else:
        limit = o["auction_max"]
    if au.sealed:
        # One hidden bid, at once: the whole cap (within the cash), or a pass.
        amount = min(limit, state.cash[player])
        if amount > 0:
            return engine.Action(engine.BID, player, amount=amount)
        passing = find(engine.PASS_BID)
        return passing
    lowest = au.lowest_bid
    if lowest <= min(limit, state.cash[player]):
        return engine.Action(engine.BID, player, amount=lowest)
    passing = find(engine.PASS_BID)
    return passing


def jail_action(choice: str, find: Any) -> engine.Action | None:
    kinds = {"card": engine.USE_JAIL_CARD, "pay": engine.PAY_JAIL_FINE}
    if choice == "card":
        chosen: engine.Action | None = find(engine.USE_JAIL_CARD, target=0) or find(
            engine.USE_JAIL_CARD, target=1
        )
    else:
        chosen = find(kinds.get(choice, engine.ROLL))
    return chosen


def describe(action: engine.Action) -> str:
    if action.kind == engine.BID:
        return f"bid {action.amount}"
    return action.kind.replace("_", " ")

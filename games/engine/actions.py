"""Actions: small immutable tuples with a stable string ``kind``.

The server posts them from HTML forms and stores them as JSON, so every
action converts to and from a plain dict (``to_dict`` / ``action_from_dict``).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from .errors import CodecError

# Turn actions of the player whose turn it is.
ROLL: Final = "roll"
PAY_JAIL_FINE: Final = "pay_jail_fine"
USE_JAIL_CARD: Final = "use_jail_card"  # target: 0 Chance card, 1 Community Chest card
BUY: Final = "buy"
DECLINE: Final = "decline"
INCOME_TAX_FLAT: Final = "income_tax_flat"
INCOME_TAX_PERCENT: Final = "income_tax_percent"
PAY_TEN: Final = "pay_fine_instead"  # UK: pay the 10 fine instead of a Chance
TAKE_CHANCE: Final = "take_chance"
END_TURN: Final = "end_turn"
# Auctions (property, or scarce buildings).
BID: Final = "bid"  # amount
PASS_BID: Final = "pass_bid"
PLACE_BUILDING: Final = "place_building"  # square: where the auctioned building goes
FORFEIT_BUILDING: Final = "forfeit_building"
# Building shortage: asked whether they want the scarce buildings too.
DECLARE_WISH: Final = "declare_wish"
NO_WISH: Final = "no_wish"
# Property management.
BUILD: Final = "build"  # square
SELL_BUILDING: Final = "sell_building"  # square: one house, or a hotel back to houses
SELL_GROUP_BUILDINGS: Final = "sell_group_buildings"  # target: colour group
MORTGAGE: Final = "mortgage"  # square
UNMORTGAGE: Final = "unmortgage"  # square
# Trades.
PROPOSE_TRADE: Final = "propose_trade"  # target: other seat; terms
ACCEPT_TRADE: Final = "accept_trade"  # target: trade id
REJECT_TRADE: Final = "reject_trade"
WITHDRAW_TRADE: Final = "withdraw_trade"
COUNTER_TRADE: Final = "counter_trade"  # target: trade id; terms (from the counterer's side)
# Rent claims.
CLAIM_RENT: Final = "claim_rent"  # target: claim id
EXPIRE_CLAIM: Final = "expire_claim"  # system (player -1) or the owner waiving it
# Debts.
PAY_DEBT: Final = "pay_debt"
DECLARE_BANKRUPTCY: Final = "declare_bankruptcy"
AUTO_SETTLE: Final = "auto_settle"  # liquidate automatically, then pay or go bankrupt
# Leaving the game: everything goes to the bank, as a bankruptcy to the bank.
RESIGN: Final = "resign"
# Time-limit games.
END_NOW: Final = "end_now"  # system: end the game now and value everyone
# The length cap in days (``Ruleset.cap_days``): the server's clock says the
# days are up; the game ends at once, mid-move or not, by net worth.
END_CAP: Final = "end_cap"  # system

ALL_KINDS: Final[frozenset[str]] = frozenset(
    v for k, v in dict(globals()).items() if k.isupper() and isinstance(v, str)
)

# What each kind reads of an ``Action`` besides its kind and player: the
# engine's own description of a kind's parameters. The site's forms and the
# API's schema take a kind's fields from here.
SQUARE: Final = "square"
AMOUNT: Final = "amount"
TARGET: Final = "target"
TERMS: Final = "terms"
PARAMS: Final[dict[str, tuple[str, ...]]] = {
    ROLL: (),
    PAY_JAIL_FINE: (),
    USE_JAIL_CARD: (TARGET,),
    BUY: (),
    DECLINE: (),
    INCOME_TAX_FLAT: (),
    INCOME_TAX_PERCENT: (),
    PAY_TEN: (),
    TAKE_CHANCE: (),
    END_TURN: (),
    BID: (AMOUNT,),
    PASS_BID: (),
    PLACE_BUILDING: (SQUARE,),
    FORFEIT_BUILDING: (),
    DECLARE_WISH: (),
    NO_WISH: (),
    BUILD: (SQUARE,),
    SELL_BUILDING: (SQUARE,),
    SELL_GROUP_BUILDINGS: (TARGET,),
    MORTGAGE: (SQUARE,),
    UNMORTGAGE: (SQUARE,),
    PROPOSE_TRADE: (TARGET, TERMS),
    ACCEPT_TRADE: (TARGET,),
    REJECT_TRADE: (TARGET,),
    WITHDRAW_TRADE: (TARGET,),
    COUNTER_TRADE: (TARGET, TERMS),
    CLAIM_RENT: (TARGET,),
    EXPIRE_CLAIM: (TARGET,),
    PAY_DEBT: (),
    DECLARE_BANKRUPTCY: (),
    AUTO_SETTLE: (),
    RESIGN: (),
    END_NOW: (),
    END_CAP: (),
}
assert set(PARAMS) == ALL_KINDS, sorted(ALL_KINDS ^ set(PARAMS))


class Terms(NamedTuple):
    """What the proposer gives and takes. Cards are counts (Chance, Chest)."""

    give_props: tuple[int, ...] = ()
    give_cash: int = 0
    give_cards: tuple[int, int] = (0, 0)
    take_props: tuple[int, ...] = ()
    take_cash: int = 0
    take_cards: tuple[int, int] = (0, 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "give_props": list(self.give_props),
            "give_cash": self.give_cash,
            "give_cards": list(self.give_cards),
            "take_props": list(self.take_props),
            "take_cash": self.take_cash,
            "take_cards": list(self.take_cards),
        }

    def flipped(self) -> Terms:
        return Terms(
            self.take_props,
            self.take_cash,
            self.take_cards,
            self.give_props,
            self.give_cash,
            self.give_cards,
        )


def terms_from_dict(d: Any) -> Terms:
    try:
        return Terms(
            tuple(int(x) for x in d.get("give_props", ())),
            int(d.get("give_cash", 0)),
            _pair(d.get("give_cards", (0, 0))),
            tuple(int(x) for x in d.get("take_props", ())),
            int(d.get("take_cash", 0)),
            _pair(d.get("take_cards", (0, 0))),
        )
    except (AttributeError, TypeError, ValueError) as exc:
        raise CodecError(f"Unreadable trade terms: {exc}") from exc


def _pair(v: Any) -> tuple[int, int]:
    a, b = v
    return (int(a), int(b))


class Action(NamedTuple):
    kind: str
    player: int
    square: int = -1
    amount: int = 0
    target: int = -1
    terms: Terms | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.square != -1:
            d["square"] = self.square
        if self.amount:
            d["amount"] = self.amount
        if self.target != -1:
            d["target"] = self.target
        if self.terms is not None:
            d["terms"] = self.terms.to_dict()
        return d


def action_from_dict(d: Any) -> Action:
    if not isinstance(d, dict) or d.get("kind") not in ALL_KINDS:
        raise CodecError(f"Unknown action: {d!r}")
    try:
        terms = d.get("terms")
        return Action(
            d["kind"],
            int(d["player"]),
            int(d.get("square", -1)),
            int(d.get("amount", 0)),
            int(d.get("target", -1)),
            None if terms is None else terms_from_dict(terms),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise CodecError(f"Unreadable action {d!r}: {exc}") from exc

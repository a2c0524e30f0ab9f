"""The read model: named, read-only views of the state's open records.

Inside the engine auctions, claims, offers, debts and building placements
are plain lists read by position, which is what makes the hot path fast.
Code outside the engine reads them through these views instead, so it never
depends on a list layout. Every view is a snapshot: it does not follow later
changes to the state, and changing it is impossible.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import BID, PASS_BID, Action, Terms
from .rules import AUCTION_SEALED
from .state import WISH_WAITING, WISH_YES, State


class AuctionView(NamedTuple):
    """The open auction. ``kind`` is ``A_PROPERTY``, ``A_HOUSE`` or ``A_HOTEL``."""

    kind: int
    square: int  # the property on sale; -1 for a building
    high_bid: int  # 0 before the first bid
    high_bidder: int  # -1 before the first bid
    opener: int  # who declined the property or asked to build; -1 for the bank
    still_in: tuple[int, ...]  # seats that have not passed, high bidder included
    # Sealed bids: one hidden bid each. ``high_bid`` stays 0 and
    # ``high_bidder`` -1 until the close; ``still_in`` is who has still to bid.
    sealed: bool = False

    @property
    def bidders(self) -> tuple[int, ...]:
        """Seats the auction waits for: still in, but not the high bidder."""
        return tuple(p for p in self.still_in if p != self.high_bidder)

    @property
    def lowest_bid(self) -> int:
        """The least bid that is not a pass (a sealed bid may also be 0)."""
        return self.high_bid + 1


class Claim(NamedTuple):
    """Rent ``owner`` may claim from ``payer`` for landing on ``square``."""

    id: int
    owner: int
    payer: int
    square: int
    amount: int
    turn_no: int  # when the payer landed: the claim expires counting from here
    roll_no: int


class Offer(NamedTuple):
    """An open trade offer; ``terms`` are seen from the proposer."""

    id: int
    proposer: int
    recipient: int
    terms: Terms


class Placement(NamedTuple):
    """A building won at auction that ``player`` must place (or forfeit)."""

    player: int
    kind: int  # A_HOUSE or A_HOTEL
    price: int  # the winning bid, refunded on forfeit


class Shortage(NamedTuple):
    """A building shortage window: ``requester`` asked to build on ``square``
    while the bank is short of ``kind`` (``A_HOUSE`` or ``A_HOTEL``); the
    others who could buy one say whether they want one too."""

    requester: int
    square: int
    kind: int
    waiting: tuple[int, ...]  # seats still to answer
    wishing: tuple[int, ...]  # seats that asked for one too


class Debt(NamedTuple):
    """Money ``debtor`` owes and could not pay; ``creditor`` may be ``BANK``."""

    debtor: int
    creditor: int
    amount: int


def auction_view(s: State) -> AuctionView | None:
    """The open auction, or None."""
    a = s.auction
    if a is None:
        return None
    still_in = tuple(p for p in range(s.n) if a[5 + p])
    sealed = s.rules.auction_kind == AUCTION_SEALED
    return AuctionView(a[0], a[1], a[2], a[3], a[4], still_in, sealed)


def sealed_bid(s: State, player: int) -> int | None:
    """``player``'s own hidden bid in the open sealed-bid auction (0 for a
    pass), or None if they have not bid. Show it to that player only."""
    for seat, amount in s.bids:
        if seat == player:
            return amount
    return None


def is_sealed_bid(s: State, action: Action) -> bool:
    """Whether ``action``, taken in ``s``, is a hidden bid: its amount (and
    whether it is a pass) is for its bidder's eyes only until the close."""
    return (
        s.auction is not None
        and s.rules.auction_kind == AUCTION_SEALED
        and action.kind in (BID, PASS_BID)
    )


def claims(s: State) -> list[Claim]:
    """Open rent claims, oldest first."""
    return [Claim(c[0], c[1], c[2], c[3], c[4], c[5], c[6]) for c in s.claims]


def offers(s: State) -> list[Offer]:
    """Open trade offers, oldest first."""
    return [Offer(t[0], t[1], t[2], t[3]) for t in s.trades]


def placement(s: State) -> Placement | None:
    """The building won at auction that awaits placing, or None."""
    pl = s.placement
    return None if pl is None else Placement(pl[0], pl[1], pl[2])


def shortage(s: State) -> Shortage | None:
    """The open building shortage window, or None."""
    w = s.wish
    if w is None:
        return None
    waiting = tuple(q for q in range(s.n) if w[3 + q] == WISH_WAITING)
    wishing = tuple(q for q in range(s.n) if w[3 + q] == WISH_YES)
    return Shortage(w[0], w[1], w[2], waiting, wishing)


def debts(s: State) -> list[Debt]:
    """Open debts, in the order they must be settled."""
    return [Debt(d[0], d[1], d[2]) for d in s.debts]

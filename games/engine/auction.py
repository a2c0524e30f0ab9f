"""Open ascending auctions: declined property, bankrupt estates, scarce buildings.

Every solvent player still in may bid more than the current high bid and no
more than their cash, or pass (and is then out). The highest bid wins when
every other bidder has passed; if nobody bids, the item stays with the bank.

Sealed-bid auctions (``Ruleset.auction_kind == "sealed"``): every eligible
player makes one hidden bid (0 is a pass) and the auction closes as soon as
all have bid. The highest bid wins at its own price, ties go to the earlier
bid; the bids are revealed at the close. While it is open the auction's high
bid stays 0 and its high bidder -1, and ``in_p`` is 1 while seat p has still
to bid; the bids themselves are in ``State.bids``.
"""

from __future__ import annotations

from typing import Final

from . import actions as A
from .core import charge, in_debt, settle_phase
from .errors import NotEnoughCash, RuleViolation, WrongPhase
from .events import EventLog
from .kinds import Check, Do
from .rules import AUCTION_SEALED
from .state import A_PROPERTY, BANK, State


def is_sealed(s: State) -> bool:
    return s.rules.auction_kind == AUCTION_SEALED


def start(
    s: State,
    kind: int,
    sq: int,
    opener: int,
    ev: EventLog,
    eligible: list[int] | None = None,
) -> None:
    flags = []
    for q in range(s.n):
        ok = s.alive[q] and not in_debt(s, q) and s.cash[q] > 0
        if eligible is not None:
            ok = ok and q in eligible
        flags.append(1 if ok else 0)
    s.auction = [kind, sq, 0, -1, opener, *flags]
    s.bids = []
    ev.append(("auction_start", opener, (kind, sq)))
    _maybe_close(s, ev)


def start_queued(s: State, ev: EventLog) -> None:
    """Auction the next property the bank took from a bankrupt, if any."""
    while s.auction is None and s.auction_queue:
        sq = s.auction_queue.pop(0)
        start(s, A_PROPERTY, sq, -1, ev)


def bid(s: State, p: int, amount: int, ev: EventLog) -> None:
    a = s.auction
    assert a is not None
    if is_sealed(s):
        _sealed_bid(s, a, p, amount, ev)
        return
    a[2] = amount
    a[3] = p
    ev.append(("bid", p, (amount,)))
    _maybe_close(s, ev)


def _sealed_bid(s: State, a: list[int], p: int, amount: int, ev: EventLog) -> None:
    # The event says who has bid, never how much (nor whether it was a pass).
    a[5 + p] = 0
    s.bids.append([p, amount])
    ev.append(("sealed_bid", p, ()))
    _maybe_close(s, ev)


def pass_bid(s: State, p: int, ev: EventLog) -> None:
    a = s.auction
    assert a is not None
    if is_sealed(s):
        _sealed_bid(s, a, p, 0, ev)
        return
    a[5 + p] = 0
    ev.append(("pass_bid", p, ()))
    _maybe_close(s, ev)


def drop_bidder(s: State, p: int, ev: EventLog) -> None:
    """A bidder went bankrupt: take them out (and their bid, if highest)."""
    a = s.auction
    if a is None:
        return
    a[5 + p] = 0
    if a[3] == p:
        a[2] = 0
        a[3] = -1
    s.bids = [b for b in s.bids if b[0] != p]
    _maybe_close(s, ev)


def bidders(a: list[int]) -> list[int]:
    """Seats still in the auction who are not the current high bidder."""
    high = a[3]
    return [i - 5 for i in range(5, len(a)) if a[i] and i - 5 != high]


def _maybe_close(s: State, ev: EventLog) -> None:
    a = s.auction
    assert a is not None
    # bidders(a) without building the list: anyone still in but the high bidder?
    high = a[3]
    for i in range(5, len(a)):
        if a[i] and i - 5 != high:
            return
    kind, sq, high, winner = a[0], a[1], a[2], a[3]
    if is_sealed(s):
        # Revealed in the order they came; the first of the highest wins.
        for seat, amount in s.bids:
            ev.append(("sealed_reveal", seat, (amount,)))
            if amount > high:
                high, winner = amount, seat
        s.bids = []
    s.auction = None
    if winner < 0:
        ev.append(("auction_unsold", -1, (kind, sq)))
    else:
        ev.append(("auction_won", winner, (kind, sq, high)))
        charge(s, winner, BANK, high, ev)
        if kind == A_PROPERTY:
            s.owner[sq] = winner
        else:
            s.placement = [winner, kind, high]
    start_queued(s, ev)
    settle_phase(s)


# --- the actions of this module: check, apply (their events are appended here) ---


def _c_bid(s: State, a: A.Action) -> None:
    au = s.auction
    p = a.player
    if au is not None and is_sealed(s):
        _c_sealed_bid(s, a, au)
        return
    if au is None or not au[5 + p]:
        raise WrongPhase("You are not bidding in an auction.")
    if au[3] == p:
        raise RuleViolation("You already hold the highest bid.")
    if a.kind == A.BID:
        if in_debt(s, p):
            raise RuleViolation("Settle your debt before bidding.")
        if a.amount <= au[2] or a.amount < 1:
            raise RuleViolation(f"A bid must be more than the current {au[2]}.")
        if a.amount > s.cash[p]:
            raise NotEnoughCash("A bid may not exceed your cash.")


def _c_sealed_bid(s: State, a: A.Action, au: list[int]) -> None:
    p = a.player
    if not au[5 + p]:
        if any(b[0] == p for b in s.bids):
            raise RuleViolation("You have already handed in your sealed bid.")
        raise WrongPhase("You are not bidding in this auction.")
    if a.kind == A.BID:
        if a.amount < 0:
            raise RuleViolation("A bid cannot be negative.")
        if a.amount > 0 and in_debt(s, p):
            raise RuleViolation("Settle your debt before bidding.")
        if a.amount > s.cash[p]:
            raise NotEnoughCash(f"A bid may not exceed your cash ({s.rules.currency}{s.cash[p]}).")


def _d_bid(s: State, a: A.Action, ev: EventLog) -> None:
    if a.kind == A.BID:
        bid(s, a.player, a.amount, ev)
    else:
        pass_bid(s, a.player, ev)


PAIRS: Final[dict[str, tuple[Check, Do]]] = {
    A.BID: (_c_bid, _d_bid),
    A.PASS_BID: (_c_bid, _d_bid),
}

"""Debts, raising funds, property changing hands, and bankruptcy."""

from __future__ import annotations

from typing import Final

from . import actions as A
from . import auction, buildings
from .board import (
    GROUP,
    GROUP_MEMBERS,
    HOTEL,
    HOUSE_COST,
    MORTGAGE,
    PRICE,
    PROPERTIES,
    SITES,
    ten_percent,
)
from .cards import DECKS, JAIL_FREE
from .core import advance_turn, charge, finish, in_debt, owed, transfer
from .errors import NotEnoughCash, RuleViolation, WrongPhase
from .events import EventLog
from .kinds import Check, Do
from .rules import END_FIRST_BANKRUPTCY, END_SECOND_BANKRUPTCY
from .state import BANK, P_OVER, POT, State


def pay_debts(s: State, p: int, ev: EventLog) -> None:
    total = 0
    keep = []
    for d in s.debts:
        if d[0] == p:
            transfer(s, p, d[1], d[2])
            total += d[2]
        else:
            keep.append(d)
    s.debts = keep
    ev.append(("debt_paid", p, (total,)))
    auction.start_queued(s, ev)


def give_property(s: State, sq: int, to: int, frm: int, ev: EventLog) -> None:
    """Change hands; a mortgaged property costs the new owner 10% at once."""
    s.owner[sq] = to
    ev.append(("transfer", frm, (to, sq)))
    if s.mortgaged[sq]:
        interest = ten_percent(MORTGAGE[sq])
        ev.append(("interest", to, (sq, interest)))
        charge(s, to, BANK, interest, ev)
        if sq not in s.fresh:
            s.fresh.append(sq)


def liquidate(s: State, p: int, target: int, ev: EventLog) -> None:
    """Raise cash towards ``target``: mortgage first, then sell buildings."""
    if s.cash[p] >= target or _mortgage_towards(s, p, target, ev):
        return
    # p's built sites in square order: selling only removes buildings, so
    # the most built site is searched among these alone.
    own = s.owner
    bld = s.bld
    built = [sq for sq in SITES if bld[sq] and own[sq] == p]
    while s.cash[p] < target:
        sq = _most_built(s, built)
        if sq < 0:
            break
        if not buildings.sell_error(s, p, sq):
            buildings.sell(s, p, sq, ev)
        else:  # a hotel the bank cannot break down: the group goes at once
            buildings.sell_group(s, p, GROUP[sq], ev)
    if s.cash[p] < target:
        _mortgage_towards(s, p, target, ev)


#: Properties cheapest first (ties in square order): the order of mortgaging.
_BY_PRICE: Final[tuple[int, ...]] = tuple(sorted(PROPERTIES, key=lambda sq: (PRICE[sq], sq)))


def _mortgage_towards(s: State, p: int, target: int, ev: EventLog) -> bool:
    """Mortgage what ``p`` may, cheap things first and complete groups last,
    until the cash reaches ``target``; True if it did. Mortgaging one
    property changes no other's eligibility, so the order is decided as it
    goes (it is the order of sorting by (whole group, price, square))."""
    own = s.owner
    mortgaged = s.mortgaged
    bld = s.bld
    cash = s.cash
    wholes: list[int] = []
    for sq in _BY_PRICE:
        if own[sq] != p or mortgaged[sq]:
            continue
        g = GROUP[sq]
        if g < 8:
            members = GROUP_MEMBERS[g]
            if bld[members[0]] or bld[members[1]] or bld[members[-1]]:
                continue  # buildings on the group
            if own[members[0]] == p and own[members[1]] == p and own[members[-1]] == p:
                wholes.append(sq)
                continue
        if cash[p] >= target:
            return True
        buildings.mortgage(s, p, sq, ev)
    for sq in wholes:
        if cash[p] >= target:
            return True
        buildings.mortgage(s, p, sq, ev)
    return cash[p] >= target


def _most_built(s: State, sites: list[int]) -> int:
    """The site of ``sites`` (a player's, in square order) with the most
    buildings (the first such), or -1 if none has any."""
    bld = s.bld
    hotel_level = s.rules.houses_per_hotel + 1
    best = -1
    best_level = 0
    for sq in sites:
        b = bld[sq]
        if b:
            lv = hotel_level if b == HOTEL else b
            if lv > best_level:
                best = sq
                best_level = lv
    return best


def auto_settle(s: State, p: int, ev: EventLog) -> None:
    """Timeout default for a debtor: liquidate, then pay or go bankrupt."""
    target = owed(s, p)
    liquidate(s, p, target, ev)
    if s.cash[p] >= target:
        pay_debts(s, p, ev)
    else:
        bankrupt(s, p, ev)


def _sell_all_buildings(s: State, p: int) -> None:
    """Return every building of ``p`` to the bank for half its cost."""
    hph = s.rules.houses_per_hotel
    for sq in PROPERTIES:
        b = s.bld[sq]
        if b and s.owner[sq] == p:
            if b == HOTEL:
                s.bank_hotels += 1
                refund = HOUSE_COST[sq] * (hph + 1) // 2
            else:
                s.bank_houses += b
                refund = HOUSE_COST[sq] * b // 2
            s.bld[sq] = 0
            transfer(s, BANK, p, refund)


def bankrupt(s: State, p: int, ev: EventLog) -> None:
    """``p`` cannot pay: everything goes to the creditor, or to the bank."""
    my_debts = [d for d in s.debts if d[0] == p]
    s.debts = [d for d in s.debts if d[0] != p]
    creditors = {d[1] for d in my_debts}
    single = next(iter(creditors)) if len(creditors) == 1 else BANK
    to_player = single >= 0 and s.alive[single]
    creditor = single if to_player else BANK
    ev.append(("bankrupt", p, (creditor,)))
    s.bankrupt_order.append(p)
    cond = s.rules.end_condition
    game_ends = (cond == END_FIRST_BANKRUPTCY) or (
        cond == END_SECOND_BANKRUPTCY and len(s.bankrupt_order) >= 2
    )
    # The older short game ends with buildings passing intact to the creditor.
    keep_buildings = game_ends and cond == END_SECOND_BANKRUPTCY and to_player
    if not keep_buildings:
        _sell_all_buildings(s, p)
    my_props = [sq for sq in PROPERTIES if s.owner[sq] == p]
    if to_player:
        transfer(s, p, creditor, s.cash[p])
        for sq in my_props:
            give_property(s, sq, creditor, p, ev)
        for deck in (0, 1):
            s.jail_cards[creditor][deck] += s.jail_cards[p][deck]
    else:
        # Player creditors are paid in order as far as the cash goes.
        for d in my_debts:
            if d[1] == BANK:
                continue
            pay = min(d[2], s.cash[p])
            if pay > 0 and (d[1] == POT or s.alive[d[1]]):
                transfer(s, p, d[1], pay)
        transfer(s, p, BANK, s.cash[p])
        for sq in my_props:
            s.owner[sq] = -1
            s.mortgaged[sq] = False
            if sq in s.fresh:
                s.fresh.remove(sq)
            s.bld[sq] = 0
        for deck in (0, 1):
            for _ in range(s.jail_cards[p][deck]):
                s.decks[deck].append(jail_card_index(s, deck))
        if s.rules.bankrupt_to_bank_auction and not game_ends:
            s.auction_queue.extend(my_props)
    s.jail_cards[p] = [0, 0]
    s.alive[p] = False
    s.in_jail[p] = False
    _forget_player(s, p, ev)
    if game_ends:
        finish(s, cond, ev)
        return
    if sum(s.alive) <= 1:
        finish(s, "last_player", ev)
        return
    if s.turn == p:
        advance_turn(s, ev)
        if s.phase != P_OVER:
            ev.append(("turn_start", s.turn, (s.turn_no,)))
    auction.start_queued(s, ev)


def jail_card_index(s: State, deck: int) -> int:
    cards = DECKS[s.rules.decks][deck]
    for i, c in enumerate(cards):
        if c[0] == JAIL_FREE and i not in s.decks[deck]:
            return i
    raise AssertionError("no Get Out of Jail Free card is missing from the deck")


def _forget_player(s: State, p: int, ev: EventLog) -> None:
    s.claims = [c for c in s.claims if c[1] != p and c[2] != p]
    for d in s.debts:
        if d[1] == p:
            d[1] = BANK
    keep = []
    for t in s.trades:
        if t[1] == p or t[2] == p:
            ev.append(("trade_cancelled", -1, (t[0],)))
        else:
            keep.append(t)
    s.trades = keep
    if s.placement is not None and s.placement[0] == p:
        s.placement = None
    if s.auction is not None:
        auction.drop_bidder(s, p, ev)
    buildings.drop_wisher(s, p, ev)


__all__ = ["GROUP_MEMBERS", "auto_settle", "bankrupt", "give_property", "liquidate", "pay_debts"]


# --- the actions of this module: check, apply (their events are appended here) ---


def _c_debt(s: State, a: A.Action) -> None:
    p = a.player
    if not in_debt(s, p):
        raise WrongPhase("You have no debt to settle.")
    if a.kind == A.PAY_DEBT and s.cash[p] < owed(s, p):
        raise NotEnoughCash("You do not have enough cash yet: raise funds or declare bankruptcy.")
    if a.kind == A.DECLARE_BANKRUPTCY and s.cash[p] >= owed(s, p):
        raise RuleViolation("You can pay what you owe, so you cannot declare bankruptcy.")


def _d_debt(s: State, a: A.Action, ev: EventLog) -> None:
    if a.kind == A.PAY_DEBT:
        pay_debts(s, a.player, ev)
    elif a.kind == A.DECLARE_BANKRUPTCY:
        bankrupt(s, a.player, ev)
    else:
        auto_settle(s, a.player, ev)


PAIRS: Final[dict[str, tuple[Check, Do]]] = {
    A.PAY_DEBT: (_c_debt, _d_debt),
    A.DECLARE_BANKRUPTCY: (_c_debt, _d_debt),
    A.AUTO_SETTLE: (_c_debt, _d_debt),
}

"""Dice, movement, landing and the cards."""

from __future__ import annotations

from typing import Final

from . import cards as C
from .board import (
    CHANCE,
    CHEST,
    FREE_PARKING,
    GO_TO_JAIL,
    HOTEL,
    INCOME_TAX,
    JAIL_SQUARE,
    KIND,
    LUXURY_TAX,
    NEAREST_RAILROAD,
    NEAREST_UTILITY,
    PROPERTIES,
    SITE,
    UTILITY,
)
from .core import charge, collect, expire_claims, fee_creditor, rent_due
from .events import EventLog
from .rng import GEN_KEYED, draw_below, next_below
from .state import BANK, P_BUY, P_CHOICE, P_END, P_TAX, State

#: The dice of each outcome 0..35 of the generator (``r // 6 + 1, r % 6 + 1``).
_PAIRS: Final[tuple[tuple[int, int], ...]] = tuple((r // 6 + 1, r % 6 + 1) for r in range(36))


def throw(s: State) -> tuple[int, int]:
    """Two dice: scripted ones first (tests), else the state's generator."""
    if s.forced_dice:
        fd = s.forced_dice
        return fd.pop(0), fd.pop(0)
    r = draw_below(s, 36)
    return r // 6 + 1, r % 6 + 1


def roll(s: State, p: int, ev: EventLog) -> None:
    """The turn player throws the dice (in or out of jail) and moves."""
    if s.forced_dice or s.generator == GEN_KEYED:
        pair = d1, d2 = throw(s)
    else:
        # throw(s), inlined: this runs on every turn.
        s.rng, r = next_below(s.rng, 36)
        # A shared (d1, d2) pair per outcome also serves as the event's args.
        pair = _PAIRS[r]
        d1, d2 = pair
    s.roll_no += 1
    if s.claims:
        expire_claims(s, ev, on_throw=True)
    if s.fresh:
        s.fresh = []
    ev.append(("dice", p, pair))
    s.dice[0] = d1
    s.dice[1] = d2
    s.phase = P_END
    rules = s.rules
    if s.in_jail[p]:
        if d1 == d2:
            s.in_jail[p] = False
            s.jail_turns[p] = 0
            ev.append(("jail_out", p, ()))
            s.again = rules.jail_doubles_extra_throw
            s.doubles = 1 if s.again else 0
        else:
            s.jail_turns[p] += 1
            if s.jail_turns[p] < rules.jail_attempts:
                ev.append(("jail_stay", p, (s.jail_turns[p],)))
                s.again = False
                return
            ev.append(("jail_fine", p, (rules.jail_fine,)))
            charge(s, p, fee_creditor(s), rules.jail_fine, ev)
            s.in_jail[p] = False
            s.jail_turns[p] = 0
            s.again = False
    elif d1 == d2:
        s.doubles += 1
        if s.doubles >= 3 and rules.third_doubles_to_jail:
            ev.append(("speeding", p, ()))
            send_to_jail(s, p, ev)
            return
        s.again = True
    else:
        s.again = False
    # move(s, p, d1 + d2, ev), inlined.
    old = s.pos[p]
    new = old + d1 + d2
    if new >= 40:
        new -= 40
        salary = rules.go_salary
        s.cash[p] += salary  # collect(s, p, salary)
        s.bank_out += salary
        ev.append(("salary", p, (salary,)))
    s.pos[p] = new
    ev.append(("move", p, (old, new)))
    land(s, p, new, ev)


def send_to_jail(s: State, p: int, ev: EventLog) -> None:
    s.pos[p] = JAIL_SQUARE
    s.in_jail[p] = True
    s.jail_turns[p] = 0
    s.again = False
    s.phase = P_END
    ev.append(("jail", p, ()))


def move(s: State, p: int, steps: int, ev: EventLog) -> None:
    """Move forward, collecting the salary on passing or landing on GO."""
    old = s.pos[p]
    new = old + steps
    if new >= 40:
        new -= 40
        collect(s, p, s.rules.go_salary)
        ev.append(("salary", p, (s.rules.go_salary,)))
    s.pos[p] = new
    ev.append(("move", p, (old, new)))
    land(s, p, new, ev)


def _jump_back(s: State, p: int, new: int, ev: EventLog) -> None:
    ev.append(("move", p, (s.pos[p], new)))
    s.pos[p] = new
    land(s, p, new, ev)


def land(s: State, p: int, sq: int, ev: EventLog) -> None:
    k = KIND[sq]
    card_rent = s.card_rent
    s.card_rent = 0
    if SITE <= k <= UTILITY:
        o = s.owner[sq]
        if o < 0:
            s.phase = P_BUY
            s.pending_sq = sq
            return
        if o == p or s.mortgaged[sq]:
            return
        if s.in_jail[o] and s.rules.no_rent_in_jail:
            ev.append(("no_rent", p, (o, sq)))
            return
        if card_rent == 2:
            d1, d2 = throw(s)
            ev.append(("dice", p, (d1, d2)))
            total = d1 + d2
        else:
            total = s.dice[0] + s.dice[1]
        amount = rent_due(s, sq, o, total, card_rent)
        if s.rules.rent_collection == "claim":
            cid = s.next_id
            s.next_id += 1
            s.claims.append([cid, o, p, sq, amount, s.turn_no, s.roll_no])
            ev.append(("claim_open", p, (o, sq, amount, cid)))
        else:
            ev.append(("rent", p, (o, sq, amount)))
            charge(s, p, o, amount, ev)
    elif k == CHANCE:
        draw(s, p, C.CHANCE_DECK, ev)
    elif k == CHEST:
        draw(s, p, C.CHEST_DECK, ev)
    elif k == INCOME_TAX:
        if s.rules.income_tax_choice:
            s.phase = P_TAX
        else:
            pay_tax(s, p, sq, s.rules.income_tax, ev)
    elif k == LUXURY_TAX:
        pay_tax(s, p, sq, s.rules.luxury_tax, ev)
    elif k == GO_TO_JAIL:
        send_to_jail(s, p, ev)
    elif k == FREE_PARKING and s.pot:
        amount = s.pot
        s.pot = 0
        s.cash[p] += amount
        ev.append(("free_parking", p, (amount,)))


def pay_tax(s: State, p: int, sq: int, amount: int, ev: EventLog) -> None:
    ev.append(("tax", p, (sq, amount)))
    charge(s, p, fee_creditor(s), amount, ev)


def draw(s: State, p: int, deck: int, ev: EventLog) -> None:
    d = s.decks[deck]
    ci = d.pop(0)
    card = C.DECKS[s.rules.decks][deck][ci]
    ev.append(("card", p, (deck, ci)))
    effect = card[0]
    if effect == C.JAIL_FREE:
        s.jail_cards[p][deck] += 1
        return
    d.append(ci)
    pos = s.pos[p]
    if effect == C.MONEY:
        amount = card[1]
        if amount > 0:
            collect(s, p, amount)
            ev.append(("collect", p, (amount,)))
        else:
            ev.append(("pay", p, (fee_creditor(s), -amount)))
            charge(s, p, fee_creditor(s), -amount, ev)
    elif effect == C.ADVANCE:
        move(s, p, (card[1] - pos) % 40 or 40, ev)
    elif effect == C.NEAREST_RAILROAD:
        s.card_rent = 1
        move(s, p, (NEAREST_RAILROAD[pos] - pos) % 40, ev)
    elif effect == C.NEAREST_UTILITY:
        s.card_rent = 2
        move(s, p, (NEAREST_UTILITY[pos] - pos) % 40, ev)
    elif effect == C.JAIL:
        send_to_jail(s, p, ev)
    elif effect == C.BACK:
        _jump_back(s, p, (pos - card[1]) % 40, ev)
    elif effect == C.BACK_TO:
        _jump_back(s, p, card[1], ev)
    elif effect == C.REPAIRS:
        houses = hotels = 0
        for sq in PROPERTIES:
            b = s.bld[sq]
            if b and s.owner[sq] == p:
                if b == HOTEL:
                    hotels += 1
                else:
                    houses += b
        amount = houses * card[1] + hotels * card[2]
        if amount:
            ev.append(("pay", p, (fee_creditor(s), amount)))
            charge(s, p, fee_creditor(s), amount, ev)
    elif effect == C.PAY_EACH:
        for q in range(s.n):
            if q != p and s.alive[q]:
                ev.append(("pay", p, (q, card[1])))
                charge(s, p, q, card[1], ev)
    elif effect == C.COLLECT_EACH:
        for q in range(s.n):
            if q != p and s.alive[q]:
                ev.append(("pay", q, (p, card[1])))
                charge(s, q, p, card[1], ev)
    elif effect == C.FINE_OR_CHANCE:
        s.phase = P_CHOICE


__all__ = ["BANK", "draw", "land", "move", "roll", "send_to_jail", "throw"]

"""Low-level rule helpers shared by the other modules: rent, payments,
debts, worth, turn advance and the end of the game.

Functions here mutate a ``State`` in place and append ``Event`` tuples; they
never validate (callers in ``game.py`` validate first).
"""

from __future__ import annotations

from .board import (
    GROUP,
    GROUP_MEMBERS,
    HOTEL,
    HOUSE_COST,
    KIND,
    MORTGAGE,
    PRICE,
    PROPERTIES,
    RAILROAD,
    RAILROAD_RENTS,
    RAILROADS,
    RENT,
    SITE,
    UTILITIES,
    UTILITY_MULTIPLIERS,
)
from .events import EventLog
from .rules import (
    CLAIM_SECOND_FOLLOWING_THROW,
    CLAIM_SECOND_FOLLOWING_TURN,
    END_LENGTH_CAP,
    END_TIME,
    END_TURN_LIMIT,
)
from .state import BANK, P_END, P_OVER, P_ROLL, POT, SYSTEM, State


def rent_due(s: State, sq: int, owner: int, dice_total: int, card_rent: int) -> int:
    """Rent for landing on ``sq`` owned by ``owner`` (not mortgaged)."""
    k = KIND[sq]
    own = s.owner
    if k == SITE:
        b = s.bld[sq]
        if b:
            return RENT[sq][b]
        base = RENT[sq][0]
        members = GROUP_MEMBERS[GROUP[sq]]
        for m in members:
            if own[m] != owner:
                return base
        if not s.rules.double_rent_with_mortgage_in_group:
            for m in members:
                if s.mortgaged[m]:
                    return base
        return base * 2
    if k == RAILROAD:
        count_mortgaged = s.rules.mortgaged_railroads_count
        n = 0
        for r in RAILROADS:
            if own[r] == owner and (count_mortgaged or not s.mortgaged[r]):
                n += 1
        amount = RAILROAD_RENTS[n - 1]
        return amount * 2 if card_rent == 1 else amount
    # Utility.
    if card_rent == 2:
        return 10 * dice_total
    both = own[UTILITIES[0]] == owner and own[UTILITIES[1]] == owner
    return UTILITY_MULTIPLIERS[1 if both else 0] * dice_total


def transfer(s: State, payer: int, creditor: int, amount: int) -> None:
    """Move cash now (caller made sure the payer has it)."""
    if payer >= 0:
        s.cash[payer] -= amount
    else:
        s.bank_out += amount
    if creditor >= 0:
        s.cash[creditor] += amount
    elif creditor == POT:
        s.pot += amount
    else:
        s.bank_in += amount


def collect(s: State, p: int, amount: int) -> None:
    """The bank pays ``amount`` to player ``p``."""
    s.cash[p] += amount
    s.bank_out += amount


def owed(s: State, p: int) -> int:
    total = 0
    for d in s.debts:
        if d[0] == p:
            total += d[2]
    return total


def in_debt(s: State, p: int) -> bool:
    for d in s.debts:  # noqa: SIM110 - faster than any() with a generator
        if d[0] == p:
            return True
    return False


def charge(s: State, payer: int, creditor: int, amount: int, ev: EventLog) -> bool:
    """Make ``payer`` pay ``amount``; if short, record a debt. True if paid."""
    if amount <= 0:
        return True
    cash = s.cash
    if cash[payer] >= amount and (not s.debts or not in_debt(s, payer)):
        # transfer(s, payer, creditor, amount), inlined (payer is a player)
        cash[payer] -= amount
        if creditor >= 0:
            cash[creditor] += amount
        elif creditor == POT:
            s.pot += amount
        else:
            s.bank_in += amount
        return True
    for d in s.debts:
        if d[0] == payer and d[1] == creditor:
            d[2] += amount
            break
    else:
        s.debts.append([payer, creditor, amount])
    ev.append(("debt", payer, (creditor, amount)))
    return False


def fee_creditor(s: State) -> int:
    """Where taxes and fines go: the bank, or the Free Parking jackpot."""
    return POT if s.rules.free_parking_jackpot else BANK


def blocked(s: State) -> bool:
    """True while something must be settled before the turn can go on."""
    return bool(s.debts) or s.auction is not None or s.placement is not None or s.wish is not None


def building_value(s: State, p: int) -> int:
    """Cost price of all buildings of ``p``; a hotel includes its houses."""
    per_hotel = s.rules.houses_per_hotel + 1
    total = 0
    own = s.owner
    bld = s.bld
    for sq in PROPERTIES:
        b = bld[sq]
        if b and own[sq] == p:
            total += HOUSE_COST[sq] * (per_hotel if b == HOTEL else b)
    return total


def total_worth(s: State, p: int) -> int:
    """Income Tax worth: cash, printed prices (mortgaged or not), buildings."""
    props = 0
    for sq in PROPERTIES:
        if s.owner[sq] == p:
            props += PRICE[sq]
    return s.cash[p] + props + building_value(s, p)


def valuation(s: State, p: int) -> int:
    """End-of-game value: mortgaged property counts half its price."""
    props = 0
    for sq in PROPERTIES:
        if s.owner[sq] == p:
            props += PRICE[sq] - MORTGAGE[sq] if s.mortgaged[sq] else PRICE[sq]
    return s.cash[p] + props + building_value(s, p)


def finish(s: State, reason: str, ev: EventLog, *, settle: bool = False) -> None:
    """End the game: each player still in is valued (``valuation``), the
    best wins (a tie goes to the earlier seat), the rest get -1.

    With ``settle`` (a game cut short mid-move: the length cap in days) what
    was left open counts first: the price paid for a building still to be
    placed is refunded, as if forfeited, and each open debt is taken off the
    debtor's value (as far as it goes: never below 0) and added to a
    creditor still in."""
    s.values = [valuation(s, p) if s.alive[p] else -1 for p in range(s.n)]
    if settle:
        pl = s.placement
        if pl is not None:
            transfer(s, BANK, pl[0], pl[2])
            s.values[pl[0]] += pl[2]
        for d in s.debts:
            taken = min(d[2], s.values[d[0]])
            s.values[d[0]] -= taken
            if d[1] >= 0 and s.alive[d[1]]:
                s.values[d[1]] += taken
    best = -1
    for p in range(s.n):
        if s.alive[p] and (best < 0 or s.values[p] > s.values[best]):
            best = p
    s.winner = best
    s.phase = P_OVER
    s.end_reason = reason
    s.auction = None
    s.auction_queue = []
    s.bids = []
    s.claims = []
    s.trades = []
    s.placement = None
    s.wish = None
    s.debts = []
    ev.append(("game_over", best, (reason,)))


def settle_phase(s: State) -> None:
    """After a landing resolved: roll again after doubles, else end the move."""
    if s.phase == P_END and s.again:
        s.phase = P_ROLL


def advance_turn(s: State, ev: EventLog) -> None:
    """Pass the turn to the next player still in the game."""
    if s.ending and s.rules.end_condition == END_TIME:
        finish(s, "time", ev)
        return
    p = s.turn
    n = s.n
    for i in range(1, n + 1):
        q = (p + i) % n
        if s.alive[q]:
            break
    s.turn = q
    s.turn_no += 1
    if s.played and _capped(s, p, ev):
        return
    limit = s.rules.turn_limit
    people = s.rules.turn_limit_people
    # At a round's end (a turn count that is a multiple of the players
    # left), so that everyone left has had as many turns as the others;
    # never while a person is still playing.
    if (
        limit
        and s.turn_no >= limit
        and s.turn_no % sum(s.alive) == 0
        and not any(s.alive[i] and people >> i & 1 for i in range(s.n))
    ):
        ev.append(("turn_limit", SYSTEM, (s.turn_no,)))
        finish(s, END_TURN_LIMIT, ev)
        return
    s.phase = P_ROLL
    s.doubles = 0
    s.again = False
    s.pending_sq = -1
    if s.claims and s.rules.claim_deadline == CLAIM_SECOND_FOLLOWING_TURN:
        expire_claims(s, ev, on_throw=False)


def _capped(s: State, p: int, ev: EventLog) -> bool:
    """Count the turn ``p`` has just ended; end the game if it completed the
    round in which each player still in reaches ``cap_turns`` turns.

    The players still in take their turns in seat order, so their counts
    differ by at most one, and are all equal exactly at a round's end:
    whoever left meanwhile, everyone left has then had as many turns."""
    played = s.played
    played[p] += 1
    cap = s.rules.cap_turns
    rounds = -1
    for q in range(s.n):
        if s.alive[q]:
            if rounds < 0:
                rounds = played[q]
            elif played[q] != rounds:
                return False
    if rounds < cap:
        return False
    ev.append(("length_cap", SYSTEM, (rounds, 0)))
    finish(s, END_LENGTH_CAP, ev)
    return True


def expire_claims(s: State, ev: EventLog, on_throw: bool) -> None:
    """Drop rent claims whose window has closed (see rules.claim_deadline)."""
    mode = s.rules.claim_deadline
    keep = []
    for c in s.claims:
        if on_throw and mode == CLAIM_SECOND_FOLLOWING_THROW:
            dead = s.turn_no >= c[5] + 2
        elif on_throw:
            dead = mode != CLAIM_SECOND_FOLLOWING_TURN  # next throw
        else:
            dead = s.turn_no >= c[5] + 2
        if dead:
            ev.append(("claim_expired", c[2], (c[1], c[0])))
        else:
            keep.append(c)
    s.claims = keep

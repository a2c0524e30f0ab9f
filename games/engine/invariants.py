"""Self-checks run by tests and by ``simulate --check-invariants``."""

from __future__ import annotations

from .board import GROUP_MEMBERS, HOTEL, IS_PROPERTY, TOTAL_HOTELS, TOTAL_HOUSES
from .cards import DECKS, JAIL_FREE
from .state import State


def check_invariants(s: State) -> list[str]:
    """Return a list of broken invariants (empty when all hold)."""
    errors: list[str] = []
    r = s.rules
    start_total = r.starting_cash * s.n
    money = sum(s.cash) + s.pot
    if money != start_total + s.bank_out - s.bank_in:
        errors.append(
            f"money not conserved: players+pot {money} != start {start_total} "
            f"+ paid out {s.bank_out} - taken in {s.bank_in}"
        )
    hph = r.houses_per_hotel
    houses = hotels = 0
    for sq in range(40):
        b = s.bld[sq]
        if not IS_PROPERTY[sq]:
            if s.owner[sq] != -1 or b or s.mortgaged[sq]:
                errors.append(f"square {sq} is not a property but has owner/buildings")
            continue
        o = s.owner[sq]
        if o >= s.n or o < -1:
            errors.append(f"square {sq} has impossible owner {o}")
        elif o >= 0 and not s.alive[o]:
            errors.append(f"square {sq} owned by bankrupt player {o}")
        if b == HOTEL:
            hotels += 1
        elif 0 <= b <= hph:
            houses += b
        else:
            errors.append(f"square {sq} has impossible building level {b}")
        if b and o < 0:
            errors.append(f"square {sq} has buildings but no owner")
        if o < 0 and s.mortgaged[sq]:
            errors.append(f"square {sq} is mortgaged but unowned")
    if houses + s.bank_houses != TOTAL_HOUSES or not 0 <= s.bank_houses <= TOTAL_HOUSES:
        errors.append(f"houses: {houses} in play + {s.bank_houses} in bank != {TOTAL_HOUSES}")
    if hotels + s.bank_hotels != TOTAL_HOTELS or not 0 <= s.bank_hotels <= TOTAL_HOTELS:
        errors.append(f"hotels: {hotels} in play + {s.bank_hotels} in bank != {TOTAL_HOTELS}")
    for g in range(8):
        members = GROUP_MEMBERS[g]
        levels = [hph + 1 if s.bld[m] == HOTEL else s.bld[m] for m in members]
        if max(levels) - min(levels) > 1:
            errors.append(f"uneven building in group {g}: {levels}")
        if max(levels) > 0:
            if any(s.mortgaged[m] for m in members):
                errors.append(f"buildings in group {g} which has a mortgage")
            owners = {s.owner[m] for m in members}
            if len(owners) != 1:
                errors.append(f"buildings in group {g} not wholly owned by one player")
    for sq in s.fresh:
        if not s.mortgaged[sq] or s.owner[sq] < 0:
            errors.append(f"square {sq} marked freshly transferred but not mortgaged/owned")
    debtors = {d[0] for d in s.debts}
    for p in range(s.n):
        if s.cash[p] < 0:
            errors.append(f"player {p} has negative cash {s.cash[p]}")
        if not s.alive[p] and (s.cash[p] or any(s.jail_cards[p])):
            errors.append(f"bankrupt player {p} still holds cash or cards")
    for d in s.debts:
        if d[2] <= 0 or not s.alive[d[0]]:
            errors.append(f"bad debt record {d}")
    del debtors
    if len(s.played) != (s.n if r.cap_turns else 0) or any(t < 0 for t in s.played):
        errors.append(f"turn counts {s.played} do not fit the length cap in turns")
    w = s.wish
    if w is not None and (not s.alive[w[0]] or 1 not in w[3:]):
        errors.append(f"a building shortage window nobody answers: {w}")
    for deck in (0, 1):
        held = sum(s.jail_cards[p][deck] for p in range(s.n))
        cards = DECKS[r.decks][deck]
        jail_free = sum(1 for c in cards if c[0] == JAIL_FREE)
        if len(s.decks[deck]) + held != len(cards):
            errors.append(f"deck {deck}: {len(s.decks[deck])} cards + {held} held != {len(cards)}")
        if sorted(s.decks[deck]) != sorted(set(s.decks[deck])):
            errors.append(f"deck {deck} has duplicate cards")
        if held > jail_free:
            errors.append(f"deck {deck}: {held} jail cards held, only {jail_free} exist")
    return errors

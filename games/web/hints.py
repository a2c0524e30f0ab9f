"""Hints where an action is missing: why a natural move is not on offer.

``engine.legal_actions`` stays the one source of what a player may do; a
hint only explains an absence from that list, worked out from the state
(cash, the group's buildings, the bank's stock, mortgages). Everything a
hint reads is public in Monopoly (cash, deeds, buildings), so the panel may
show it to the player; spectators get no panel, and so no hints.

The functions are pure: the same state and legal list give the same hints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games import engine

# Hint kinds, for tests and CSS: each belongs to the action kind whose
# absence it explains (its ``games.action_kinds`` entry lists it).
from games.action_kinds import (
    BUILD_CASH,
    BUILD_EVENLY,
    BUILD_MORTGAGED,
    BUILD_NO_HOTELS,
    BUILD_NO_HOUSES,
    BUILD_OWN_TURN,
    BUY_CASH,
    JAIL_FINE_CASH,
    UNMORTGAGE_CASH,
)
from games.wording import money, square_name

# Where the panel shows them: with the decision, or with the property.
DECISION_KINDS: Final = frozenset({BUY_CASH, JAIL_FINE_CASH})


@dataclass(frozen=True)
class Hint:
    kind: str
    text: str
    square: int = -1  # the property it is about, or -1

    @property
    def decision(self) -> bool:
        return self.kind in DECISION_KINDS


def _names(rules: engine.Ruleset, squares: list[int]) -> str:
    names = [square_name(rules, sq) for sq in squares]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def hints(s: engine.State, seat: int, legal: list[engine.Action]) -> list[Hint]:
    """Why natural actions of ``seat`` are missing from ``legal`` (which must
    be ``engine.legal_actions(s, seat)``)."""
    if not 0 <= seat < s.n or not s.alive[seat] or s.finished:
        return []
    kinds = {a.kind for a in legal}
    builds = {a.square for a in legal if a.kind == engine.BUILD}
    lifts = {a.square for a in legal if a.kind == engine.UNMORTGAGE}
    out = _decision_hints(s, seat, kinds)
    if engine.PAY_DEBT in kinds or engine.AUTO_SETTLE in kinds:
        return out  # the debt note says what to do; building and lifting wait
    out += _build_hints(s, seat, builds)
    out += _unmortgage_hints(s, seat, lifts)
    return out


def _decision_hints(s: engine.State, seat: int, kinds: set[str]) -> list[Hint]:
    rules = s.rules
    cash = s.cash[seat]
    out = []
    # DECLINE is offered exactly while the buy decision is this seat's.
    if engine.DECLINE in kinds and engine.BUY not in kinds and s.pending_sq >= 0:
        price = engine.PRICE[s.pending_sq]
        if cash < price:
            out.append(
                Hint(
                    BUY_CASH,
                    f"Buy needs {money(rules, price - cash)} more: mortgage or sell to raise it.",
                    s.pending_sq,
                )
            )
    if (
        s.in_jail[seat]
        and engine.ROLL in kinds
        and engine.PAY_JAIL_FINE not in kinds
        and cash < rules.jail_fine
    ):
        out.append(
            Hint(
                JAIL_FINE_CASH,
                f"Paying the {money(rules, rules.jail_fine)} fine needs "
                f"{money(rules, rules.jail_fine - cash)} more.",
            )
        )
    return out


def _waiting_on_others(s: engine.State) -> bool:
    """Building waits while a building is placed, auctioned or wished for:
    a short window, with its own panel, that no hint needs to explain."""
    au = engine.auction_view(s)
    building_auction = au is not None and au.kind != engine.A_PROPERTY
    return engine.placement(s) is not None or building_auction or engine.shortage(s) is not None


def _build_hints(s: engine.State, seat: int, builds: set[int]) -> list[Hint]:
    rules = s.rules
    if _waiting_on_others(s):
        return []
    out: list[Hint] = []
    own_turn_told = False
    for g in range(8):  # the colour groups
        members = engine.GROUP_MEMBERS[g]
        if not engine.owns_group(s, seat, g):
            continue
        group = (engine.UK_GROUP_NAMES if rules.uk else engine.US_GROUP_NAMES)[g]
        levels = [_level(s, sq) for sq in members]
        top = rules.houses_per_hotel + 1
        if min(levels) >= top:
            continue  # hotels everywhere: nothing left to build
        lowest = [sq for sq, lv in zip(members, levels, strict=True) if lv == min(levels)]
        if any(sq in builds for sq in lowest):
            # The group can grow; the sites above the lowest wait their turn.
            for sq, lv in zip(members, levels, strict=True):
                if lv > min(levels) and lv < top and sq not in builds:
                    out.append(
                        Hint(
                            BUILD_EVENLY,
                            f"Build evenly: {_names(rules, lowest)} first, "
                            f"then {square_name(rules, sq)}.",
                            sq,
                        )
                    )
            continue
        mortgaged = [sq for sq in members if s.mortgaged[sq]]
        if mortgaged:
            out.append(
                Hint(
                    BUILD_MORTGAGED,
                    f"Building on the {group} group needs the mortgage on "
                    f"{_names(rules, mortgaged)} lifted first.",
                    mortgaged[0],
                )
            )
            continue
        if rules.build_in_own_turn_only and s.turn != seat:
            if not own_turn_told:
                out.append(Hint(BUILD_OWN_TURN, "You can build only in your own turn."))
                own_turn_told = True
            continue
        hotel_next = min(levels) == rules.houses_per_hotel
        if hotel_next and s.bank_hotels <= 0:
            out.append(Hint(BUILD_NO_HOTELS, "No hotels left in the bank.", lowest[0]))
            continue
        if not hotel_next and s.bank_houses <= 0:
            out.append(Hint(BUILD_NO_HOUSES, "No houses left in the bank.", lowest[0]))
            continue
        cost = engine.HOUSE_COST[lowest[0]]
        if s.cash[seat] < cost:
            item = "hotel" if hotel_next else "house"
            out.append(
                Hint(
                    BUILD_CASH,
                    f"A {item} on the {group} group costs {money(rules, cost)}: "
                    f"{money(rules, cost - s.cash[seat])} more than you have.",
                    lowest[0],
                )
            )
    return out


def _level(s: engine.State, sq: int) -> int:
    b = s.bld[sq]
    return s.rules.houses_per_hotel + 1 if b == engine.HOTEL else b


def _unmortgage_hints(s: engine.State, seat: int, lifts: set[int]) -> list[Hint]:
    rules = s.rules
    out = []
    for sq in engine.PROPERTIES:
        if s.owner[sq] != seat or not s.mortgaged[sq] or sq in lifts:
            continue
        cost = engine.unmortgage_cost(s, sq)
        if s.cash[seat] < cost:
            out.append(
                Hint(
                    UNMORTGAGE_CASH,
                    f"Unmortgaging {square_name(rules, sq)} needs {money(rules, cost)}: "
                    f"{money(rules, cost - s.cash[seat])} more than you have.",
                    sq,
                )
            )
    return out

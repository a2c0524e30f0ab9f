"""Houses, hotels and mortgages: checks (return an error message or "")
and the changes they make."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from . import actions as A
from . import auction
from .board import (
    GROUP,
    GROUP_MEMBERS,
    HOTEL,
    HOUSE_COST,
    IS_PROPERTY,
    KIND,
    MORTGAGE,
    SITE,
    ten_percent,
)
from .core import in_debt, settle_phase, transfer
from .errors import RuleViolation, WrongPhase
from .events import EventLog
from .kinds import Check, Do, refuse
from .state import A_HOTEL, A_HOUSE, BANK, WISH_WAITING, WISH_YES, State


def level(s: State, sq: int) -> int:
    b = s.bld[sq]
    return s.rules.houses_per_hotel + 1 if b == HOTEL else b


def owns_group(s: State, p: int, g: int) -> bool:
    own = s.owner
    for m in GROUP_MEMBERS[g]:  # noqa: SIM110 - plain loops are faster on the hot path
        if own[m] != p:
            return False
    return True


def group_has_buildings(s: State, g: int) -> bool:
    bld = s.bld
    for m in GROUP_MEMBERS[g]:  # noqa: SIM110
        if bld[m]:
            return True
    return False


def placement_error(s: State, p: int, sq: int, ignore_stock: bool = False) -> str:
    """Can ``p`` put the next building on ``sq`` (ignoring cash)?"""
    if not 0 <= sq < 40 or KIND[sq] != SITE:
        return "Buildings can only stand on colour-group sites."
    if s.owner[sq] != p:
        return "You do not own that site."
    g = GROUP[sq]
    members = GROUP_MEMBERS[g]
    own = s.owner
    for m in members:
        if own[m] != p:
            return "You must own the whole colour group before building."
    for m in members:
        if s.mortgaged[m]:
            return "No building while any site of the group is mortgaged."
    hph = s.rules.houses_per_hotel
    bld = s.bld
    b = bld[sq]
    if b == HOTEL:  # level(s, sq) > hph
        return "That site already has a hotel."
    # Evenness: no site of the group below this one (a hotel is above all).
    for m in members:
        if bld[m] < b:
            return "You must build evenly across the group."
    lv = b
    if ignore_stock:
        return ""
    if lv == hph:
        if s.bank_hotels <= 0:
            return "The Bank has no hotels left."
    elif s.bank_houses <= 0:
        return "The Bank has no houses left."
    return ""


def build_error(s: State, p: int, sq: int) -> str:
    err = placement_error(s, p, sq)
    if err:
        return err
    if s.rules.build_in_own_turn_only and s.turn != p:
        return "You may only build in your own turn."
    if s.placement is not None:
        return "Wait: an auctioned building must be placed first."
    if s.auction is not None and s.auction[0] != 0:
        return "Wait: a building auction is in progress."
    if s.wish is not None:
        return "Wait: the other players may still ask for the scarce buildings."
    if in_debt(s, p):
        return "Settle your debt before building."
    if s.cash[p] < HOUSE_COST[sq]:
        return "You do not have enough cash to build there."
    return ""


def build_kind(s: State, sq: int) -> int:
    return A_HOTEL if level(s, sq) == s.rules.houses_per_hotel else A_HOUSE


def could_wish(s: State, q: int, kind: int) -> bool:
    """Could ``q`` buy a building of ``kind`` now, but for the shortage window
    itself and the UK's "in his turn" (``build_in_own_turn_only``)? Those who
    could may ask for the scarce buildings too (003 BUILDING SHORTAGES: "two
    or more players wish to buy")."""
    if not s.alive[q] or in_debt(s, q):
        return False
    own = s.owner
    cash = s.cash[q]
    for members in GROUP_MEMBERS[:8]:
        if own[members[0]] != q or own[members[1]] != q or own[members[-1]] != q:
            continue
        for sq in members:
            if (
                build_kind(s, sq) == kind
                and cash >= HOUSE_COST[sq]
                and not placement_error(s, q, sq, ignore_stock=True)
            ):
                return True
    return False


def build(s: State, p: int, sq: int, ev: EventLog) -> None:
    # build_kind(s, sq): level == houses_per_hotel only with that many houses
    kind = A_HOTEL if s.bld[sq] == s.rules.houses_per_hotel else A_HOUSE
    if s.rules.building_shortage_auctions:
        stock = s.bank_hotels if kind == A_HOTEL else s.bank_houses
        if stock < s.n:
            # Who else could buy one: if they all asked too, would the bank
            # be short? Then they are asked first (``State.wish``).
            others = [q for q in range(s.n) if q != p and could_wish(s, q, kind)]
            if others and stock < len(others) + 1:
                flags = [WISH_WAITING if q in others else 0 for q in range(s.n)]
                s.wish = [p, sq, kind, *flags]
                ev.append(("shortage", p, (kind, sq, stock)))
                return
    cost = HOUSE_COST[sq]
    s.cash[p] -= cost  # transfer(s, p, BANK, cost)
    s.bank_in += cost
    put_building(s, sq, kind)
    ev.append(("build", p, (sq, s.bld[sq], cost)))


def answer_wish(s: State, q: int, wants: bool, ev: EventLog) -> None:
    """Seat ``q`` asks for the scarce buildings too, or not; the last answer
    closes the window."""
    w = s.wish
    assert w is not None
    w[3 + q] = WISH_YES if wants else 0
    ev.append(("wish" if wants else "no_wish", q, (w[2],)))
    if WISH_WAITING not in w[3:]:
        close_wish(s, ev)


def drop_wisher(s: State, q: int, ev: EventLog) -> None:
    """Seat ``q`` left the game: a window it opened lapses; its answer is no."""
    w = s.wish
    if w is None:
        return
    if w[0] == q:
        s.wish = None
        ev.append(("build_lapsed", q, (w[1],)))
        return
    w[3 + q] = 0
    if WISH_WAITING not in w[3:]:
        close_wish(s, ev)


def close_wish(s: State, ev: EventLog) -> None:
    """Everyone answered: auction the scarce buildings among the requester
    and those who asked too if the bank is short of them, else the
    requester's build goes ahead (if it still can)."""
    w = s.wish
    assert w is not None
    s.wish = None
    p, sq, kind = w[0], w[1], w[2]
    if s.auction is not None or s.placement is not None:
        # A bankrupt's estate went to auction meanwhile: the request lapses.
        ev.append(("build_lapsed", p, (sq,)))
        return
    wishers = [q for q in range(s.n) if w[3 + q] == WISH_YES and s.alive[q]]
    stock = s.bank_hotels if kind == A_HOTEL else s.bank_houses
    if wishers and stock < len(wishers) + 1:
        auction.start(s, kind, -1, p, ev, eligible=sorted([p, *wishers]))
        settle_phase(s)
        return
    cost = HOUSE_COST[sq]
    if (
        stock > 0
        and s.alive[p]
        and not in_debt(s, p)
        and s.cash[p] >= cost
        and build_kind(s, sq) == kind
        and not placement_error(s, p, sq)
    ):
        transfer(s, p, BANK, cost)
        put_building(s, sq, kind)
        ev.append(("build", p, (sq, s.bld[sq], cost)))
    else:
        ev.append(("build_lapsed", p, (sq,)))


def put_building(s: State, sq: int, kind: int) -> None:
    if kind == A_HOTEL:
        s.bank_hotels -= 1
        s.bank_houses += s.rules.houses_per_hotel
        s.bld[sq] = HOTEL
    else:
        s.bank_houses -= 1
        s.bld[sq] += 1


def sell_error(s: State, p: int, sq: int) -> str:
    if not 0 <= sq < 40 or s.owner[sq] != p:
        return "You do not own that site."
    bld = s.bld
    b = bld[sq]
    if not b:
        return "There is no building there to sell."
    # level(s, m) > level(s, sq) is bld[m] > b: a hotel (5) is above any
    # number of houses, and nothing is above a hotel.
    for m in GROUP_MEMBERS[GROUP[sq]]:
        if bld[m] > b:
            return "You must sell evenly across the group."
    if s.bld[sq] == HOTEL and s.bank_houses < s.rules.houses_per_hotel:
        return (
            "The Bank has too few houses to break this hotel down; "
            "sell all the group's buildings at once instead."
        )
    return ""


def sell(s: State, p: int, sq: int, ev: EventLog) -> None:
    refund = HOUSE_COST[sq] // 2
    if s.bld[sq] == HOTEL:
        hph = s.rules.houses_per_hotel
        s.bank_hotels += 1
        s.bank_houses -= hph
        s.bld[sq] = hph
    else:
        s.bank_houses += 1
        s.bld[sq] -= 1
    transfer(s, BANK, p, refund)
    ev.append(("sell_building", p, (sq, s.bld[sq], refund)))


def sell_group_error(s: State, p: int, g: int) -> str:
    if not 0 <= g < 8:
        return "That is not a colour group."
    members = GROUP_MEMBERS[g]
    if not owns_group(s, p, g) or not group_has_buildings(s, g):
        return "You have no buildings on that group."
    if s.rules.sell_group_at_once == "hotels":
        hotels = [m for m in members if s.bld[m] == HOTEL]
        # A hotel the bank cannot break down (too few houses) may always go
        # with the rest of its group, or the owner could be stuck.
        stuck = bool(hotels) and s.bank_houses < s.rules.houses_per_hotel
        if len(hotels) != len(members) and not stuck:
            return "Only a group of hotels may be sold at once; sell houses one by one."
    return ""


def sell_group(s: State, p: int, g: int, ev: EventLog) -> None:
    hph = s.rules.houses_per_hotel
    for m in GROUP_MEMBERS[g]:
        b = s.bld[m]
        if not b:
            continue
        if b == HOTEL:
            s.bank_hotels += 1
            refund = HOUSE_COST[m] * (hph + 1) // 2
        else:
            s.bank_houses += b
            refund = HOUSE_COST[m] * b // 2
        s.bld[m] = 0
        transfer(s, BANK, p, refund)
        ev.append(("sell_building", p, (m, 0, refund)))


def mortgage_error(s: State, p: int, sq: int) -> str:
    if not 0 <= sq < 40 or not IS_PROPERTY[sq] or s.owner[sq] != p:
        return "You do not own that property."
    if s.mortgaged[sq]:
        return "That property is already mortgaged."
    if GROUP[sq] < 8 and group_has_buildings(s, GROUP[sq]):
        return "Sell the buildings on this colour group before mortgaging."
    return ""


def mortgage(s: State, p: int, sq: int, ev: EventLog) -> None:
    s.mortgaged[sq] = True
    transfer(s, BANK, p, MORTGAGE[sq])
    ev.append(("mortgage", p, (sq, MORTGAGE[sq])))


def unmortgage_cost(s: State, sq: int) -> int:
    """Principal plus 10%; only the principal if the 10% was just paid on a
    transfer ("the new owner may lift the mortgage at once")."""
    mv = MORTGAGE[sq]
    return mv if sq in s.fresh else mv + ten_percent(mv)


def unmortgage_error(s: State, p: int, sq: int) -> str:
    if not 0 <= sq < 40 or not IS_PROPERTY[sq] or s.owner[sq] != p:
        return "You do not own that property."
    if not s.mortgaged[sq]:
        return "That property is not mortgaged."
    if in_debt(s, p):
        return "Settle your debt before lifting a mortgage."
    if s.cash[p] < unmortgage_cost(s, sq):
        return "You do not have enough cash to lift this mortgage."
    return ""


def unmortgage(s: State, p: int, sq: int, ev: EventLog) -> None:
    cost = unmortgage_cost(s, sq)
    s.mortgaged[sq] = False
    if sq in s.fresh:
        s.fresh.remove(sq)
    transfer(s, p, BANK, cost)
    ev.append(("unmortgage", p, (sq, cost)))


# --- the actions of this module: check, apply (their events are appended here) ---


def _c_place(s: State, a: A.Action) -> None:
    pl = s.placement
    if pl is None or pl[0] != a.player:
        raise WrongPhase("You have no building to place.")
    if a.kind == A.PLACE_BUILDING:
        refuse(placement_error(s, a.player, a.square))
        if build_kind(s, a.square) != pl[1]:
            raise RuleViolation("That site needs the other kind of building.")


def _d_place(s: State, a: A.Action, ev: EventLog) -> None:
    pl = s.placement
    assert pl is not None
    s.placement = None
    if a.kind == A.PLACE_BUILDING:
        put_building(s, a.square, pl[1])
        ev.append(("place_building", a.player, (a.square,)))
    else:
        transfer(s, BANK, a.player, pl[2])
        ev.append(("forfeit_building", a.player, ()))
    settle_phase(s)


def _c_wish(s: State, a: A.Action) -> None:
    w = s.wish
    p = a.player
    if w is None or w[3 + p] != WISH_WAITING:
        raise WrongPhase("You are not being asked about scarce buildings.")
    if s.debts or s.auction is not None or s.placement is not None:
        raise WrongPhase("Wait: the auction, placement or debt comes first.")
    if a.kind == A.DECLARE_WISH and not could_wish(s, p, w[2]):
        raise RuleViolation("You could not buy one now: nowhere to build it, or too little cash.")


def _d_wish(s: State, a: A.Action, ev: EventLog) -> None:
    answer_wish(s, a.player, a.kind == A.DECLARE_WISH, ev)
    settle_phase(s)


def _on(
    error: Callable[[State, int, int], str],
    change: Callable[[State, int, int, EventLog], None],
    on_target: bool = False,
) -> tuple[Check, Do]:
    """The check and apply of a kind that names one square (or, with
    ``on_target``, one colour group): ``error`` says why not, ``change`` does it."""

    def check(s: State, a: A.Action) -> None:
        refuse(error(s, a.player, a.target if on_target else a.square))

    def do(s: State, a: A.Action, ev: EventLog) -> None:
        change(s, a.player, a.target if on_target else a.square, ev)

    return check, do


PAIRS: Final[dict[str, tuple[Check, Do]]] = {
    A.PLACE_BUILDING: (_c_place, _d_place),
    A.FORFEIT_BUILDING: (_c_place, _d_place),
    A.DECLARE_WISH: (_c_wish, _d_wish),
    A.NO_WISH: (_c_wish, _d_wish),
    A.BUILD: _on(build_error, build),
    A.SELL_BUILDING: _on(sell_error, sell),
    A.SELL_GROUP_BUILDINGS: _on(sell_group_error, sell_group, on_target=True),
    A.MORTGAGE: _on(mortgage_error, mortgage),
    A.UNMORTGAGE: _on(unmortgage_error, unmortgage),
}

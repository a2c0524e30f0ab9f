"""Trades between two players: property (no buildings in its group), cash
and Get Out of Jail Free cards. No loans: cash changes hands at once.

An open offer is stored as ``(id, proposer, recipient, Terms)``. It is
checked when proposed and again when accepted.
"""

from __future__ import annotations

from typing import Final

from . import actions as A
from .actions import Terms
from .board import GROUP, GROUP_MEMBERS, IS_PROPERTY, MORTGAGE, ten_percent
from .core import transfer
from .errors import NotYourTurn, UnknownAction, WrongPhase
from .events import EventLog
from .kinds import Check, Do, refuse
from .money import give_property
from .state import State


def terms_error(s: State, frm: int, to: int, t: Terms, accepting: bool = False) -> str:
    if not 0 <= to < s.n or to == frm or not s.alive[to]:
        return "Choose another player still in the game to trade with."
    give_props, give_cash, give_cards, take_props, take_cash, take_cards = t
    if not (give_props or take_props or give_cash or take_cash or any(give_cards)
            or any(take_cards)):  # fmt: skip
        return "A trade must exchange something."
    if give_cash < 0 or take_cash < 0:
        return "Cash amounts cannot be negative."
    # Plain loops and local names: the bots check every offer they make and
    # answer, so this runs several times per trade.
    own = s.owner
    bld = s.bld
    seen: set[int] = set()
    holder = frm
    for props in (give_props, take_props):
        for sq in props:
            if not isinstance(sq, int) or not 0 <= sq < 40 or not IS_PROPERTY[sq]:
                return "Only properties can be traded."
            if sq in seen:
                return "A property is listed twice."
            seen.add(sq)
            if own[sq] != holder:
                return f"{s.names[holder]} does not own every property listed."
            g = GROUP[sq]
            if g < 8:
                for m in GROUP_MEMBERS[g]:  # group_has_buildings(s, g)
                    if bld[m]:
                        return (
                            "Property cannot be traded while buildings stand on its colour group."
                        )
        holder = to
    for cards, holder in ((give_cards, frm), (take_cards, to)):
        held = s.jail_cards[holder]
        for deck in (0, 1):
            if not 0 <= cards[deck] <= held[deck]:
                return f"{s.names[holder]} does not hold those Get Out of Jail Free cards."
    cash = s.cash
    if give_cash > cash[frm]:
        return f"{s.names[frm]} does not have that much cash (no loans)."
    if take_cash > cash[to]:
        return f"{s.names[to]} does not have that much cash (no loans)."
    if accepting:
        # Whoever receives mortgaged property pays 10% at once.
        frm_left = cash[frm] - give_cash + take_cash - interest_on(s, take_props)
        to_left = cash[to] - take_cash + give_cash - interest_on(s, give_props)
        if frm_left < 0 or to_left < 0:
            return "The 10% interest on mortgaged property in this trade cannot be paid."
    return ""


def interest_on(s: State, props: tuple[int, ...]) -> int:
    total = 0
    mortgaged = s.mortgaged
    for sq in props:
        if mortgaged[sq]:
            total += ten_percent(MORTGAGE[sq])
    return total


def find(s: State, trade_id: int) -> tuple[int, int, int, Terms] | None:
    for t in s.trades:
        if t[0] == trade_id:
            return t
    return None


def propose(s: State, frm: int, to: int, terms: Terms, ev: EventLog) -> int:
    tid = s.next_id
    s.next_id += 1
    s.trades.append((tid, frm, to, terms))
    ev.append(("trade_proposed", frm, (to, tid)))
    return tid


def close(s: State, trade_id: int) -> None:
    s.trades = [t for t in s.trades if t[0] != trade_id]


def accept(s: State, trade_id: int, ev: EventLog) -> None:
    t = find(s, trade_id)
    assert t is not None
    tid, frm, to, terms = t
    close(s, tid)
    ev.append(("trade_accepted", to, (frm, tid)))
    if terms.give_cash:
        transfer(s, frm, to, terms.give_cash)
    if terms.take_cash:
        transfer(s, to, frm, terms.take_cash)
    for deck in (0, 1):
        n = terms.give_cards[deck] - terms.take_cards[deck]
        s.jail_cards[frm][deck] -= n
        s.jail_cards[to][deck] += n
    for sq in terms.give_props:
        give_property(s, sq, to, frm, ev)
    for sq in terms.take_props:
        give_property(s, sq, frm, to, ev)


# --- the actions of this module: check, apply (their events are appended here) ---


def _c_propose(s: State, a: A.Action) -> None:
    if a.terms is None:
        raise UnknownAction("A trade needs terms.")
    refuse(terms_error(s, a.player, a.target, a.terms))


def _d_propose(s: State, a: A.Action, ev: EventLog) -> None:
    assert a.terms is not None
    propose(s, a.player, a.target, a.terms, ev)


def _c_answer(s: State, a: A.Action) -> None:
    t = find(s, a.target)
    if t is None:
        raise WrongPhase("That trade offer is no longer open.")
    if a.kind == A.WITHDRAW_TRADE:
        if t[1] != a.player:
            raise NotYourTurn("Only the player who made an offer can withdraw it.")
        return
    if t[2] != a.player:
        raise NotYourTurn("That offer was not made to you.")
    if a.kind == A.ACCEPT_TRADE:
        refuse(terms_error(s, t[1], t[2], t[3], accepting=True))
    elif a.kind == A.COUNTER_TRADE:
        if a.terms is None:
            raise UnknownAction("A counter-offer needs terms.")
        refuse(terms_error(s, a.player, t[1], a.terms))


def _d_answer(s: State, a: A.Action, ev: EventLog) -> None:
    t = find(s, a.target)
    assert t is not None
    if a.kind == A.ACCEPT_TRADE:
        accept(s, a.target, ev)
        return
    close(s, a.target)
    if a.kind == A.WITHDRAW_TRADE:
        ev.append(("trade_withdrawn", a.player, (t[2], t[0])))
        return
    ev.append(("trade_rejected", a.player, (t[1], t[0])))
    if a.kind == A.COUNTER_TRADE:
        assert a.terms is not None
        propose(s, a.player, t[1], a.terms, ev)


PAIRS: Final[dict[str, tuple[Check, Do]]] = {
    A.PROPOSE_TRADE: (_c_propose, _d_propose),
    A.ACCEPT_TRADE: (_c_answer, _d_answer),
    A.REJECT_TRADE: (_c_answer, _d_answer),
    A.WITHDRAW_TRADE: (_c_answer, _d_answer),
    A.COUNTER_TRADE: (_c_answer, _d_answer),
}

"""Who must decide what now, what each player may do, and timeout defaults."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final, NamedTuple

from . import actions as A
from .board import PROPERTIES, SITES
from .core import blocked, in_debt
from .game import LISTED, is_legal
from .rules import AUCTION_SEALED
from .state import P_BUY, P_CHOICE, P_END, P_OVER, P_ROLL, P_TAX, SYSTEM, WISH_WAITING, State

# Pending decision kinds.
D_ROLL: Final = "roll"
D_JAIL: Final = "jail"
D_BUY: Final = "buy"
D_INCOME_TAX: Final = "income_tax"
D_FINE_OR_CHANCE: Final = "fine_or_chance"
D_END_TURN: Final = "end_turn"
D_BID: Final = "bid"
D_SEALED_BID: Final = "sealed_bid"  # one hidden bid (sealed-bid auctions)
D_PLACE: Final = "place_building"
D_TRADE: Final = "trade_response"
D_CLAIM: Final = "claim_rent"
D_DEBT: Final = "raise_funds"
D_WISH: Final = "building_wish"
# Every kind above: what ``pending_decisions`` may name.
DECISION_KINDS: Final = (
    D_ROLL,
    D_JAIL,
    D_BUY,
    D_INCOME_TAX,
    D_FINE_OR_CHANCE,
    D_END_TURN,
    D_BID,
    D_SEALED_BID,
    D_PLACE,
    D_TRADE,
    D_CLAIM,
    D_DEBT,
    D_WISH,
)

_PHASE_DECISION: Final = {
    P_ROLL: D_ROLL,
    P_BUY: D_BUY,
    P_TAX: D_INCOME_TAX,
    P_CHOICE: D_FINE_OR_CHANCE,
    P_END: D_END_TURN,
}


class Pending(NamedTuple):
    """A decision someone must make. ``ref`` is a square, trade or claim id.

    ``blocking`` is False for decisions the game does not wait for (rent
    claims, trade answers): the server may still give them a deadline."""

    player: int
    kind: str
    ref: int = -1
    blocking: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "kind": self.kind,
            "ref": self.ref,
            "blocking": self.blocking,
        }


def pending_decisions(s: State) -> list[Pending]:
    if s.phase == P_OVER:
        return []
    out: list[Pending] = []
    seen_debtors: set[int] = set()
    for d in s.debts:
        if d[0] not in seen_debtors:
            seen_debtors.add(d[0])
            out.append(Pending(d[0], D_DEBT, -1))
    if s.placement is not None:
        out.append(Pending(s.placement[0], D_PLACE, -1))
    a = s.auction
    if a is not None:
        bid_kind = D_SEALED_BID if s.rules.auction_kind == AUCTION_SEALED else D_BID
        for q in range(s.n):
            if a[5 + q] and q != a[3]:
                out.append(Pending(q, bid_kind, a[1]))
    w = s.wish
    if w is not None and not out:
        # A building shortage: the others say whether they want one too.
        for q in range(s.n):
            if w[3 + q] == WISH_WAITING:
                out.append(Pending(q, D_WISH, w[1]))
    if not out:
        turn = turn_decision(s)
        if turn is not None:
            out.append(turn)
    for t in s.trades:
        out.append(Pending(t[2], D_TRADE, t[0], False))
    for c in s.claims:
        out.append(Pending(c[1], D_CLAIM, c[0], False))
    return out


def turn_decision(s: State) -> Pending | None:
    """The turn player's own decision, open or held up by an interrupt.

    A debt, a placement, an auction or a shortage's wish window holds it up
    (``pending_decisions`` then names theirs instead); it comes back as it
    was once they are settled."""
    if s.phase == P_OVER:
        return None
    kind = _PHASE_DECISION[s.phase]
    if s.phase == P_ROLL and s.in_jail[s.turn]:
        kind = D_JAIL
    ref = s.pending_sq if s.phase == P_BUY else -1
    return Pending(s.turn, kind, ref)


def _candidates(s: State, p: int) -> list[A.Action]:
    act = A.Action
    if p == SYSTEM:
        out = [act(A.END_NOW, SYSTEM), act(A.END_CAP, SYSTEM)]
        out += [act(A.EXPIRE_CLAIM, SYSTEM, target=c[0]) for c in s.claims]
        return out
    out = [
        act(A.ROLL, p),
        act(A.PAY_JAIL_FINE, p),
        act(A.USE_JAIL_CARD, p, target=0),
        act(A.USE_JAIL_CARD, p, target=1),
        act(A.BUY, p),
        act(A.DECLINE, p),
        act(A.INCOME_TAX_FLAT, p),
        act(A.INCOME_TAX_PERCENT, p),
        act(A.PAY_TEN, p),
        act(A.TAKE_CHANCE, p),
        act(A.END_TURN, p),
        act(A.PASS_BID, p),
        act(A.FORFEIT_BUILDING, p),
        act(A.DECLARE_WISH, p),
        act(A.NO_WISH, p),
        act(A.PAY_DEBT, p),
        act(A.DECLARE_BANKRUPTCY, p),
        act(A.AUTO_SETTLE, p),
        act(A.RESIGN, p),
    ]
    au = s.auction
    if au is not None:
        # Bids take any amount from just above the high bid to all your cash;
        # the two ends of that range are listed.
        lo = au[2] + 1
        out.append(act(A.BID, p, amount=lo))
        if s.cash[p] > lo:
            out.append(act(A.BID, p, amount=s.cash[p]))
    if s.placement is not None:
        out += [act(A.PLACE_BUILDING, p, square=sq) for sq in SITES]
    for sq in PROPERTIES:
        if s.owner[sq] == p:
            out.append(act(A.MORTGAGE, p, square=sq))
            out.append(act(A.UNMORTGAGE, p, square=sq))
            out.append(act(A.BUILD, p, square=sq))
            out.append(act(A.SELL_BUILDING, p, square=sq))
    out += [act(A.SELL_GROUP_BUILDINGS, p, target=g) for g in range(8)]
    for t in s.trades:
        if t[2] == p:
            out.append(act(A.ACCEPT_TRADE, p, target=t[0]))
            out.append(act(A.REJECT_TRADE, p, target=t[0]))
        if t[1] == p:
            out.append(act(A.WITHDRAW_TRADE, p, target=t[0]))
    for c in s.claims:
        if c[1] == p:
            out.append(act(A.CLAIM_RENT, p, target=c[0]))
            out.append(act(A.EXPIRE_CLAIM, p, target=c[0]))
    for more in LISTED:
        out += more(s, p)
    return out


def legal_actions(s: State, player: int) -> list[A.Action]:
    """Every action ``player`` may take now (``SYSTEM`` for server actions).

    Parameterised actions are listed by representatives: a bid at the lowest
    and the highest allowed amount. ``propose_trade`` and ``counter_trade``
    take free-form terms and are not enumerated; ``can_trade`` says whether
    a player may offer one now."""
    return [a for a in _candidates(s, player) if is_legal(s, a)]


# Actions that may be applied to a later position than the one they were
# posted against (the player's page or client had not yet seen the moves
# since): each kind listed answers its decision the same way whatever those
# moves were, as long as it still answers the same decision. With each, the
# events that begin a new decision of the kind it answers: seen since, the
# action would answer that one instead. A kind not listed is refused once
# the game has moved on: a roll, a purchase, a build, a mortgage, a trade
# offer or its acceptance, a tax choice, a debt's settlement are choices
# made for the position they were made in (a build spends cash the moves
# since may have spent, on houses they may have taken), and a resignation
# goes through the services' own check.
STILL_MEANT: Final[dict[str, frozenset[str]]] = {
    # The auction open then, unless one began since; a bid only while it
    # is still above the high bid and within the bidder's cash (legal).
    A.PASS_BID: frozenset({"auction_start"}),
    A.BID: frozenset({"auction_start"}),
    # The turn player's own decisions: only their own roll, a move of
    # theirs, could bring another of these.
    A.DECLINE: frozenset(),
    A.END_TURN: frozenset(),
    A.NO_WISH: frozenset({"shortage"}),
    # Offers and claims are named by an id that is never used again.
    A.REJECT_TRADE: frozenset(),
    A.WITHDRAW_TRADE: frozenset(),
    A.CLAIM_RENT: frozenset(),
    A.EXPIRE_CLAIM: frozenset(),
}


def still_means(s: State, a: A.Action, movers: Collection[int], happened: Collection[str]) -> bool:
    """Whether ``a``, posted against an earlier position that the moves of
    ``movers`` (their players) with events of the kinds ``happened`` have
    turned into ``s``, means the same in ``s`` and may be applied: its kind
    is one that can (``STILL_MEANT``), no move since was made by or for its
    player (a second submit of a move already applied, or the timer's answer
    for them, is not applied again), nothing since began a new decision of
    the kind it answers, and it is legal now."""
    begins = STILL_MEANT.get(a.kind)
    if begins is None or a.player in movers or not begins.isdisjoint(happened):
        return False
    return is_legal(s, a)


def can_trade(s: State, player: int) -> bool:
    return s.phase != P_OVER and 0 <= player < s.n and s.alive[player] and sum(s.alive) > 1


def timeout_action(s: State, player: int) -> A.Action:
    """The default when ``player``'s deadline passes."""
    act = A.Action
    if in_debt(s, player):
        return act(A.AUTO_SETTLE, player)
    if s.placement is not None and s.placement[0] == player:
        for sq in SITES:
            a = act(A.PLACE_BUILDING, player, square=sq)
            if is_legal(s, a):
                return a
        return act(A.FORFEIT_BUILDING, player)
    au = s.auction
    if au is not None and au[5 + player] and au[3] != player:
        return act(A.PASS_BID, player)
    w = s.wish
    if (
        w is not None
        and w[3 + player] == WISH_WAITING
        and not s.debts
        and au is None
        and s.placement is None
    ):
        return act(A.NO_WISH, player)
    if player == s.turn and s.phase != P_OVER and not blocked(s):
        if s.phase == P_ROLL:
            return act(A.ROLL, player)
        if s.phase == P_BUY:
            return act(A.DECLINE, player)
        if s.phase == P_TAX:
            return act(A.INCOME_TAX_FLAT, player)
        if s.phase == P_CHOICE:
            a = act(A.PAY_TEN, player)
            return a if s.cash[player] >= 10 else act(A.TAKE_CHANCE, player)
        if s.phase == P_END:
            return act(A.END_TURN, player)
    for t in s.trades:
        if t[2] == player:
            return act(A.REJECT_TRADE, player, target=t[0])
    for c in s.claims:
        if c[1] == player:
            return act(A.EXPIRE_CLAIM, SYSTEM, target=c[0])
    raise ValueError(f"Player {player} has no pending decision.")

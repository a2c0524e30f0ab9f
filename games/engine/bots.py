"""Bots: a random legal-action bot and a heuristic bot.

Both are deterministic given the state (the random bot draws from its own
seeded generator), so recorded games replay exactly. ``next_actor`` picks who
acts next when several decisions are open, for simulations and for seating
bots on the site.
"""

from __future__ import annotations

from typing import ClassVar, Final

from . import actions as A
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
from .bot_trades import candidate_groups, find_offer, offer_gain
from .buildings import build_kind, could_wish, group_has_buildings, unmortgage_cost
from .core import blocked, in_debt, total_worth
from .game import is_legal, jail_fine_allowed
from .legal import legal_actions
from .rng import Rng
from .rules import AUCTION_SEALED
from .state import P_BUY, P_CHOICE, P_END, P_ROLL, P_TAX, WISH_WAITING, State
from .trade import terms_error

Action = A.Action
# tuple.__new__ skips the named tuple's slower keyword __new__ on hot paths;
# the fields are (kind, player, square, amount, target, terms).
_new: Final = tuple.__new__

# The heuristic bot's cash cushion, and its trade window (one end-of-move
# decision in this many looks for a trade). Module constants, not only class
# attributes: compiled, a class attribute read through ``self`` is a dict
# lookup, these are C constants.
CUSHION: Final = 150
TRADE_EVERY: Final = 4
# Actions are immutable: the frequent ones are made once per seat.
_ROLLS: Final = tuple(Action(A.ROLL, p) for p in range(8))
_ENDS: Final = tuple(Action(A.END_TURN, p) for p in range(8))


def out_of_turn_open(s: State) -> bool:
    """Whether anything may need a seat other than the turn player's: the one
    list of what ``next_actor`` looks at before the turn player."""
    return (
        bool(s.debts)
        or s.auction is not None
        or bool(s.claims)
        or bool(s.trades)
        or s.placement is not None
        or s.wish is not None
    )


def next_actor(s: State) -> int:
    """The seat that should act next: debtors, building placement, auction
    bidders (in seat order after the high bidder), those asked in a building
    shortage (in seat order), rent claims, trade
    answers, and finally the turn player."""
    if s.debts:
        return s.debts[0][0]
    if s.placement is not None:
        return s.placement[0]
    a = s.auction
    if a is not None:
        n = s.n
        start = a[3] if a[3] >= 0 else (a[4] if a[4] >= 0 else s.turn)
        for i in range(1, n + 1):
            q = (start + i) % n
            if a[5 + q] and q != a[3]:
                return q
    w = s.wish
    if w is not None:
        for q in range(s.n):
            if w[3 + q] == WISH_WAITING:
                return q
    if s.claims:
        return s.claims[0][1]
    if s.trades:
        return s.trades[0][2]
    return s.turn


class Bot:
    name = "bot"

    def __init__(self, jail_policy: str = "pay", seed: int = 0) -> None:
        if jail_policy not in ("pay", "stay"):
            raise ValueError("jail policy must be 'pay' or 'stay'")
        self.jail_policy = jail_policy
        self.seed = seed

    def act(self, s: State, p: int) -> Action:
        raise NotImplementedError

    def act_in_turn(self, s: State, p: int) -> Action:
        """``act`` when ``p`` is the turn player and nothing is open out of
        turn; a bot may take a shortcut for that case."""
        return self.act(s, p)


class RandomBot(Bot):
    """Picks uniformly among the legal actions of its most urgent decision,
    sometimes doing something else legal (mortgage, build, trade offer)."""

    name = "random"

    def __init__(self, jail_policy: str = "pay", seed: int = 0, rng: Rng | None = None) -> None:
        super().__init__(jail_policy, seed)
        self.rng = Rng(seed) if rng is None else rng

    def act(self, s: State, p: int) -> Action:
        rng = self.rng
        if s.turn == p and s.phase == P_ROLL and s.in_jail[p] and not blocked(s):
            if self.jail_policy == "stay":
                return Action(A.ROLL, p)
            for a in (Action(A.USE_JAIL_CARD, p, target=0), Action(A.USE_JAIL_CARD, p, target=1)):
                if is_legal(s, a):
                    return a
            if is_legal(s, Action(A.PAY_JAIL_FINE, p)):
                return Action(A.PAY_JAIL_FINE, p)
        if rng.random() < 0.03 and not in_debt(s, p):
            offer = self._random_offer(s, p)
            if offer is not None:
                return offer
        # Mostly answer the decision at hand (a short candidate list); now and
        # then pick from everything legal (mortgage, build, sell, ...).
        choices = [a for a in _progress_candidates(s, p) if is_legal(s, a)]
        if not choices or rng.random() >= 0.85:
            choices = [a for a in legal_actions(s, p) if a.kind != A.RESIGN]
        a = choices[rng.below(len(choices))]
        if a.kind == A.BID and s.auction is not None:
            lo = s.auction[2] + 1
            hi = min(s.cash[p], lo + 150)
            a = a._replace(amount=lo + rng.below(hi - lo + 1))
        return a

    def _random_offer(self, s: State, p: int) -> Action | None:
        rng = self.rng
        others = [q for q in range(s.n) if q != p and s.alive[q]]
        if not others or len(s.trades) > 4:
            return None
        q = others[rng.below(len(others))]

        def tradeable(owner: int) -> list[int]:
            return [
                sq for sq in PROPERTIES
                if s.owner[sq] == owner and not (GROUP[sq] < 8 and group_has_buildings(s, GROUP[sq]))
            ]  # fmt: skip

        mine, theirs = tradeable(p), tradeable(q)
        give = (mine[rng.below(len(mine))],) if mine and rng.random() < 0.7 else ()
        take = (theirs[rng.below(len(theirs))],) if theirs and rng.random() < 0.7 else ()
        give_cash = rng.below(min(s.cash[p], 300) + 1) if rng.random() < 0.4 else 0
        take_cash = rng.below(min(s.cash[q], 300) + 1) if rng.random() < 0.4 else 0
        cards = (min(s.jail_cards[p][0], 1), 0) if rng.random() < 0.3 else (0, 0)
        terms = A.Terms(give, give_cash, cards, take, take_cash, (0, 0))
        a = Action(A.PROPOSE_TRADE, p, target=q, terms=terms)
        return a if is_legal(s, a) else None


def _progress_candidates(s: State, p: int) -> list[Action]:
    """Actions that answer ``p``'s pending decisions (to be filtered by legality)."""
    out: list[Action] = []
    if s.debts:
        out += [Action(A.PAY_DEBT, p), Action(A.AUTO_SETTLE, p), Action(A.DECLARE_BANKRUPTCY, p)]
    if s.placement is not None and s.placement[0] == p:
        out += [Action(A.PLACE_BUILDING, p, square=sq) for sq in SITES]
        out.append(Action(A.FORFEIT_BUILDING, p))
    au = s.auction
    if au is not None:
        out += [Action(A.PASS_BID, p), Action(A.BID, p, amount=au[2] + 1)]
    if s.wish is not None:
        out += [Action(A.DECLARE_WISH, p), Action(A.NO_WISH, p)]
    for t in s.trades:
        if t[2] == p:
            out += [Action(A.ACCEPT_TRADE, p, target=t[0]), Action(A.REJECT_TRADE, p, target=t[0])]
    for c in s.claims:
        if c[1] == p:
            out.append(Action(A.CLAIM_RENT, p, target=c[0]))
    if s.turn == p:
        out += [Action(k, p) for k in _TURN_KINDS]
    return out


_TURN_KINDS: Final = (
    A.ROLL, A.BUY, A.DECLINE, A.INCOME_TAX_FLAT, A.INCOME_TAX_PERCENT, A.PAY_TEN,
    A.TAKE_CHANCE, A.END_TURN,
)  # fmt: skip


class HeuristicBot(Bot):
    """Buys keeping a cash cushion, builds evenly on complete groups, bids
    up to its valuation, accepts trades that do not hurt it, proposes trades
    that complete its colour groups (``bot_trades``), and raises funds by
    mortgaging before selling houses (``auto_settle``). Every choice is read
    from the state: the site makes a fresh bot for each decision."""

    name = "heuristic"
    cushion: ClassVar[int] = CUSHION
    #: Trade window, see ``trade_window``: one end-of-move decision in this
    #: many (by ``State.seq``) looks for a trade.
    trade_every: ClassVar[int] = TRADE_EVERY

    def __init__(self, jail_policy: str = "pay", seed: int = 0) -> None:
        super().__init__(jail_policy, seed)
        # Complete groups and trade candidates change rarely: cached per
        # owner layout (in the simulator one bot object plays one seat).
        self._layout_p = -1
        self._layout: list[int] = []
        self._groups: list[tuple[int, ...]] | None = None
        self._mine: list[int] | None = None  # p's property in square order
        self._cands: list[tuple[int, int]] | None = None
        # candidate_groups of other seats (sellers), same layout.
        self._cands_of: dict[int, list[tuple[int, int]]] = {}

    def act(self, s: State, p: int) -> Action:
        if out_of_turn_open(s):
            a = self._out_of_turn(s, p)
            if a is not None:
                return a
        return self.act_in_turn(s, p)

    def act_in_turn(self, s: State, p: int) -> Action:
        """``act`` for the turn player when nothing is open out of turn (no
        debt, auction, placement, claim or trade): the simulator, which has
        just checked that, calls this directly."""
        phase = s.phase
        if phase == P_ROLL:
            if s.in_jail[p] and self.jail_policy == "pay":
                return self._leave_jail(s, p)
            return _ROLLS[p]
        if phase == P_END:
            return self._manage(s, p)
        return self._decide(s, p, phase)

    def _leave_jail(self, s: State, p: int) -> Action:
        cards = s.jail_cards[p]
        if cards[0] or cards[1]:
            return Action(A.USE_JAIL_CARD, p, target=0 if cards[0] else 1)
        if jail_fine_allowed(s, p) and s.cash[p] >= s.rules.jail_fine:
            return _new(Action, (A.PAY_JAIL_FINE, p, -1, 0, -1, None))
        return _ROLLS[p]

    def _out_of_turn(self, s: State, p: int) -> Action | None:
        if s.debts and in_debt(s, p):
            return _new(Action, (A.AUTO_SETTLE, p, -1, 0, -1, None))
        if s.placement is not None and s.placement[0] == p:
            for sq in SITES:
                a = Action(A.PLACE_BUILDING, p, square=sq)
                if is_legal(s, a):
                    return a
            return Action(A.FORFEIT_BUILDING, p)
        au = s.auction
        if au is not None and au[5 + p] and au[3] != p:
            return self._bid(s, p, au)
        w = s.wish
        if w is not None and w[3 + p] == WISH_WAITING and is_legal(s, Action(A.NO_WISH, p)):
            return Action(A.DECLARE_WISH if self._wishes(s, p, w[2]) else A.NO_WISH, p)
        for c in s.claims:
            if c[1] == p:
                return _new(Action, (A.CLAIM_RENT, p, -1, 0, c[0], None))
        for t in s.trades:
            if t[2] == p:
                if self._trade_ok(s, p, t[1], t[3]) and is_legal(
                    s, Action(A.ACCEPT_TRADE, p, target=t[0])
                ):
                    return Action(A.ACCEPT_TRADE, p, target=t[0])
                counter = self._counter(s, p, t[1], t[3])
                if counter is not None:
                    return Action(A.COUNTER_TRADE, p, target=t[0], terms=counter)
                return Action(A.REJECT_TRADE, p, target=t[0])
        return None

    def _decide(self, s: State, p: int, phase: int) -> Action:
        if phase == P_BUY:
            sq = s.pending_sq
            price = PRICE[sq]
            cash = s.cash[p]
            if cash >= price and (cash - price >= CUSHION or self._completes(s, p, sq)):
                return _new(Action, (A.BUY, p, -1, 0, -1, None))
            return _new(Action, (A.DECLINE, p, -1, 0, -1, None))
        if phase == P_END:
            return self._manage(s, p)
        if phase == P_TAX:
            if ten_percent(total_worth(s, p)) < s.rules.income_tax:
                return Action(A.INCOME_TAX_PERCENT, p)
            return Action(A.INCOME_TAX_FLAT, p)
        if phase == P_CHOICE:
            return Action(A.PAY_TEN if s.cash[p] >= 10 else A.TAKE_CHANCE, p)
        return Action(A.END_TURN, p)

    # -- helpers --

    def _completes(self, s: State, p: int, sq: int) -> bool:
        g = GROUP[sq]
        own = s.owner
        for m in GROUP_MEMBERS[g]:  # noqa: SIM110 - a plain loop is faster here
            if m != sq and own[m] != p:
                return False
        return True

    def value(self, s: State, p: int, sq: int) -> int:
        """What ``sq`` is worth to ``p``: more if it completes or blocks a group."""
        price = PRICE[sq]
        if self._completes(s, p, sq):
            return price * 3 // 2
        # Blocks someone's group: one player (not the bank) holds all the rest.
        own = s.owner
        holder = -2
        for m in GROUP_MEMBERS[GROUP[sq]]:
            if m != sq:
                o = own[m]
                if holder == -2:
                    holder = o
                elif o != holder:
                    return price
        if holder >= 0:
            return price * 6 // 5
        return price

    def _bid(self, s: State, p: int, au: list[int]) -> Action:
        high = au[2]
        if au[0] == 0:
            limit = min(self.value(s, p, au[1]), s.cash[p] - CUSHION // 2)
        else:
            limit = min(100, s.cash[p] - CUSHION)
        if limit <= high:
            return _new(Action, (A.PASS_BID, p, -1, 0, -1, None))
        if s.rules.auction_kind == AUCTION_SEALED:
            # One hidden bid: a little under what it is worth to the bot.
            return Action(A.BID, p, amount=max(1, limit * 4 // 5))
        step = max(10, limit // 10)
        amount = limit if high + step > limit else max(high + step, limit // 2)
        return _new(Action, (A.BID, p, -1, min(amount, limit), -1, None))

    def _manage(self, s: State, p: int) -> Action:
        # trade_window(s, p), inlined: this runs at every end-of-move decision.
        window = (s.seq + p) % TRADE_EVERY == 0 and (s.next_id + s.turn_no // s.n) % 2 == 0
        cash = s.cash[p]
        if not window and cash <= CUSHION + 50:
            return _ENDS[p]  # nothing to look at: no trade search, no spare cash
        own = s.owner
        if p != self._layout_p or own != self._layout:
            self._layout_p = p
            self._layout = own[:]
            self._groups = None  # these three are made when first needed
            self._mine = None
            self._cands = None
            self._cands_of = {}
        if window:
            if self._cands is None:
                self._cands = candidate_groups(own, p)
            if self._cands:
                offer = self._offer(s, p, self._cands)
                if offer is not None:
                    return offer
        if cash > CUSHION + 50:
            groups = self._groups
            if groups is None:
                groups = self._groups = [
                    members
                    for members in GROUP_MEMBERS[:8]
                    if own[members[0]] == p and own[members[1]] == p and own[members[-1]] == p
                ]
            mortgaged = s.mortgaged
            # blocked(s), inlined
            if (
                groups
                and s.turn == p
                and not s.debts
                and s.auction is None
                and s.placement is None
                and s.wish is None
            ):
                build = self._build(s, p, cash, groups)
                if build is not None:
                    return build
            if not any(mortgaged):  # not `True in`: compiled, that compares each item
                return _ENDS[p]
            # Lift mortgages in complete groups first (they stop building).
            for members in groups:
                for sq in members:
                    if mortgaged[sq] and cash - unmortgage_cost(s, sq) >= CUSHION:
                        return _new(Action, (A.UNMORTGAGE, p, sq, 0, -1, None))
            # Then any: only p's own property can match (a cached list, in
            # square order, so the first match is the same as scanning all).
            mine = self._mine
            if mine is None:
                mine = self._mine = [sq for sq in PROPERTIES if own[sq] == p]
            spare = cash - CUSHION * 2
            for sq in mine:
                if mortgaged[sq] and MORTGAGE[sq] <= spare and unmortgage_cost(s, sq) <= spare:
                    return _new(Action, (A.UNMORTGAGE, p, sq, 0, -1, None))
        return _ENDS[p]

    def _wishes(self, s: State, p: int, kind: int) -> bool:
        """In a building shortage: does ``p`` want a building of ``kind``,
        that is, would ``_manage`` build one of that kind now?"""
        cash = s.cash[p]
        if cash <= CUSHION + 50 or not could_wish(s, p, kind):
            return False
        own = s.owner
        groups = [
            members
            for members in GROUP_MEMBERS[:8]
            if own[members[0]] == p and own[members[1]] == p and own[members[-1]] == p
        ]
        a = self._build(s, p, cash, groups)
        return a is not None and build_kind(s, a.square) == kind

    def _build(self, s: State, p: int, cash: int, groups: list[tuple[int, ...]]) -> Action | None:
        """A house or hotel on the least-built site of a complete group,
        keeping the cushion. It runs the checks of ``build_error`` that can
        fail for the turn player with nothing blocking (cheaper here)."""
        bld = s.bld
        mortgaged = s.mortgaged
        hph = s.rules.houses_per_hotel
        for members in groups:
            # Build evenly: the (last) least-built site, unless the group has
            # a mortgage or only hotels.
            low = HOTEL
            best = -1
            for sq in members:
                if mortgaged[sq]:
                    best = -1
                    break
                if bld[sq] <= low:
                    low = bld[sq]
                    best = sq
            if (
                best >= 0
                and low < HOTEL
                and cash - HOUSE_COST[best] >= CUSHION
                and (s.bank_hotels if low == hph else s.bank_houses) > 0
            ):
                return _new(Action, (A.BUILD, p, best, 0, -1, None))
        return None

    @classmethod
    def trade_window(cls, s: State, p: int) -> bool:
        """Whether ``p`` looks for a trade at this end-of-move decision. Only
        the state decides (the site makes a fresh bot for every decision):
        one decision in ``trade_every`` by ``State.seq`` (searches stay rare
        and cheap), and only while ``next_id`` plus the round number is even.
        An offer takes an id, which closes the window until another id is
        taken (a rent claim, another offer) or the round changes: so at most
        one offer per move, and a refused offer is not made again at once."""
        return (s.seq + p) % TRADE_EVERY == 0 and (s.next_id + s.turn_no // s.n) % 2 == 0

    def _offer(self, s: State, p: int, cands: list[tuple[int, int]]) -> Action | None:
        """An offer completing one of ``p``'s groups, if one is worth making
        and ``p`` has none open and nothing else is being settled."""
        if s.debts or s.auction is not None or s.placement is not None or in_debt(s, p):
            return None
        for t in s.trades:
            if t[1] == p:
                return None
        found = find_offer(s, p, cands, CUSHION, self._cands_of)
        if found is None:
            return None
        q, terms = found
        # Checked as on acceptance too (the 10% on mortgaged property).
        if terms_error(s, p, q, terms, accepting=True):
            return None
        return Action(A.PROPOSE_TRADE, p, target=q, terms=terms)

    def _trade_ok(self, s: State, p: int, other: int, t: A.Terms) -> bool:
        """Accept when the trade is worth at least zero to ``p`` under
        ``bot_trades.offer_gain`` (the rule its own proposals are built on),
        so handing ``other`` a complete group needs good compensation; never
        pay cash below the cushion."""
        if t.take_cash and s.cash[p] - t.take_cash < CUSHION:
            return False
        gain = offer_gain(
            s,
            p,
            other,
            t.give_props,
            t.take_props,
            t.give_cash - t.take_cash,
            sum(t.give_cards) - sum(t.take_cards),
        )
        return gain >= 0

    def _counter(self, s: State, p: int, other: int, t: A.Terms) -> A.Terms | None:
        """The same exchange of property and cards at a cash price that is
        worth at least zero to both sides under ``offer_gain`` (so another
        heuristic bot accepts it and no counter-offer loop can start), or
        None if the offer was refused for another reason or no price works.
        The counter is from ``p``'s side: ``p`` gives what it was asked for."""
        cards = sum(t.give_cards) - sum(t.take_cards)
        base = offer_gain(s, p, other, t.give_props, t.take_props, 0, cards)
        if base + t.give_cash - t.take_cash >= 0:
            return None  # worth it, refused for cash or legality: no price helps
        if base >= 0:  # p would take it for nothing: it pays what it gains, keeping its cushion
            cash = -min(base // 10 * 10, max(0, s.cash[p] - CUSHION))
        else:  # other pays what p loses, rounded up to 10
            cash = -(base // 10) * 10
            if cash > s.cash[other]:
                return None
        if offer_gain(s, other, p, t.take_props, t.give_props, -cash, -cards) < 0:
            return None
        terms = A.Terms(
            give_props=t.take_props,
            give_cash=max(0, -cash),
            give_cards=t.take_cards,
            take_props=t.give_props,
            take_cash=max(0, cash),
            take_cards=t.give_cards,
        )
        if terms_error(s, p, other, terms, accepting=True):
            return None
        return terms


def make_bot(kind: str, jail_policy: str = "pay", seed: int = 0, rng: Rng | None = None) -> Bot:
    """A bot of ``kind``. A bot's own randomness comes from ``rng`` if given
    (the site passes ``bot_rng(state, version)``), else from ``seed``."""
    if kind == "random":
        return RandomBot(jail_policy, seed, rng)
    if kind == "heuristic":
        return HeuristicBot(jail_policy, seed)
    raise ValueError(f"Unknown bot {kind!r}; choose 'random' or 'heuristic'.")


__all__ = ["Bot", "HeuristicBot", "RandomBot", "make_bot", "next_actor"]

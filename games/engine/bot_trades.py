"""Trades for the heuristic bot: what an offer is worth, and which offer to make.

One valuation serves both sides. ``offer_gain`` says what a trade is worth to
one player: the equity of the property it receives minus what it gives, the
cash and cards, a premium for every colour group the trade completes for it,
and a share of that premium as a cost for every group it completes for the
other side. The bot accepts an offer worth at least zero to it, and proposes
the offer that completes one of its groups at the least cash the other side
accepts under the same rule, so two heuristic bots reach deals.

The premium for a complete group is the group's printed price. The share of
the other side's premium that a seller asks for falls as the game goes on
(half early, a quarter after 100 rounds), so stalled games trade more.
"""

from __future__ import annotations

from typing import Final

from .actions import Terms
from .board import GROUP, GROUP_MEMBERS, MORTGAGE, PRICE, PROPERTIES, ten_percent
from .state import State

#: Premium for owning a whole colour group (0 for railroads and utilities).
PREMIUM: Final[tuple[int, ...]] = tuple(
    sum(PRICE[m] for m in GROUP_MEMBERS[g]) if g < 8 else 0 for g in range(10)
)
SITE_GROUPS: Final[tuple[tuple[int, tuple[int, ...]], ...]] = tuple(
    (g, GROUP_MEMBERS[g]) for g in range(8)
)
CARD_VALUE: Final = 50  # a Get Out of Jail Free card
MAX_SWEETENERS: Final = 3  # properties added to an offer to save cash


def handover_share(s: State) -> int:
    """Percent of the other side's group premium a trade must pay for handing
    it a complete group: 50 early, falling to 25 after 100 rounds."""
    rounds = s.turn_no // max(1, s.n - len(s.bankrupt_order))
    return max(25, 50 - rounds // 4)


def _equity(s: State, sq: int) -> int:
    return PRICE[sq] - MORTGAGE[sq] if s.mortgaged[sq] else PRICE[sq]


def offer_gain(
    s: State,
    p: int,
    other: int,
    recv: tuple[int, ...] | list[int],
    give: tuple[int, ...] | list[int],
    cash: int,
    cards: int = 0,
    share: int = -1,
) -> int:
    """What a trade with ``other`` is worth to ``p``: it receives ``recv``,
    gives ``give``, gets ``cash`` net (negative: pays) and ``cards`` net.
    ``share`` defaults to ``handover_share(s)``."""
    if share < 0:
        share = handover_share(s)
    return gains_both(s, p, other, recv, give, share)[0] + cash + CARD_VALUE * cards


def gains_both(
    s: State,
    p: int,
    q: int,
    recv: tuple[int, ...] | list[int],
    give: tuple[int, ...] | list[int],
    share: int,
) -> tuple[int, int]:
    """``(offer_gain(s, p, q, recv, give, 0, 0, share), offer_gain(s, q, p,
    give, recv, 0, 0, share))`` in one pass: both sides see the same groups
    before and after, so the offer search values each swap once."""
    gp = gq = 0
    mortgaged = s.mortgaged
    groups = 0
    for sq in recv:
        if mortgaged[sq]:
            mv = MORTGAGE[sq]
            gp += PRICE[sq] - mv - ten_percent(mv)
            gq -= PRICE[sq] - mv
        else:
            gp += PRICE[sq]
            gq -= PRICE[sq]
        groups |= 1 << GROUP[sq]
    for sq in give:
        if mortgaged[sq]:
            mv = MORTGAGE[sq]
            gp -= PRICE[sq] - mv
            gq += PRICE[sq] - mv - ten_percent(mv)
        else:
            gp -= PRICE[sq]
            gq += PRICE[sq]
        groups |= 1 << GROUP[sq]
    groups &= 0xFF
    own = s.owner
    g = 0
    while groups:
        if groups & 1:
            before_p = before_q = after_p = after_q = True
            for m in GROUP_MEMBERS[g]:
                o = own[m]
                if o != p:
                    before_p = False
                if o != q:
                    before_q = False
                if m in recv:
                    o = p
                elif m in give:
                    o = q
                if o != p:
                    after_p = False
                if o != q:
                    after_q = False
            premium = PREMIUM[g]
            dp = after_p - before_p
            dq = after_q - before_q
            gp += premium * dp
            gp -= premium * share * dq // 100
            gq += premium * dq
            gq -= premium * share * dp // 100
        groups >>= 1
        g += 1
    return gp, gq


def candidate_groups(own: list[int], p: int) -> list[tuple[int, int]]:
    """``(group, seller)`` for each colour group ``p`` lacks only property
    held by one other player (nothing of it with the bank)."""
    out = []
    for g, members in SITE_GROUPS:
        q = -1
        mine = 0
        for m in members:
            o = own[m]
            if o == p:
                mine += 1
            elif o < 0 or (q >= 0 and o != q):
                break
            else:
                q = o
        else:
            if mine and q >= 0:
                out.append((g, q))
    return out


def _sweeteners(s: State, p: int, q: int) -> list[int]:
    """Property ``p`` may add to an offer to ``q`` in place of cash: none of
    a group ``p`` owns whole or ``q`` owns part of, so they complete or
    break no group for either side and count at their equity alone; the
    least useful to ``p`` (fewest of its group held) first, dearest first."""
    own = s.owner
    # Per group (not per property): how many sites p holds, or -1 if the
    # group is out (q holds part of it, or p holds all of it).
    held_in: list[int] = []
    for members in GROUP_MEMBERS:
        held = 0
        for m in members:
            o = own[m]
            if o == p:
                held += 1
            elif o == q:
                held = -1
                break
        held_in.append(held if held < len(members) else -1)
    out: list[tuple[int, int, int]] = []
    for sq in PROPERTIES:
        if own[sq] == p:
            held = held_in[GROUP[sq]]
            if held >= 0:
                out.append((held, -_equity(s, sq), sq))
    out.sort()
    return [sq for _, _, sq in out]


def _round_up(x: int) -> int:
    return -(-x // 10) * 10


def find_offer(
    s: State,
    p: int,
    candidates: list[tuple[int, int]],
    cushion: int,
    seller_cands: dict[int, list[tuple[int, int]]] | None = None,
) -> tuple[int, Terms] | None:
    """The best offer completing one of ``p``'s groups, as ``(seller, terms)``,
    or None. For each candidate it tries cash alone and each swap that
    completes a group for the seller too; the cash is the least the seller
    accepts under ``offer_gain`` (rounded up to 10), or what the seller can
    spare above ``cushion`` when the seller is to pay. ``p`` keeps
    ``cushion`` in hand, adding up to ``MAX_SWEETENERS`` spare properties in
    place of cash when short, and proposes only a trade worth at least zero
    to itself. The best is the one worth most to ``p``. ``seller_cands``
    caches ``candidate_groups`` of the sellers; the caller may keep it for
    as long as the owners do not change."""
    own = s.owner
    mortgaged = s.mortgaged
    cash_p = s.cash[p]
    share = handover_share(s)
    best: tuple[int, int, Terms] | None = None
    spares: dict[int, list[int]] = {}
    if seller_cands is None:
        seller_cands = {}
    for g, q in candidates:
        if not s.alive[q]:
            continue
        take = [m for m in GROUP_MEMBERS[g] if own[m] == q]
        interest = 0
        for m in take:
            if mortgaged[m]:
                interest += ten_percent(MORTGAGE[m])
        gives: list[list[int]] = [[]]
        q_cands = seller_cands.get(q)
        if q_cands is None:  # the same seller may hold several of p's groups
            q_cands = seller_cands[q] = candidate_groups(own, q)
        for g2, q2 in q_cands:
            if q2 == p and g2 != g:
                gives.append([m for m in GROUP_MEMBERS[g2] if own[m] == p])
        q_spare = max(0, s.cash[q] - cushion)
        for give in gives:
            gp, gq = gains_both(s, p, q, take, give, share)
            added = 0
            while True:
                x = _round_up(-gq)  # cash p -> q (negative: q pays p)
                if x < 0:
                    x = -(min(-x, q_spare) // 10 * 10)
                if gp - x < 0:
                    break
                if cash_p - x - interest >= cushion:
                    if best is None or gp - x > best[0]:
                        terms = Terms(
                            tuple(sorted(give)),
                            max(x, 0),
                            (0, 0),
                            tuple(sorted(take)),
                            max(-x, 0),
                            (0, 0),
                        )
                        best = (gp - x, q, terms)
                    break
                spare = spares.get(q)
                if spare is None:
                    spare = spares[q] = _sweeteners(s, p, q)
                if added >= MAX_SWEETENERS or added >= len(spare):
                    break
                sq = spare[added]
                added += 1
                give = [*give, sq]
                gp -= _equity(s, sq)
                gq += PRICE[sq]
                if mortgaged[sq]:
                    gq -= MORTGAGE[sq] + ten_percent(MORTGAGE[sq])
    if best is None:
        return None
    return best[1], best[2]

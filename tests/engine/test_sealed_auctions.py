"""Sealed-bid auctions (issue #17): one hidden bid each, highest wins at its
own price, ties to the earlier bid, closes as soon as everyone has bid."""

from __future__ import annotations

import pytest

from games.engine import (
    AUCTION_SEALED,
    D_BID,
    D_SEALED_BID,
    P_END,
    Action,
    HeuristicBot,
    NotEnoughCash,
    RuleViolation,
    State,
    auction_view,
    check_invariants,
    from_dict,
    is_sealed_bid,
    pending_decisions,
    render_event,
    sealed_bid,
    timeout_action,
    to_dict,
)

from .helpers import A, act, force_dice, game, kinds, setup


def sealed_auction(players: int = 3, **switches: object) -> State:
    """P0 lands on Baltic Avenue (3) and declines: a sealed-bid auction opens."""
    s = game(players=players, auction_kind=AUCTION_SEALED, **switches)
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, ev = act(s, A.DECLINE)
    assert "auction_start" in kinds(ev)
    return s


def test_the_switch_is_validated_and_presets_keep_open_auctions() -> None:
    from games.engine import PRESETS, RulesetError, ruleset

    assert all(r.auction_kind == "open" for r in PRESETS.values())
    assert ruleset(auction_kind="sealed").auction_kind == "sealed"
    with pytest.raises(RulesetError):
        ruleset(auction_kind="dutch")


def test_everyone_is_asked_for_one_sealed_bid() -> None:
    s = sealed_auction()
    pend = [p for p in pending_decisions(s) if p.kind in (D_BID, D_SEALED_BID)]
    assert [(p.player, p.kind, p.ref) for p in pend] == [(q, D_SEALED_BID, 3) for q in range(3)]
    au = auction_view(s)
    assert au is not None and au.sealed and au.still_in == (0, 1, 2)
    assert is_sealed_bid(s, Action(A.BID, 1, amount=5))
    assert is_sealed_bid(s, Action(A.PASS_BID, 1))


def test_highest_bid_wins_at_its_price_and_bids_stay_hidden_until_the_close() -> None:
    s = sealed_auction()
    s, ev = act(s, A.BID, 1, amount=40)
    # Nothing tells the others the amount: the event, the view, the pending list.
    assert kinds(ev) == ["sealed_bid"] and ev[0].args == ()
    au = auction_view(s)
    assert au is not None and au.high_bid == 0 and au.high_bidder == -1
    assert au.still_in == (0, 2)
    assert sealed_bid(s, 1) == 40 and sealed_bid(s, 2) is None
    assert {p.player for p in pending_decisions(s) if p.kind == D_SEALED_BID} == {0, 2}
    s, _ = act(s, A.BID, 2, amount=90)
    s, ev = act(s, A.BID, 0, amount=60)
    assert s.auction is None and s.owner[3] == 2 and s.cash[2] == 1500 - 90
    assert s.cash[0] == 1500 and s.cash[1] == 1500
    assert kinds(ev) == ["sealed_bid", "sealed_reveal", "sealed_reveal", "sealed_reveal",
                         "auction_won"]  # fmt: skip
    assert [(e.player, e.args) for e in ev if e.kind == "sealed_reveal"] == [
        (1, (40,)),
        (2, (90,)),
        (0, (60,)),
    ]
    assert ev[-1].args == (0, 3, 90)
    assert s.phase == P_END and s.bids == []


def test_a_tie_goes_to_the_earlier_bid() -> None:
    s = sealed_auction()
    s, _ = act(s, A.BID, 2, amount=70)
    s, _ = act(s, A.BID, 0, amount=70)
    s, _ = act(s, A.BID, 1, amount=50)
    assert s.owner[3] == 2 and s.cash[2] == 1430 and s.cash[0] == 1500


def test_closes_as_soon_as_everyone_has_bid_and_passes_count() -> None:
    s = sealed_auction()
    s, _ = act(s, A.PASS_BID, 0)
    s, _ = act(s, A.BID, 1, amount=0)  # a bid of 0 is a pass
    assert s.auction is not None
    s, ev = act(s, A.BID, 2, amount=1)
    assert s.auction is None and s.owner[3] == 2 and s.cash[2] == 1499
    line = render_event(ev[1], s.rules, s.names)
    assert line == "P0's sealed bid: pass."


def test_nobody_bidding_above_zero_leaves_the_property_with_the_bank() -> None:
    s = sealed_auction()
    for p in range(3):
        s, ev = act(s, A.PASS_BID, p)
    assert s.auction is None and s.owner[3] == -1
    assert "auction_unsold" in kinds(ev) and "auction_won" not in kinds(ev)


def test_one_bid_each_and_not_above_cash() -> None:
    s = sealed_auction()
    s = setup(s, cash={1: 30})
    with pytest.raises(NotEnoughCash, match="exceed your cash"):
        act(s, A.BID, 1, amount=31)
    with pytest.raises(RuleViolation):
        act(s, A.BID, 1, amount=-1)
    s, _ = act(s, A.BID, 1, amount=30)
    with pytest.raises(RuleViolation, match="already handed in"):
        act(s, A.BID, 1, amount=20)
    with pytest.raises(RuleViolation, match="already handed in"):
        act(s, A.PASS_BID, 1)


def test_timeout_default_is_a_pass() -> None:
    s = sealed_auction()
    s, _ = act(s, A.BID, 0, amount=10)
    assert timeout_action(s, 1) == Action(A.PASS_BID, 1)
    s, _ = act(s, A.PASS_BID, 1)
    s, _ = act(s, A.PASS_BID, 2)
    assert s.owner[3] == 0 and s.cash[0] == 1490


def test_bots_bid_at_once_and_in_any_order() -> None:
    s = sealed_auction()
    # Every bidder may act now, not only the next in turn order.
    bot = HeuristicBot()
    for p in (2, 1, 0):
        a = bot.act(s, p)
        assert a.kind in (A.BID, A.PASS_BID)
        assert a.amount <= s.cash[p]
        s, _ = act(s, a.kind, p, amount=a.amount)
    assert s.auction is None


def test_the_open_state_round_trips_and_keeps_invariants() -> None:
    s = sealed_auction()
    s, _ = act(s, A.BID, 1, amount=33)
    d = to_dict(s)
    assert d["bids"] == [[1, 33]]
    t = from_dict(d)
    assert t == s and not check_invariants(t)
    # States without a sealed auction write no ``bids`` (digests as before).
    s, _ = act(s, A.PASS_BID, 0)
    s, _ = act(s, A.PASS_BID, 2)
    assert "bids" not in to_dict(s) and from_dict(to_dict(s)) == s


def test_a_bidder_who_leaves_takes_their_bid_with_them() -> None:
    s = sealed_auction()
    s, _ = act(s, A.BID, 1, amount=200)
    s, _ = act(s, A.RESIGN, 1)
    s, _ = act(s, A.BID, 0, amount=5)
    s, _ = act(s, A.PASS_BID, 2)
    assert s.owner[3] == 0 and s.cash[0] == 1495


def test_open_auctions_unchanged() -> None:
    s = game(players=3)
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, _ = act(s, A.DECLINE)
    assert {p.kind for p in pending_decisions(s) if p.player == 1} == {D_BID}
    au = auction_view(s)
    assert au is not None and not au.sealed
    assert not is_sealed_bid(s, Action(A.BID, 1, amount=5))

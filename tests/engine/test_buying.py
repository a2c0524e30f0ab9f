"""Buying and auctions (seed 003 BUYING PROPERTY; 002 for no auctions)."""

from __future__ import annotations

import pytest

from games.engine import (
    P_BUY,
    P_END,
    IllegalAction,
    NotEnoughCash,
    RuleViolation,
    State,
    auction_view,
    pending_decisions,
)

from .helpers import A, act, force_dice, game, kinds, setup


def land_on_baltic(players: int = 3, **switches: object) -> State:
    s = game(players=players, **switches)
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    assert s.phase == P_BUY and s.pending_sq == 3
    return s


def test_buy_at_printed_price() -> None:
    """Rule: buy an unowned property from the bank at its printed price (003)."""
    s = land_on_baltic()
    s, _ev = act(s, A.BUY)
    assert s.owner[3] == 0 and s.cash[0] == 1440 and s.phase == P_END


def test_buying_needs_the_cash() -> None:
    """Rule: the buyer pays the printed price in cash (003)."""
    s = land_on_baltic()
    s = setup(s, cash={0: 59})
    with pytest.raises(NotEnoughCash):
        act(s, A.BUY)


def test_declining_starts_an_auction_the_decliner_may_join() -> None:
    """Rule: declined property is auctioned; any player, the decliner too, may bid (003)."""
    s = land_on_baltic()
    s, ev = act(s, A.DECLINE)
    assert "auction_start" in kinds(ev)
    bidders = {d.player for d in pending_decisions(s) if d.kind == "bid"}
    assert bidders == {0, 1, 2}
    s, _ = act(s, A.BID, player=0, amount=1)  # bidding may start at any price
    au = auction_view(s)
    assert au is not None and au.high_bid == 1


def test_highest_bid_wins_when_all_others_pass() -> None:
    """Rule: the auction sells to the highest bidder (003)."""
    s = land_on_baltic()
    s, _ = act(s, A.DECLINE)
    s, _ = act(s, A.BID, player=1, amount=10)
    s, _ = act(s, A.BID, player=2, amount=30)
    s, _ = act(s, A.PASS_BID, player=0)
    assert s.auction is not None
    s, ev = act(s, A.PASS_BID, player=1)
    assert s.auction is None and s.owner[3] == 2 and s.cash[2] == 1470
    assert "auction_won" in kinds(ev)


def test_bid_must_beat_the_high_bid_and_not_exceed_cash() -> None:
    """Rule: a bid may not exceed the bidder's cash (issue 3; 003 pays "in cash")."""
    s = land_on_baltic()
    s, _ = act(s, A.DECLINE)
    s, _ = act(s, A.BID, player=1, amount=50)
    with pytest.raises(RuleViolation):
        act(s, A.BID, player=2, amount=50)
    with pytest.raises(NotEnoughCash):
        act(s, A.BID, player=2, amount=1501)
    with pytest.raises(RuleViolation):
        act(s, A.BID, player=1, amount=60)  # already highest


def test_auction_without_bids_leaves_property_with_the_bank() -> None:
    """Rule: with no bidder the property stays unowned (003; engine choice)."""
    s = land_on_baltic()
    s, _ = act(s, A.DECLINE)
    for q in (0, 1, 2):
        s, ev = act(s, A.PASS_BID, player=q)
    assert s.owner[3] == -1 and "auction_unsold" in kinds(ev)


def test_turn_waits_for_the_auction() -> None:
    """Rule: the turn goes on once the auction is settled (003)."""
    s = land_on_baltic()
    s, _ = act(s, A.DECLINE)
    with pytest.raises(IllegalAction):
        act(s, A.END_TURN)


def test_quick_web_has_no_auctions() -> None:
    """Rule: "no opportunity for a property to be put up for auction" (002)."""
    s = land_on_baltic(preset="quick-web")
    s, ev = act(s, A.DECLINE)
    assert s.auction is None and "auction_start" not in kinds(ev) and s.owner[3] == -1


def test_auctions_switch_off() -> None:
    """Switch auctions=False on the default preset (variants row "declined property")."""
    s = land_on_baltic(auctions=False)
    s, _ = act(s, A.DECLINE)
    assert s.auction is None and s.phase == P_END

"""The read model: named views of auctions, claims, offers, debts, placements."""

from __future__ import annotations

import pytest

from games import engine

from .helpers import act, force_dice, game, use_up_houses


def declined_baltic(players: int = 3) -> engine.State:
    s = game(players=players)
    force_dice(s, (1, 2))
    s, _ = act(s, engine.ROLL)
    s, _ = act(s, engine.DECLINE)
    return s


def test_no_open_records_give_empty_views() -> None:
    s = game()
    assert engine.auction_view(s) is None and engine.placement(s) is None
    assert engine.claims(s) == [] and engine.offers(s) == [] and engine.debts(s) == []


def test_auction_view_names_the_item_the_high_bid_and_who_is_still_in() -> None:
    s = declined_baltic()
    au = engine.auction_view(s)
    assert au == engine.AuctionView(engine.A_PROPERTY, 3, 0, -1, 0, (0, 1, 2))
    assert au.lowest_bid == 1 and au.bidders == (0, 1, 2)
    s, _ = act(s, engine.BID, player=1, amount=40)
    s, _ = act(s, engine.PASS_BID, player=2)
    au = engine.auction_view(s)
    assert au is not None
    assert (au.high_bid, au.high_bidder, au.still_in) == (40, 1, (0, 1))
    assert au.lowest_bid == 41 and au.bidders == (0,)
    assert {d.player for d in engine.pending_decisions(s) if d.kind == engine.D_BID} == {0}


def test_claims_view_names_every_field() -> None:
    s = engine.setup(game(players=3), owners={39: 0}, positions={1: 33}, turn=1)
    force_dice(s, (2, 4))
    s, _ = act(s, engine.ROLL)
    (claim,) = engine.claims(s)
    assert claim == engine.Claim(claim.id, 0, 1, 39, 50, s.turn_no, s.roll_no)
    assert claim.id > 0


def test_offers_view_names_proposer_recipient_and_terms() -> None:
    s = engine.setup(game(), owners={39: 0})
    terms = engine.Terms(give_props=(39,), take_cash=400)
    s, _ = act(s, engine.PROPOSE_TRADE, player=0, target=1, terms=terms)
    (offer,) = engine.offers(s)
    assert (offer.proposer, offer.recipient, offer.terms) == (0, 1, terms)
    assert engine.Pending(1, engine.D_TRADE, offer.id, False) in engine.pending_decisions(s)


def test_debts_view() -> None:
    s = engine.setup(
        game("us-2003", players=3, rent_collection="automatic"),
        owners={37: 0, 39: 0},
        buildings={37: engine.HOTEL, 39: engine.HOTEL},
        cash={1: 100},
        positions={1: 33},
        turn=1,
    )
    force_dice(s, (2, 4))
    s, _ = act(s, engine.ROLL)
    assert engine.debts(s) == [engine.Debt(1, 0, 2000)]


def test_placement_view_names_the_building_won_at_auction() -> None:
    s = engine.setup(game(players=3), owners={6: 0, 8: 0, 9: 0, 1: 1, 3: 1}, cash={2: 10})
    s = use_up_houses(s, 2, 31)
    s, _ = act(s, engine.BUILD, player=0, square=6)  # one house left, two could want it
    assert engine.shortage(s) == engine.Shortage(0, 6, engine.A_HOUSE, (1,), ())
    s, _ = act(s, engine.DECLARE_WISH, player=1)  # and both do
    s, _ = act(s, engine.BID, player=1, amount=80)
    s, _ = act(s, engine.PASS_BID, player=0)
    assert engine.placement(s) == engine.Placement(1, engine.A_HOUSE, 80)


def test_views_are_read_only_snapshots() -> None:
    s = declined_baltic()
    au = engine.auction_view(s)
    assert au is not None
    with pytest.raises(AttributeError):
        au.high_bid = 99  # type: ignore[misc]
    s2, _ = act(s, engine.BID, player=2, amount=10)
    assert au.high_bid == 0 and engine.auction_view(s2).high_bid == 10  # type: ignore[union-attr]

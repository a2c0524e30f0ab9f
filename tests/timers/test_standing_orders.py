"""Standing orders as a pure function of the state (no database)."""

from __future__ import annotations

from games import engine
from games.decisions import standing_action
from games.standing_orders import clean
from tests.engine.helpers import game


def on_buy(square: int = 39, cash: int = 1500) -> engine.State:
    """Player 0 has landed on the unowned ``square`` and must decide."""
    s = engine.setup(game(), positions={0: square - 6}, cash={0: cash})
    engine.force_dice(s, (2, 4))
    s, _ = engine.apply(s, engine.Action(engine.ROLL, 0))
    return s


def test_no_orders_do_nothing() -> None:
    assert standing_action(on_buy(), 0, {}) is None
    assert standing_action(on_buy(), 0, "junk") is None


def test_auto_buy_keeps_the_cash_floor() -> None:
    s = on_buy(39, cash=1000)  # Boardwalk, $400
    assert standing_action(s, 0, {"buy_min_cash_left": 600}).kind == engine.BUY
    assert standing_action(s, 0, {"buy_min_cash_left": 601}) is None


def auction(cash: int = 1500) -> engine.State:
    s = on_buy(39, cash=cash)
    s, _ = engine.apply(s, engine.Action(engine.DECLINE, 0))
    assert engine.auction_view(s) is not None
    return s


def test_auction_orders_pass_or_bid_the_least_up_to_a_limit() -> None:
    s = auction()
    assert standing_action(s, 1, {"auction": "pass"}).kind == engine.PASS_BID
    bid = standing_action(s, 1, {"auction": "printed"})
    assert (bid.kind, bid.amount) == (engine.BID, 1)
    # The high bid reaches Boardwalk's printed price.
    s, _ = engine.apply(s, engine.Action(engine.BID, 0, amount=400))
    assert standing_action(s, 1, {"auction": "printed"}).kind == engine.PASS_BID
    assert standing_action(s, 1, {"auction": "upto", "auction_max": 450}).amount == 401


def test_jail_orders_use_a_card_pay_or_roll() -> None:
    s = engine.setup(game(), jail={0: 0})
    assert standing_action(s, 0, {"jail": "pay"}).kind == engine.PAY_JAIL_FINE
    assert standing_action(s, 0, {"jail": "roll"}).kind == engine.ROLL
    assert standing_action(s, 0, {"jail": "card"}) is None  # no card held


def test_auto_roll_only_when_rolling_is_the_only_decision() -> None:
    s = game()
    assert standing_action(s, 0, {"auto_roll": True}).kind == engine.ROLL
    assert standing_action(on_buy(), 0, {"auto_roll": True}) is None


def on_claim() -> engine.State:
    """Player 0 has landed on player 1's Baltic Avenue: 1 may claim."""
    s = engine.setup(game(), owners={3: 1})
    engine.force_dice(s, (1, 2))
    s, _ = engine.apply(s, engine.Action(engine.ROLL, 0))
    assert engine.claims(s)
    return s


def test_rent_is_claimed_by_default_unless_turned_off() -> None:
    assert clean({})["claim_rent"] is True
    claim = standing_action(on_claim(), 1, {})
    assert claim is not None and claim.kind == engine.CLAIM_RENT
    assert clean({"claim_rent": False})["claim_rent"] is False
    assert standing_action(on_claim(), 1, {"claim_rent": False}) is None


def test_orders_are_cleaned_of_junk() -> None:
    assert clean({"auction": "all-in", "auction_max": -5, "buy_min_cash_left": "x"}) == clean({})

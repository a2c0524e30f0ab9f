"""Mortgages (003 MORTGAGES; board-and-cards rounding) and trades (003 SELLING
PROPERTY, MISCELLANEOUS; variants "other points")."""

from __future__ import annotations

import pytest

from games.engine import (
    IllegalAction,
    NotEnoughCash,
    RuleViolation,
    offers,
    pending_decisions,
    ten_percent,
)

from .helpers import A, act, deal, game, kinds, setup


def test_mortgage_pays_half_the_price() -> None:
    """Rule: mortgage value printed on the deed, half the price (003; 001)."""
    s = game()
    s = deal(s, 0, 39)
    s, _ev = act(s, A.MORTGAGE, square=39)
    assert s.mortgaged[39] and s.cash[0] == 1700


def test_lifting_costs_principal_plus_ten_percent_rounded_up() -> None:
    """Rule: lift at mortgage + 10% interest; 75 -> 83 rounds up (board-and-cards)."""
    assert ten_percent(75) == 8 and ten_percent(200) == 20
    s = game()
    s = deal(s, 0, 12)
    s, _ = act(s, A.MORTGAGE, square=12)
    s, _ = act(s, A.UNMORTGAGE, square=12)
    assert s.cash[0] == 1500 + 75 - 83 and not s.mortgaged[12]


def test_mortgaging_an_improved_group_is_refused() -> None:
    """Rule: buildings must be sold before mortgaging (003 MORTGAGES)."""
    s = game()
    s = deal(s, 0, 1, 3)
    s, _ = act(s, A.BUILD, square=1)
    with pytest.raises(RuleViolation):
        act(s, A.MORTGAGE, square=3)


def test_lifting_needs_the_cash() -> None:
    """Rule: the owner must pay the bank to lift (003)."""
    s = setup(game(), owners={39: 0}, mortgaged=[39], cash={0: 100})
    with pytest.raises(IllegalAction):
        act(s, A.UNMORTGAGE, square=39)


def trade(s, frm: int, to: int, **terms: object):  # type: ignore[no-untyped-def]
    s, _ = act(s, A.PROPOSE_TRADE, player=frm, target=to, terms=A.Terms(**terms))  # type: ignore[arg-type]
    return s, offers(s)[-1].id


def test_trade_exchanges_property_cash_and_jail_cards() -> None:
    """Rule: unimproved property, cash and jail cards at any agreed price (003; variants)."""
    s = setup(game(), owners={1: 0, 3: 1}, jail_cards={1: (1, 0)})
    s, tid = trade(s, 0, 1, give_props=(1,), give_cash=100, take_props=(3,), take_cards=(1, 0))
    assert any(d.kind == "trade_response" and d.player == 1 for d in pending_decisions(s))
    s, _ev = act(s, A.ACCEPT_TRADE, player=1, target=tid)
    assert s.owner[1] == 1 and s.owner[3] == 0 and s.cash == [1400, 1600]
    assert s.jail_cards[0] == [1, 0] and s.jail_cards[1] == [0, 0]


def test_trading_is_allowed_out_of_turn() -> None:
    """Rule: trades between any two players at any time (issue 3; 004 community)."""
    s = game(players=3)
    s = deal(s, 1, 3)
    s, tid = trade(s, 1, 2, give_props=(3,), take_cash=50)
    s, _ = act(s, A.ACCEPT_TRADE, player=2, target=tid)
    assert s.owner[3] == 2


def test_property_in_a_built_group_cannot_be_traded() -> None:
    """Rule: no property sold while buildings stand on its group (003 SELLING PROPERTY)."""
    s = game()
    s = deal(s, 0, 1, 3)
    s, _ = act(s, A.BUILD, square=3)
    with pytest.raises(RuleViolation, match="buildings"):
        trade(s, 0, 1, give_props=(1,), take_cash=10)


def test_no_loans_cash_must_be_on_hand() -> None:
    """Rule: no player may borrow from or lend to another (003 MISCELLANEOUS)."""
    s = game()
    s = deal(s, 0, 1)
    with pytest.raises(RuleViolation, match="no loans"):
        trade(s, 0, 1, give_props=(1,), take_cash=5000)


def test_trade_is_rechecked_when_accepted() -> None:
    """Rule: an offer is checked again on acceptance (issue 3)."""
    s = game(players=3)
    s = deal(s, 0, 1)
    s, tid = trade(s, 0, 1, give_props=(1,), take_cash=100)
    s, other = trade(s, 0, 2, give_props=(1,), take_cash=90)
    s, _ = act(s, A.ACCEPT_TRADE, player=2, target=other)
    with pytest.raises(RuleViolation):
        act(s, A.ACCEPT_TRADE, player=1, target=tid)
    s, _ = act(s, A.REJECT_TRADE, player=1, target=tid)
    assert not s.trades


def test_counter_offer_replaces_the_offer_and_withdraw_cancels() -> None:
    """Rule: offers can be countered or withdrawn (issue 3)."""
    s = game()
    s = deal(s, 0, 1)
    s, tid = trade(s, 0, 1, give_props=(1,), take_cash=100)
    counter = A.Terms(give_cash=60, take_props=(1,))
    s, ev = act(s, A.COUNTER_TRADE, player=1, target=tid, terms=counter)
    assert "trade_rejected" in kinds(ev) and offers(s)[0].proposer == 1
    s, ev = act(s, A.WITHDRAW_TRADE, player=1, target=offers(s)[0].id)
    assert not s.trades and "trade_withdrawn" in kinds(ev)


def test_mortgaged_property_costs_the_new_owner_ten_percent_at_once() -> None:
    """Rule: new owner pays 10% on transfer, and another 10% when lifting later (003)."""
    s = game()
    s = deal(s, 0, 39)
    s = setup(s, mortgaged=[39])
    s, tid = trade(s, 0, 1, give_props=(39,), take_cash=10)
    s, ev = act(s, A.ACCEPT_TRADE, player=1, target=tid)
    assert s.cash[1] == 1500 - 10 - 20 and "interest" in kinds(ev)
    # Later (after a throw) lifting costs principal + another 10%.
    s.fresh.clear()
    s, _ = act(s, A.UNMORTGAGE, player=1, square=39)
    assert s.cash[1] == 1470 - 220


def test_new_owner_may_lift_at_once_for_principal_plus_the_ten_percent_already_paid() -> None:
    """Rule: "you may lift the mortgage at once ... mortgage plus 10% interest" (003)."""
    s = game()
    s = deal(s, 0, 39)
    s = setup(s, mortgaged=[39])
    s, tid = trade(s, 0, 1, give_props=(39,), take_cash=10)
    s, _ = act(s, A.ACCEPT_TRADE, player=1, target=tid)
    s, _ = act(s, A.UNMORTGAGE, player=1, square=39)
    assert s.cash[1] == 1500 - 10 - 20 - 200  # 200 principal + 20 interest in all


def test_trade_refused_when_the_interest_cannot_be_paid() -> None:
    """Rule: the 10% is due at once (003); the recheck refuses what cannot be paid."""
    s = setup(game(), owners={39: 0}, mortgaged=[39], cash={1: 10})
    s, tid = trade(s, 0, 1, give_props=(39,), take_cash=0, give_cash=0)
    with pytest.raises(RuleViolation, match="interest"):
        act(s, A.ACCEPT_TRADE, player=1, target=tid)


def test_only_the_recipient_answers_an_offer() -> None:
    """Rule: an offer is answered by the player it was made to (issue 3)."""
    s = game(players=3)
    s = deal(s, 0, 1)
    s, tid = trade(s, 0, 1, give_props=(1,))
    with pytest.raises(IllegalAction):
        act(s, A.ACCEPT_TRADE, player=2, target=tid)
    with pytest.raises(NotEnoughCash.__mro__[1]):
        act(s, A.WITHDRAW_TRADE, player=1, target=tid)

"""Debts, raising funds and bankruptcy (003 BANKRUPTCY; 002 going into debt;
short games of 003 and 000/004)."""

from __future__ import annotations

import pytest

from games.engine import (
    HOTEL,
    P_OVER,
    P_ROLL,
    IllegalAction,
    RuleViolation,
    State,
    auction_view,
    pending_decisions,
    timeout_action,
)

from .helpers import A, act, deal, force_dice, game, kinds, setup


def owes_rent(preset: str = "us-2003", players: int = 3, cash: int = 100, **kw: object) -> State:
    """Player 1 lands on player 0's hotel on Boardwalk with only ``cash``."""
    s = game(preset, players=players, rent_collection="automatic", **kw)  # type: ignore[arg-type]
    s = setup(
        s,
        owners={37: 0, 39: 0},
        buildings={37: s.rules.houses_per_hotel, 39: HOTEL},
        cash={1: cash},
        positions={1: 33},
        turn=1,
    )
    force_dice(s, (2, 4))
    s, ev = act(s, A.ROLL)
    assert "debt" in kinds(ev)
    return s


def test_a_payment_larger_than_cash_becomes_a_debt_that_blocks_play() -> None:
    """Rule: "you can not go into debt"; raise the cash or go bankrupt (002; 003)."""
    s = owes_rent()
    assert s.cash[1] == 100 and s.debts == [[1, 0, 2000]]
    assert pending_decisions(s)[0].kind == "raise_funds"
    with pytest.raises(IllegalAction):
        act(s, A.END_TURN)


def test_raise_funds_by_mortgaging_then_pay() -> None:
    """Rule: mortgage or sell to raise funds, then pay (003 MORTGAGES; 002)."""
    s = owes_rent(cash=100)
    s.debts[0][2] = 250
    s = deal(s, 1, 5, 15)
    s, _ = act(s, A.MORTGAGE, square=5)
    with pytest.raises(IllegalAction):
        act(s, A.PAY_DEBT)
    s, _ = act(s, A.MORTGAGE, square=15)
    with pytest.raises(RuleViolation):
        act(s, A.DECLARE_BANKRUPTCY)  # can pay, so cannot go bankrupt
    s, _ev = act(s, A.PAY_DEBT)
    assert not s.debts and s.cash[1] == 50 and s.cash[0] == 1750


def test_bankruptcy_to_a_player_gives_everything_to_the_creditor() -> None:
    """Rule: buildings sold to the bank at half, cash to the creditor, mortgaged
    property passes and the new owner pays 10% (003 BANKRUPTCY)."""
    s = owes_rent(cash=100)
    s = setup(
        s,
        owners={1: 1, 3: 1, 12: 1},
        buildings={1: 1, 3: 1},
        mortgaged=[12],
        jail_cards={1: (1, 0)},
    )
    s, _ev = act(s, A.DECLARE_BANKRUPTCY)
    assert not s.alive[1] and s.cash[1] == 0
    assert s.owner[1] == s.owner[3] == s.owner[12] == 0 and s.bld[1] == 0
    # 100 cash + 2 houses at half (50) - 10% interest on Electric Company (8)
    assert s.cash[0] == 1500 + 100 + 50 - 8
    assert s.jail_cards[0] == [1, 0] and s.mortgaged[12]
    assert s.turn == 2


def test_bankruptcy_to_the_bank_auctions_the_property_at_once() -> None:
    """Rule: the bank takes all and auctions the property, not buildings (003)."""
    s = setup(
        game(players=3),
        owners={1: 1, 3: 1},
        mortgaged=[3],
        cash={1: 10},
        positions={1: 35},
        turn=1,
    )
    force_dice(s, (1, 2))  # Luxury Tax 75
    s, _ = act(s, A.ROLL)
    s, ev = act(s, A.DECLARE_BANKRUPTCY)
    assert "auction_start" in kinds(ev) and (au := auction_view(s)) is not None and au.square == 1
    assert s.auction_queue == [3] and not s.mortgaged[3]


def test_quick_web_bankruptcy_to_the_bank_has_no_auction() -> None:
    """Rule: "everything to the bank" (002 going into debt)."""
    s = setup(
        game("quick-web", players=3),
        owners={1: 1, 3: 1},
        cash={1: 10},
        positions={1: 35},
        turn=1,
    )
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, _ev = act(s, A.DECLARE_BANKRUPTCY)
    assert s.auction is None and s.owner[1] == s.owner[3] == -1


def test_last_player_left_wins() -> None:
    """Rule: "The last player left in the game wins" (003)."""
    s = owes_rent(players=2)
    s, _ev = act(s, A.DECLARE_BANKRUPTCY)
    assert s.phase == P_OVER and s.winner == 0 and s.end_reason == "last_player"


def test_timeout_liquidates_then_goes_bankrupt_if_still_short() -> None:
    """Rule: default on a debtor's deadline: liquidate, then bankrupt (issue 3)."""
    s = owes_rent(cash=100)
    s = deal(s, 1, 5)
    a = timeout_action(s, 1)
    assert a.kind == A.AUTO_SETTLE
    s, ev = act(s, a.kind, player=1)
    assert "mortgage" in kinds(ev) and "bankrupt" in kinds(ev)


def test_timeout_liquidation_pays_when_enough() -> None:
    """Rule: raise funds by mortgaging before selling houses (issue 3 heuristic)."""
    s = owes_rent(cash=100)
    s.debts[0][2] = 200
    s = setup(s, owners={5: 1, 6: 1, 8: 1, 9: 1}, buildings={6: 1, 8: 1, 9: 1})
    s, _ev = act(s, A.AUTO_SETTLE, player=1)
    assert not s.debts and s.bld[6] == 1 and s.mortgaged[5]


def test_short_2003_ends_at_the_first_bankruptcy_and_values_everyone() -> None:
    """Rule: short game ends when one player goes bankrupt; richest wins (003 short 5)."""
    s = owes_rent("short-2003")
    s, _ev = act(s, A.DECLARE_BANKRUPTCY)
    assert s.phase == P_OVER and s.end_reason == "first_bankruptcy"
    assert s.winner == max((0, 2), key=lambda p: s.values[p])


def test_short_classic_ends_at_the_second_bankruptcy_with_buildings_passing_intact() -> None:
    """Rule: second bankruptcy ends the game; assets incl. buildings to the creditor (000 short 3)."""
    s = owes_rent("short-classic", players=4)
    s, _ = act(s, A.DECLARE_BANKRUPTCY)
    assert s.phase != P_OVER
    # A second player owes player 0 and has a house.
    owners = {sq: -1 for sq in range(40) if s.owner[sq] == 2}
    s = setup(
        s,
        owners={**owners, 1: 2, 3: 2},
        buildings={1: 1},
        cash={2: 10},
        positions={2: 33},
        turn=2,
        phase=P_ROLL,
    )
    force_dice(s, (2, 4))
    s, _ = act(s, A.ROLL)
    s, _ev = act(s, A.DECLARE_BANKRUPTCY)
    assert s.phase == P_OVER and s.end_reason == "second_bankruptcy"
    assert s.owner[1] == 0 and s.bld[1] == 1


def test_end_condition_switch_first_bankruptcy() -> None:
    """Switch end_condition on the regular game."""
    s = owes_rent(end_condition="first_bankruptcy")
    s, _ = act(s, A.DECLARE_BANKRUPTCY)
    assert s.phase == P_OVER


def test_resigning_hands_everything_to_the_bank() -> None:
    """Rule: leaving the game is treated as bankruptcy to the bank (003 BANKRUPTCY)."""
    s = game(players=3)
    s = deal(s, 1, 1, 3)
    s, ev = act(s, A.RESIGN, player=1)
    assert not s.alive[1] and s.cash[1] == 0 and "resign" in kinds(ev)
    assert (au := auction_view(s)) is not None and au.square == 1

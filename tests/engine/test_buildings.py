"""Houses and hotels (003 HOUSES, HOTELS, BUILDING SHORTAGES, SELLING PROPERTY;
000/004 selling a group at once; 001 building in one's own turn)."""

from __future__ import annotations

import pytest

from games.engine import (
    A_HOUSE,
    HOTEL,
    Placement,
    RuleViolation,
    State,
    pending_decisions,
    placement,
)

from .helpers import A, act, deal, game, kinds, setup, use_up_houses


def monopoly(preset: str = "us-2003", players: int = 2, **kw: object) -> State:
    s = game(preset, players=players, **kw)  # type: ignore[arg-type]
    s = deal(s, 0, 6, 8, 9)  # light blues, houses cost 50
    return s


def build(s: State, *squares: int, player: int = 0) -> State:
    for sq in squares:
        s, _ = act(s, A.BUILD, player=player, square=sq)
    return s


def test_building_needs_the_whole_colour_group() -> None:
    """Rule: houses only when you own all the group (003 HOUSES)."""
    s = game()
    s = deal(s, 0, 6, 8)
    with pytest.raises(RuleViolation):
        act(s, A.BUILD, square=6)


def test_houses_cost_the_title_deed_price() -> None:
    """Rule: pay the price shown on the Title Deed (003 HOUSES)."""
    s = build(monopoly(), 6)
    assert s.bld[6] == 1 and s.cash[0] == 1450 and s.bank_houses == 31


def test_build_evenly() -> None:
    """Rule: no second house on a site until each site has one (003 HOUSES)."""
    s = build(monopoly(), 6)
    with pytest.raises(RuleViolation):
        act(s, A.BUILD, square=6)
    s = build(s, 8, 9, 6)
    assert [s.bld[q] for q in (6, 8, 9)] == [2, 1, 1]


def test_hotel_after_four_houses_each_returns_the_houses() -> None:
    """Rule: four houses on each site, then a hotel; the four return to the bank (003 HOTELS)."""
    s = build(monopoly(), *([6, 8, 9] * 4))
    assert s.bank_houses == 20
    s = build(s, 6)
    assert s.bld[6] == HOTEL and s.bank_houses == 24 and s.bank_hotels == 11
    with pytest.raises(RuleViolation):
        act(s, A.BUILD, square=6)  # one hotel per site


def test_short_game_hotel_after_three_houses() -> None:
    """Rule: short game: three houses, then a hotel (003 short game 2; 000 short game 2)."""
    s = monopoly("short-2003")
    s = setup(s, owners={sq: -1 for sq in range(40) if s.owner[sq] >= 0})
    s = deal(s, 0, 6, 8, 9)
    s = build(s, *([6, 8, 9] * 3), 6)
    assert s.bld[6] == HOTEL and s.bank_houses == 32 - 9 + 3


def test_houses_per_hotel_switch() -> None:
    """Switch houses_per_hotel=3 on the regular game."""
    s = build(monopoly(houses_per_hotel=3), *([6, 8, 9] * 3), 9)
    assert s.bld[9] == HOTEL


def test_no_building_while_a_site_of_the_group_is_mortgaged() -> None:
    """Rule: no building while any site of the group is mortgaged (variants "other points")."""
    s = monopoly()
    s, _ = act(s, A.MORTGAGE, square=9)
    with pytest.raises(RuleViolation):
        act(s, A.BUILD, square=6)


def test_bank_runs_out_of_houses() -> None:
    """Rule: when the bank has no houses, wait (003 BUILDING SHORTAGES)."""
    s = monopoly(players=3)
    s = use_up_houses(s, 2, 32)
    assert s.bank_houses == 0
    with pytest.raises(RuleViolation, match="no houses"):
        act(s, A.BUILD, square=6)


def test_scarce_houses_are_auctioned_when_two_players_want_them() -> None:
    """Rule: two or more players wish to buy more than the bank has: auction (003)."""
    s = monopoly(players=3)
    s = deal(s, 1, 1, 3)  # browns for player 1
    s = use_up_houses(s, 2, 31)
    s = setup(s, cash={2: 10})  # player 2 cannot afford more
    s, ev = act(s, A.BUILD, square=6)
    assert kinds(ev) == ["shortage"] and s.bld[6] == 0  # player 1 is asked first
    s, ev = act(s, A.DECLARE_WISH, player=1)
    assert "auction_start" in kinds(ev) and s.bld[6] == 0
    bidders = {d.player for d in pending_decisions(s) if d.kind == "bid"}
    assert bidders == {0, 1}
    s, _ = act(s, A.BID, player=1, amount=80)
    s, ev = act(s, A.PASS_BID, player=0)
    assert placement(s) == Placement(1, A_HOUSE, 80)
    s, ev = act(s, A.PLACE_BUILDING, player=1, square=3)
    assert s.bld[3] == 1 and s.bank_houses == 0 and s.cash[1] == 1420


def test_shortage_auctions_switch_off() -> None:
    """Switch building_shortage_auctions=False: first come, first served (002)."""
    s = monopoly(players=3, building_shortage_auctions=False)
    s = deal(s, 1, 1, 3)
    s = use_up_houses(s, 2, 31)
    s, ev = act(s, A.BUILD, square=6)
    assert s.bld[6] == 1 and "auction_start" not in kinds(ev)


def test_sell_houses_back_evenly_at_half_price() -> None:
    """Rule: sell back for one-half, evenly (003 SELLING PROPERTY)."""
    s = build(monopoly(), 6, 8, 9, 6)
    with pytest.raises(RuleViolation):
        act(s, A.SELL_BUILDING, square=8)
    s, _ev = act(s, A.SELL_BUILDING, square=6)
    assert s.bld[6] == 1 and s.cash[0] == 1500 - 200 + 25


def test_hotel_breaks_down_into_houses_when_the_bank_has_them() -> None:
    """Rule: hotels may be sold one house at a time (hotel = five houses) (003)."""
    s = build(monopoly(), *([6, 8, 9] * 4), 6)
    s, _ = act(s, A.SELL_BUILDING, square=6)
    assert s.bld[6] == 4 and s.bank_hotels == 12 and s.bank_houses == 20


def test_hotel_cannot_break_down_without_houses_in_the_bank() -> None:
    """Rule: breaking a hotel needs four houses from the bank (board-and-cards)."""
    s = build(monopoly(players=3), *([6, 8, 9] * 4), 6, 8, 9)
    s = use_up_houses(s, 2, 32)
    with pytest.raises(RuleViolation, match="too few houses"):
        act(s, A.SELL_BUILDING, square=6)
    s, _ = act(s, A.SELL_GROUP_BUILDINGS, target=1)  # all hotels at once (003)
    assert s.bld[6] == s.bld[8] == s.bld[9] == 0 and s.cash[0] == 1500 - 15 * 50 + 15 * 25


def test_houses_sold_one_by_one_in_2003_but_all_at_once_in_older_books() -> None:
    """Rule: 003 sells houses one by one; 000/004 "may be sold at once" (variants table)."""
    s = build(monopoly(), 6, 8, 9)
    with pytest.raises(RuleViolation):
        act(s, A.SELL_GROUP_BUILDINGS, target=1)
    s = build(monopoly(sell_group_at_once="all"), 6, 8, 9)
    s, _ = act(s, A.SELL_GROUP_BUILDINGS, target=1)
    assert sum(s.bld) == 0 and s.cash[0] == 1500 - 150 + 75


def test_uk_builds_only_in_own_turn() -> None:
    """Rule: build "at any time, in his turn" (001); US books: at any time (003)."""
    s = monopoly("uk")
    s = setup(s, turn=1)
    with pytest.raises(RuleViolation, match="own turn"):
        act(s, A.BUILD, player=0, square=6)
    s = monopoly()
    s = setup(s, turn=1)
    s = build(s, 6)
    assert s.bld[6] == 1


def test_a_hotel_the_bank_cannot_break_down_may_go_with_its_group() -> None:
    """Rule: hotel = five houses (003); without houses in the bank the group is sold at once."""
    s = build(monopoly(players=3), *([6, 8, 9] * 4), 6)
    s = use_up_houses(s, 2, 32 - 8)
    assert s.bank_houses < 4
    s, _ = act(s, A.SELL_GROUP_BUILDINGS, target=1)
    assert s.bld[6] == s.bld[8] == s.bld[9] == 0

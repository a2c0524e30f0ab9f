"""Taxes (003 INCOME TAX; 004 2008 changes; board-and-cards luxury tax)."""

from __future__ import annotations

from games.engine import HOTEL, P_TAX, State

from .helpers import A, act, find, force_dice, game, kinds, setup


def on_income_tax(preset: str = "us-2003", **kw: object) -> State:
    s = game(preset, **kw)
    force_dice(s, (1, 3))
    return s


def test_income_tax_choice_is_asked_before_the_worth_is_shown() -> None:
    """Rule: decide between 200 and 10% "before you add up your total worth" (003)."""
    s = on_income_tax()
    s, ev = act(s, A.ROLL)
    assert s.phase == P_TAX and "worth" not in kinds(ev)
    _s2, ev = act(s, A.INCOME_TAX_PERCENT)
    assert kinds(ev).index("income_tax_choice") < kinds(ev).index("worth")


def test_ten_percent_of_total_worth_counts_mortgaged_property_at_printed_price() -> None:
    """Rule: worth = cash + printed prices (mortgaged or not) + building cost (003)."""
    s = on_income_tax()
    s = setup(s, owners={37: 0, 39: 0, 12: 0}, mortgaged=[12], buildings={37: 4, 39: HOTEL})
    s, _ = act(s, A.ROLL)
    s, ev = act(s, A.INCOME_TAX_PERCENT)
    worth = 1500 + 350 + 400 + 150 + 4 * 200 + 5 * 200
    assert find(ev, "worth").args == (worth,)
    assert s.cash[0] == 1500 - (worth + 9) // 10


def test_flat_income_tax_choice() -> None:
    """Rule: "estimate your tax at 200" (003)."""
    s, _ = act(on_income_tax(), A.ROLL)
    s, _ = act(s, A.INCOME_TAX_FLAT)
    assert s.cash[0] == 1300


def test_2008_income_tax_is_a_flat_200() -> None:
    """Rule: "Since September 2008, the 10% option has been eliminated" (004)."""
    s, _ev = act(on_income_tax("us-2008"), A.ROLL)
    assert s.cash[0] == 1300 and s.phase != P_TAX


def test_luxury_tax_75_in_2003_and_100_later() -> None:
    """Rule: Luxury Tax 75 on the 2003 board; 100 from 2008; UK Super Tax 100 (board-and-cards)."""
    for preset, amount in (("us-2003", 75), ("us-2008", 100), ("uk", 100)):
        s = game(preset)
        s = setup(s, positions={0: 35})
        force_dice(s, (1, 2))
        s, _ev = act(s, A.ROLL)
        assert s.cash[0] == 1500 - amount, preset


def test_free_parking_jackpot_collects_taxes() -> None:
    """Switch free_parking_jackpot (popular house rule; 003 says Free Parking pays nothing)."""
    s = game(free_parking_jackpot=True)
    s = setup(s, positions={0: 35})
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    assert s.pot == 75
    s, _ = act(s, A.END_TURN)
    s = setup(s, positions={1: 17})
    force_dice(s, (1, 2))
    s, ev = act(s, A.ROLL)
    assert s.cash[1] == 1575 and s.pot == 0 and "free_parking" in kinds(ev)


def test_free_parking_pays_nothing_by_default() -> None:
    """Rule: Free Parking is "just a free resting place" (003)."""
    s = game()
    s = setup(s, positions={0: 35})
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, _ = act(s, A.END_TURN)
    s = setup(s, positions={1: 17})
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    assert s.cash[1] == 1500 and s.pot == 0

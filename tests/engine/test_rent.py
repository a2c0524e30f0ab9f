"""Rent (seed 003 PAYING RENT; 001 for the UK points; 004 community jail rule)."""

from __future__ import annotations

from games.engine import HOTEL, State
from games.engine.cards import CHANCE_DECK, NEAREST_RAILROAD, NEAREST_UTILITY

from .helpers import A, act, deal, find, force_dice, game, kinds, setup, top_card


def rent_for(s: State, start: int, dice: tuple[int, int]) -> int:
    """Player 1 throws from ``start``; return the rent charged by player 0."""
    s = setup(s, turn=1, positions={1: start})
    force_dice(s, dice)
    s, ev = act(s, A.ROLL)
    assert "salary" not in kinds(ev)
    rents = [e.args[2] for e in ev if e.kind == "rent"]
    return rents[0] if rents else 0


def auto(preset: str = "us-2003", **kw: object) -> State:
    return game(preset, rent_collection="automatic", **kw)  # type: ignore[arg-type]


def test_site_rent_from_the_title_deed() -> None:
    """Rule: rent per the Title Deed (003 PAYING RENT; table in 004)."""
    s = auto()
    s = deal(s, 0, 39)
    assert rent_for(s, 33, (3, 3)) == 50


def test_double_rent_on_unimproved_complete_group() -> None:
    """Rule: owning the whole colour group doubles unimproved rent (003)."""
    s = auto()
    s = deal(s, 0, 37, 39)
    assert rent_for(s, 33, (3, 3)) == 100


def test_double_rent_stays_on_unmortgaged_site_when_another_is_mortgaged_us() -> None:
    """Rule: double rent "even if another property in that color-group is mortgaged" (003)."""
    s = auto()
    s = deal(s, 0, 37, 39)
    s = setup(s, mortgaged=[37])
    assert rent_for(s, 33, (3, 3)) == 100


def test_no_double_rent_with_a_mortgaged_site_uk() -> None:
    """Rule: "Double rent cannot be collected from a colour group if one site is mortgaged" (001)."""
    s = auto("uk")
    s = deal(s, 0, 37, 39)
    s = setup(s, mortgaged=[37])
    assert rent_for(s, 33, (3, 3)) == 50


def test_house_and_hotel_rent() -> None:
    """Rule: rents with houses and hotels per the Title Deed (003 HOUSES)."""
    s = setup(auto(), owners={37: 0, 39: 0}, buildings={37: 3, 39: 3})
    assert rent_for(s, 33, (3, 3)) == 1400
    s = setup(auto(), owners={37: 0, 39: 0}, buildings={37: 4, 39: HOTEL})
    assert rent_for(s, 33, (3, 3)) == 2000  # more than their cash: a debt


def test_no_rent_on_mortgaged_property() -> None:
    """Rule: "If the property is mortgaged, no rent can be collected" (003)."""
    s = auto()
    s = deal(s, 0, 39)
    s = setup(s, mortgaged=[39])
    assert rent_for(s, 33, (3, 3)) == 0


def test_railroad_rent_doubles_with_each_railroad() -> None:
    """Rule: railroads 25/50/100/200 (board-and-cards; 004 table)."""
    for owned, expected in ((1, 25), (2, 50), (3, 100), (4, 200)):
        s = auto()
        s = deal(s, 0, *(5, 15, 25, 35)[:owned])
        assert rent_for(s, 1, (1, 3)) == expected


def test_mortgaged_railroad_still_counts_us() -> None:
    """Rule: US books count all owned railroads (variants table, usual reading)."""
    s = auto()
    s = deal(s, 0, 5, 15, 25, 35)
    s = setup(s, mortgaged=[35])
    assert rent_for(s, 1, (1, 3)) == 200


def test_mortgaged_station_does_not_count_uk() -> None:
    """Rule: four stations, one mortgaged: collect 100, not 200 (001)."""
    s = auto("uk")
    s = deal(s, 0, 5, 15, 25, 35)
    s = setup(s, mortgaged=[35])
    assert rent_for(s, 1, (1, 3)) == 100


def test_utility_rent_four_or_ten_times_the_dice() -> None:
    """Rule: utilities 4x the dice with one owned, 10x with both (004 table)."""
    s = auto()
    s = deal(s, 0, 12)
    assert rent_for(s, 9, (1, 2)) == 12
    s = auto()
    s = deal(s, 0, 12, 28)
    assert rent_for(s, 9, (1, 2)) == 30


def test_nearest_railroad_card_pays_twice_the_rental() -> None:
    """Rule: Chance "nearest Railroad ... pay twice the rental" (board-and-cards US deck)."""
    s = auto()
    s = deal(s, 0, 5, 15)
    top_card(s, CHANCE_DECK, NEAREST_RAILROAD)
    assert rent_for(s, 3, (2, 2)) == 100  # 7 Chance -> 15


def test_nearest_utility_card_pays_ten_times_a_fresh_throw() -> None:
    """Rule: Chance "nearest Utility ... pay ten times the amount thrown" (US deck)."""
    s = auto()
    s = deal(s, 0, 12)
    top_card(s, CHANCE_DECK, NEAREST_UTILITY)
    force_dice(s, (1, 3), (6, 5))
    s = setup(s, turn=1, positions={1: 3})
    s, ev = act(s, A.ROLL)  # 7 Chance -> 12, fresh throw 11
    assert find(ev, "rent").args == (0, 12, 110)
    assert kinds(ev).count("dice") == 2


def test_nearest_railroad_from_chance_36_passes_go_to_reading() -> None:
    """Rule: card movement goes forward: from 36 the nearest railroad is Reading (board-and-cards)."""
    s = auto()
    top_card(s, CHANCE_DECK, NEAREST_RAILROAD)
    s = setup(s, turn=1, positions={1: 33})
    force_dice(s, (1, 2))
    s, ev = act(s, A.ROLL)
    assert s.pos[1] == 5 and "salary" in kinds(ev) and s.pending_sq == 5


def test_no_rent_while_owner_in_jail_switch() -> None:
    """Rule (house rule): "no rent collected while in jail" (004 community section)."""
    s = auto(no_rent_in_jail=True)
    s = deal(s, 0, 39)
    s = setup(s, jail={0: 0})
    assert rent_for(s, 33, (3, 3)) == 0
    s = auto()
    s = deal(s, 0, 39)
    s = setup(s, jail={0: 0})
    assert rent_for(s, 33, (3, 3)) == 50  # 003: you may collect rents in Jail

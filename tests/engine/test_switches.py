"""Switches not covered by a preset scenario elsewhere (rule-variants.md)."""

from __future__ import annotations

import pytest

from games.engine import P_END, P_ROLL, RuleViolation, new_game, ruleset
from games.engine.cards import CHEST_DECK, COLLECT_EACH

from .helpers import A, act, deal, force_dice, game, kinds, setup, top_card


def test_third_doubles_switch_off_lets_the_player_keep_throwing() -> None:
    """Switch third_doubles_to_jail (every book says yes; off is a house rule)."""
    s = game(third_doubles_to_jail=False)
    s = setup(s, doubles=2)
    force_dice(s, (2, 2))
    s, ev = act(s, A.ROLL)  # to 4, Income Tax
    assert not s.in_jail[0] and "speeding" not in kinds(ev)


def test_jail_fine_switch() -> None:
    """Switch jail_fine (printed 50)."""
    s = game(jail_fine=100)
    s = setup(s, jail={0: 0})
    s, _ = act(s, A.PAY_JAIL_FINE)
    assert s.cash[0] == 1400


def test_income_and_luxury_tax_amount_switches() -> None:
    """Switches income_tax / luxury_tax (variants rows "Income Tax", "Luxury / Super Tax")."""
    s = game(income_tax_choice=False, income_tax=150)
    force_dice(s, (1, 3))
    s, _ = act(s, A.ROLL)
    assert s.cash[0] == 1350
    s = game(luxury_tax=100)
    s = setup(s, positions={0: 35})
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    assert s.cash[0] == 1400


def test_bankrupt_to_bank_auction_switch() -> None:
    """Switch bankrupt_to_bank_auction=False: the bank keeps the property (002)."""
    s = game(players=3, bankrupt_to_bank_auction=False)
    s = deal(s, 1, 1)
    s, _ = act(s, A.RESIGN, player=1)
    assert s.auction is None and s.owner[1] == -1


def test_min_players_switch() -> None:
    """Switch min_players / max_players."""
    with pytest.raises(RuleViolation):
        new_game(ruleset(min_players=3), ["a", "b"], 1)


@pytest.mark.parametrize(
    ("decks", "cash"),
    [("us-classic", [1600, 1450, 1450]), ("us-2008", [1520, 1490, 1490])],
)
def test_decks_switch_changes_the_cards(decks: str, cash: list[int]) -> None:
    """Switch decks on the default preset: the same Community Chest card is
    Grand Opera Night (50 from every player) in the classic deck and the
    birthday (10 from every player) in the 2008 deck (board-and-cards)."""
    s = game(players=3, decks=decks)
    top_card(s, CHEST_DECK, COLLECT_EACH)
    force_dice(s, (1, 1))  # 2 Community Chest
    s, _ = act(s, A.ROLL)
    assert s.cash == cash


def test_jail_attempts_switch() -> None:
    """Switch jail_attempts=1: must leave on the next turn (003 short game)."""
    s = game(jail_attempts=1)
    s = setup(s, jail={0: 0})
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    assert not s.in_jail[0] and s.pos[0] == 13


def test_jail_doubles_extra_throw_switch() -> None:
    """Switch jail_doubles_extra_throw (001) on the US preset."""
    s = game(jail_doubles_extra_throw=True)
    s = setup(s, jail={0: 0}, owners={14: 1})
    force_dice(s, (2, 2))
    s, _ = act(s, A.ROLL)
    assert s.phase == P_ROLL
    s = game()
    s = setup(s, jail={0: 0}, owners={14: 1})
    force_dice(s, (2, 2))
    s, _ = act(s, A.ROLL)
    assert s.phase == P_END


def test_rent_collection_switch_on_uk() -> None:
    """Switch rent_collection=automatic on the UK preset."""
    s = game("uk", rent_collection="automatic")
    s = deal(s, 0, 39)
    s = setup(s, turn=1, positions={1: 33})
    force_dice(s, (2, 4))
    s, _ = act(s, A.ROLL)
    assert s.cash[1] == 1450


def test_deal_deeds_switch_on_the_regular_game() -> None:
    """Switches deal_deeds / deal_deeds_paid."""
    s = new_game(
        ruleset(deal_deeds=1, deal_deeds_paid=False),
        ["a", "b"],
        1,
    )
    assert sum(1 for o in s.owner if o >= 0) == 2 and s.cash == [1500, 1500]

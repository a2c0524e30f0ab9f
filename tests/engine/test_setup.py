"""Setting up a position with ``engine.setup`` (docs/engine.md, "Setting up a position")."""

from __future__ import annotations

import pytest

from games import engine

from .helpers import act, card, force_dice, game


def test_setup_keeps_bank_stock_consistent() -> None:
    s = game()
    s = engine.setup(
        s,
        owners={37: 0, 39: 0, 1: 1, 3: 1},
        buildings={37: 4, 39: engine.HOTEL, 1: 2, 3: 3},
    )
    assert s.bank_houses == engine.TOTAL_HOUSES - 4 - 2 - 3
    assert s.bank_hotels == engine.TOTAL_HOTELS - 1
    # Taking buildings off gives them back to the bank.
    s = engine.setup(s, buildings={39: 4, 1: 0, 3: 1})
    assert (s.bank_houses, s.bank_hotels) == (engine.TOTAL_HOUSES - 9, engine.TOTAL_HOTELS)
    assert engine.check_invariants(s) == []


def test_setup_counts_cash_changes_as_paid_by_or_to_the_bank() -> None:
    s = game(players=3)
    s = engine.setup(s, cash={0: 100, 1: 2500}, pot=40)
    assert s.cash == [100, 2500, 1500] and s.pot == 40
    assert s.bank_in == 1400 and s.bank_out == 1000 + 40
    assert engine.check_invariants(s) == []


def test_setup_leaves_the_given_state_unchanged() -> None:
    s = game()
    before = s.copy()
    engine.setup(s, cash={0: 1}, owners={39: 1}, turn=1)
    assert s == before


def test_setup_gives_back_a_property_with_its_buildings_and_mortgage() -> None:
    s = engine.setup(game(), owners={1: 0, 3: 0, 5: 0}, buildings={1: 1, 3: 1}, mortgaged=[5])
    s = engine.setup(s, owners={1: -1, 5: -1}, buildings={3: 0})
    assert s.owner[1] == s.owner[5] == -1 and s.bld[1] == 0 and not s.mortgaged[5]
    assert s.bank_houses == engine.TOTAL_HOUSES


def test_setup_mortgages_and_lifts_mortgages() -> None:
    s = engine.setup(game(), owners={12: 1, 28: 1}, mortgaged=[12, 28])
    assert s.mortgaged[12] and s.mortgaged[28]
    s = engine.setup(s, mortgaged={28: False})
    assert s.mortgaged[12] and not s.mortgaged[28]


def test_rejects_hotel_without_stock() -> None:
    # Hotels on the first 13 sites (the last red with 4 houses): the bank has 12.
    owners = {sq: 0 for sq in engine.SITES}
    levels = {sq: engine.HOTEL for sq in engine.SITES[:13]}
    levels[engine.SITES[13]] = 4
    with pytest.raises(engine.SetupError, match="hotels"):
        engine.setup(game(), owners=owners, buildings=levels)


def test_rejects_more_houses_than_the_bank_has() -> None:
    owners = {sq: 0 for sq in engine.SITES}
    levels = {sq: 4 for sq in engine.SITES[:9]}  # 36 houses
    with pytest.raises(engine.SetupError, match="houses"):
        engine.setup(game(), owners=owners, buildings=levels)


@pytest.mark.parametrize(
    ("position", "problem"),
    [
        ({"buildings": {39: 1}}, "no owner"),
        ({"owners": {39: 0}, "buildings": {39: 1}}, "not wholly owned"),
        ({"owners": {37: 0, 39: 0}, "buildings": {39: 2}}, "uneven"),
        ({"owners": {37: 0, 39: 0}, "buildings": {37: 1, 39: 1}, "mortgaged": [37]}, "mortgage"),
        ({"owners": {5: 0}, "buildings": {5: 1}}, "not a site"),
        ({"owners": {1: 0, 3: 0}, "buildings": {1: 6, 3: 5}}, "level"),
        ({"owners": {4: 0}}, "not a property"),
        ({"owners": {39: 5}}, "no seat"),
        ({"cash": {0: -1}}, "negative"),
        ({"mortgaged": [39]}, "unowned"),
        ({"jail": {0: 3}}, "Turns in Jail"),
        ({"jail_cards": {0: (2, 0)}}, "Get Out of Jail Free"),
        ({"positions": {0: 40}}, "no square"),
        ({"phase": engine.P_BUY}, "not for sale"),
        ({"phase": engine.P_TAX}, "Income Tax"),
        ({"doubles": 3}, "Doubles in a row"),
        ({"doubles": -1}, "Doubles in a row"),
    ],
)
def test_rejects_impossible_positions(position: dict[str, object], problem: str) -> None:
    with pytest.raises(engine.SetupError, match=problem):
        engine.setup(game(), **position)  # type: ignore[arg-type]


def test_setup_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        engine.setup(game(), cash={9: 1})


def test_jail_sets_the_seat_in_jail_and_counts_turns_there() -> None:
    s = engine.setup(game(), jail={1: 2}, turn=1)
    assert s.in_jail[1] and s.jail_turns[1] == 2 and s.pos[1] == engine.JAIL_SQUARE
    assert engine.pending_decisions(s)[0].kind == engine.D_JAIL
    # The third failed throw pays the fine and moves on.
    force_dice(s, (1, 2))
    s, _ = act(s, engine.ROLL)
    assert not s.in_jail[1] and s.cash[1] == 1500 - s.rules.jail_fine
    s = engine.setup(engine.setup(s, jail={0: 0}), jail={0: None})
    assert not s.in_jail[0] and s.pos[0] == engine.JAIL_SQUARE


def test_jail_cards_leave_the_deck_and_go_back_under_it() -> None:
    s = game()
    chance_card = card(s, engine.CHANCE_DECK, engine.JAIL_FREE)
    s = engine.setup(s, jail_cards={0: (1, 1)})
    assert s.jail_cards[0] == [1, 1] and chance_card not in s.decks[0]
    assert len(s.decks[0]) == len(s.decks[1]) == 15
    s = engine.setup(s, jail_cards={0: (0, 1)})
    assert s.decks[0][-1] == chance_card and s.jail_cards[0] == [0, 1]
    assert engine.check_invariants(s) == []


def test_deck_tops_decide_the_next_cards() -> None:
    s = game()
    go = card(s, engine.CHANCE_DECK, "advance", 0)
    jail = card(s, engine.CHANCE_DECK, "jail")
    s = engine.setup(s, deck_tops={engine.CHANCE_DECK: [jail, go]})
    assert s.decks[0][:2] == [jail, go] and sorted(s.decks[0]) == list(range(16))
    force_dice(s, (3, 4))  # to Chance, square 7
    s, _ = act(s, engine.ROLL)
    assert s.in_jail[0]


def test_rejects_a_held_card_on_top_of_the_deck() -> None:
    s = game()
    held = card(s, engine.CHANCE_DECK, engine.JAIL_FREE)
    s = engine.setup(s, jail_cards={1: (1, 0)})
    with pytest.raises(engine.SetupError, match="not in deck"):
        engine.setup(s, deck_tops={engine.CHANCE_DECK: [held]})


def test_turn_alone_starts_that_players_turn() -> None:
    s = game(players=3)
    s = engine.setup(s, turn=2)
    assert s.turn == 2 and s.phase == engine.P_ROLL
    assert engine.pending_decisions(s)[0] == engine.Pending(2, engine.D_ROLL)


def test_doubles_count_towards_speeding() -> None:
    s = engine.setup(game(players=3), turn=1, doubles=2)
    assert s.turn == 1 and s.doubles == 2 and s.phase == engine.P_ROLL
    force_dice(s, (2, 2))
    s, events = act(s, engine.ROLL)
    assert "speeding" in [e.kind for e in events] and s.in_jail[1]
    s = engine.setup(game(third_doubles_to_jail=False), doubles=3)
    assert s.doubles == 3


def test_phase_buy_offers_the_square_the_player_stands_on() -> None:
    s = engine.setup(game(), positions={0: 39}, phase=engine.P_BUY)
    assert engine.pending_decisions(s)[0] == engine.Pending(0, engine.D_BUY, 39)
    s, _ = act(s, engine.BUY)
    assert s.owner[39] == 0 and s.cash[0] == 1100


def test_phase_end_lets_the_player_build_then_end_the_turn() -> None:
    s = engine.setup(
        game(), owners={37: 0, 39: 0}, buildings={37: 4, 39: 4}, turn=0, phase=engine.P_END
    )
    s, _ = act(s, engine.BUILD, square=39)
    assert s.bld[39] == engine.HOTEL and s.bank_houses == engine.TOTAL_HOUSES - 4
    s, _ = act(s, engine.END_TURN)
    assert s.turn == 1


def test_a_set_up_position_plays_on_with_invariants_intact() -> None:
    s = engine.setup(
        game(players=3),
        cash={0: 300, 1: 50},
        owners={37: 0, 39: 0, 12: 2},
        buildings={37: engine.HOTEL, 39: engine.HOTEL},
        mortgaged=[12],
        positions={1: 33},
        turn=1,
    )
    force_dice(s, (2, 4))  # seat 1 lands on Boardwalk with a hotel
    s, _ = act(s, engine.ROLL)
    claim = engine.claims(s)[0]
    s, _ = act(s, engine.CLAIM_RENT, player=0, target=claim.id)
    assert engine.debts(s) == [engine.Debt(1, 0, 2000)]
    s, _ = act(s, engine.AUTO_SETTLE, player=1)
    assert not s.alive[1] and engine.check_invariants(s) == []

"""Chance and Community Chest (003 CHANCE AND COMMUNITY CHEST; decks from
board-and-cards.md; UK cards from 001)."""

from __future__ import annotations

from games.engine import P_CHOICE, P_END, Event, State
from games.engine.cards import (
    ADVANCE,
    BACK,
    BACK_TO,
    CHANCE_DECK,
    CHEST_DECK,
    COLLECT_EACH,
    DECKS,
    FINE_OR_CHANCE,
    JAIL_FREE,
    MONEY,
    PAY_EACH,
    REPAIRS,
)

from .helpers import A, act, card, find, force_dice, game, kinds, setup, top_card


def draw_chance(s: State) -> tuple[State, list[Event]]:
    s = setup(s, positions={0: 4})
    force_dice(s, (1, 2))  # 7 Chance
    s, ev = act(s, A.ROLL)
    return s, ev


def test_each_edition_has_two_sixteen_card_decks() -> None:
    """Rule: 16 Chance and 16 Community Chest cards (000 equipment)."""
    for chance, chest in DECKS.values():
        assert len(chance) == 16 and len(chest) == 16


def test_drawn_card_goes_to_the_bottom() -> None:
    """Rule: take the top card, return it to the bottom (003)."""
    s = game()
    top_card(s, CHANCE_DECK, MONEY, 50)
    ci = s.decks[0][0]
    s, _ = draw_chance(s)
    assert s.decks[0][-1] == ci and s.cash[0] == 1550


def test_get_out_of_jail_card_is_held_then_returned_to_its_own_deck() -> None:
    """Rule: the card is held until used, then returned to the bottom (003)."""
    s = game()
    top_card(s, CHANCE_DECK, JAIL_FREE)
    s, _ = draw_chance(s)
    assert s.jail_cards[0] == [1, 0] and len(s.decks[0]) == 15
    s, _ = act(s, A.END_TURN)
    s = setup(s, jail={0: 0, 1: 0}, turn=0)
    s, _ev = act(s, A.USE_JAIL_CARD, target=0)
    assert not s.in_jail[0] and len(s.decks[0]) == 16 and s.decks[0][-1] == card(s, 0, JAIL_FREE)


def test_go_back_three_from_chance_36_lands_on_community_chest() -> None:
    """Rule: "Go back 3 spaces" from 36 lands on 33 and draws there (board-and-cards)."""
    s = game()
    top_card(s, CHANCE_DECK, BACK, 3)
    top_card(s, CHEST_DECK, MONEY, 200)
    s = setup(s, positions={0: 33})
    force_dice(s, (1, 2))
    s, ev = act(s, A.ROLL)
    assert s.pos[0] == 33 and [e.args[0] for e in ev if e.kind == "card"] == [0, 1]
    assert s.cash[0] == 1700


def test_advance_to_a_site_collects_salary_when_passing_go() -> None:
    """Rule: "Advance to St. Charles Place (collect 200 if you pass GO)" (US deck)."""
    s = game()
    top_card(s, CHANCE_DECK, ADVANCE, 11)
    s = setup(s, positions={0: 33})
    force_dice(s, (1, 2))
    s, _ev = act(s, A.ROLL)
    assert s.pos[0] == 11 and s.cash[0] == 1700 and s.pending_sq == 11


def test_repairs_charge_per_house_and_hotel() -> None:
    """Rule: general repairs 25 per house, 100 per hotel (US Chance)."""
    s = game()
    s = setup(s, owners={1: 0, 3: 0, 37: 0, 39: 0}, buildings={1: 2, 3: 3, 37: 5, 39: 5})
    top_card(s, CHANCE_DECK, REPAIRS, 25)
    s, _ev = draw_chance(s)
    assert s.cash[0] == 1500 - 5 * 25 - 2 * 100


def test_chairman_pays_each_player() -> None:
    """Rule: "pay each player 50" (US Chance)."""
    s = game(players=3)
    top_card(s, CHANCE_DECK, PAY_EACH)
    s, _ = draw_chance(s)
    assert s.cash == [1400, 1550, 1550]


def test_grand_opera_night_collects_from_every_player() -> None:
    """Rule: "collect 50 from every player" (US Community Chest, classic wording)."""
    s = game(players=3)
    top_card(s, CHEST_DECK, COLLECT_EACH)
    force_dice(s, (1, 1))  # 2 Community Chest
    s, _ = act(s, A.ROLL)
    assert s.cash == [1600, 1450, 1450]


def test_birthday_card_in_the_2008_deck() -> None:
    """Rule: later editions: "It is your birthday", 10 from every player (board-and-cards)."""
    s = game("us-2008", players=3)
    top_card(s, CHEST_DECK, COLLECT_EACH)
    force_dice(s, (1, 1))
    s, _ = act(s, A.ROLL)
    assert s.cash == [1520, 1490, 1490]


def test_uk_pay_ten_or_take_a_chance() -> None:
    """Rule: "Pay a 10 fine or take a Chance" (UK Community Chest, 001)."""
    s = game("uk")
    top_card(s, CHEST_DECK, FINE_OR_CHANCE)
    force_dice(s, (1, 1))
    s, _ = act(s, A.ROLL)
    assert s.phase == P_CHOICE
    paid, _ = act(s, A.PAY_TEN)
    assert paid.cash[0] == 1490 and paid.phase != P_CHOICE
    top_card(s, CHANCE_DECK, MONEY, 100)
    took, ev = act(s, A.TAKE_CHANCE)
    assert took.cash[0] == 1600 and find(ev, "card").args[0] == CHANCE_DECK


def test_uk_go_back_to_old_kent_road_does_not_pass_go() -> None:
    """Rule: "Go back to Old Kent Road" moves backwards, no salary (board-and-cards)."""
    s = game("uk")
    top_card(s, CHEST_DECK, BACK_TO)
    s = setup(s, positions={0: 14})
    force_dice(s, (1, 2))  # 17 Community Chest
    s, ev = act(s, A.ROLL)
    assert s.pos[0] == 1 and "salary" not in kinds(ev) and s.pending_sq == 1


def test_card_text_renders_in_edition_names() -> None:
    """Rule: UK decks print London names and pounds (001)."""
    from games.engine import render_event

    s = game("uk")
    top_card(s, CHANCE_DECK, ADVANCE, 39)
    s, ev = draw_chance(s)
    line = render_event(find(ev, "card"), s.rules, s.names)
    assert "Mayfair" in line
    assert s.phase == P_END or s.pending_sq == 39

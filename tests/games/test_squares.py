"""Each board square's card: title deeds, decks and rule lines
(games.web.squares) and the view that serves them to the board's dialog."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import engine
from games.engine import new_game, ruleset
from games.models import Game, GameEvent
from games.web.squares import cards_left, square_card
from tests.conftest import setup_writes

CHANCE = 7


def game(preset: str = "us-2003", **switches: Any) -> engine.State:
    return new_game(ruleset(preset, **switches), ["Alice", "Bob"], seed=5)


def rents(card: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(r["label"], r.get("money", r.get("times"))) for r in card["deed"]["rents"]]


# --- deeds ----------------------------------------------------------------------


def test_boardwalk_deed_has_the_printed_rent_table():
    card = square_card(game(), 39)
    assert card["kind"] == "deed" and card["name"] == "Boardwalk"
    assert card["deed"]["price"] == "$400"
    assert card["deed"]["group"] == "dark blue"
    assert rents(card) == [
        ("Rent", "$50"),
        ("With the full colour set", "$100"),
        ("With 1 house", "$200"),
        ("With 2 houses", "$600"),
        ("With 3 houses", "$1,400"),
        ("With 4 houses", "$1,700"),
        ("With a hotel", "$2,000"),
    ]
    assert card["deed"]["mortgage"] == "$200"
    assert card["deed"]["lift"] == "$220"
    assert card["deed"]["house_cost"] == "$200"


def test_short_game_deed_stops_at_three_houses():
    card = square_card(game("short-2003"), 39)
    labels = [label for label, _ in rents(card)]
    assert "With 4 houses" not in labels and labels[-1] == "With a hotel"
    assert card["deed"]["houses_per_hotel"] == 3


def test_uk_deed_uses_the_london_names_and_pounds():
    card = square_card(game("uk"), 39)
    assert card["name"] == "Mayfair" and card["deed"]["price"] == "£400"


def test_railroad_deed_rents_by_count_owned():
    card = square_card(game(), 5)
    assert rents(card) == [
        ("1 railroad owned", "$25"),
        ("2 railroads owned", "$50"),
        ("3 railroads owned", "$100"),
        ("4 railroads owned", "$200"),
    ]
    assert "house_cost" not in card["deed"]


def test_utility_deed_gives_the_dice_multipliers():
    card = square_card(game(), 12)
    assert card["utility"]
    assert rents(card) == [("One utility owned", 4), ("Both utilities owned", 10)]


def test_deed_shows_owner_houses_and_the_rent_that_applies():
    s = engine.setup(game(), owners={37: 1, 39: 1}, buildings={37: 2, 39: 2})
    deed = square_card(s, 39)["deed"]
    assert deed["owner"] == "Bob" and deed["houses"] == 2 and not deed["hotel"]
    assert [r["label"] for r in deed["rents"] if r["now"]] == ["With 2 houses"]


def test_deed_shows_a_mortgage_and_no_rent_applies():
    s = engine.setup(game(), owners={5: 0, 15: 0}, mortgaged=[5])
    deed = square_card(s, 5)["deed"]
    assert deed["owner"] == "Alice" and deed["mortgaged"]
    assert not any(r["now"] for r in deed["rents"])
    assert [r["label"] for r in square_card(s, 15)["deed"]["rents"] if r["now"]] == [
        "2 railroads owned"
    ]


def test_unowned_deed_is_for_sale():
    deed = square_card(game(), 1)["deed"]
    assert deed["owner"] == "" and not any(r["now"] for r in deed["rents"])


# --- other squares ------------------------------------------------------------------


def test_go_gives_the_salary_of_the_rules():
    assert square_card(game(), 0)["lines"] == [
        "Collect $200 salary each time you pass or land on GO."
    ]
    assert "$400" in square_card(game(go_salary=400), 0)["lines"][0]


def test_taxes_follow_the_preset():
    assert square_card(game(), 4)["lines"] == [
        "Pay $200 or 10% of your total worth, chosen before you work out your worth."
    ]
    assert square_card(game("us-2008"), 4)["lines"] == ["Pay $200."]
    assert square_card(game(), 38)["lines"] == ["Pay $75."]
    assert square_card(game("us-2008"), 38)["lines"] == ["Pay $100."]


def test_jail_and_go_to_jail_give_the_fine_and_salary():
    jail = " ".join(square_card(game(jail_fine=60), 10)["lines"])
    assert "$60 fine" in jail and "up to 3 turns" in jail
    assert square_card(game(), 30)["lines"] == [
        "Go directly to Jail: do not pass GO, do not collect $200."
    ]


def test_free_parking_shows_the_pot_with_the_jackpot_rule():
    s = engine.setup(game(free_parking_jackpot=True), pot=350)
    assert "The pot holds $350." in square_card(s, 20)["lines"]
    assert square_card(game(), 20)["lines"] == ["A free resting place: nothing happens here."]


# --- decks ----------------------------------------------------------------------------


def draw(card: int, deck: int = 0) -> tuple[str, dict[str, Any]]:
    return ("card", {"kind": "card", "player": 0, "deck": deck, "card": card})


def test_a_fresh_deck_has_every_card_to_come():
    assert cards_left(ruleset(), 0, [], 16) == 16


def test_each_draw_takes_one_from_the_round():
    log = [draw(0), draw(1, deck=1), draw(2)]
    assert cards_left(ruleset(), 0, log, 16) == 14
    assert cards_left(ruleset(), 1, log, 16) == 15


def test_a_deck_comes_round_after_all_its_cards():
    log = [draw(c) for c in range(16)]  # the Get Out of Jail Free card is held
    assert cards_left(ruleset(), 0, log, 15) == 15
    assert cards_left(ruleset(), 0, [*log, draw(0)], 15) == 14


def test_a_held_jail_card_leaves_the_round():
    jail_free = engine.card_index(
        engine.new_game(ruleset(), ["A", "B"], seed=1), 0, engine.JAIL_FREE
    )
    log = [draw(jail_free)]
    assert cards_left(ruleset(), 0, log, 15) == 15
    # Every other card drawn: the round is over, the next has the 15 in the deck.
    log += [draw(c) for c in range(16) if c != jail_free]
    assert cards_left(ruleset(), 0, log, 15) == 15
    # Used, it goes under the deck, after this round's cards: it has not come
    # up in this round, so it counts in it.
    log += [("jail_card", {"kind": "jail_card", "player": 0, "deck": 0}), draw(3)]
    assert cards_left(ruleset(), 0, log, 16) == 15


# --- the board's buttons ---------------------------------------------------------------


def test_interactive_boards_make_every_square_a_button():
    from games.web.board_svg import render_board, render_board_base

    rules = ruleset()
    for svg in (render_board_base(rules, interactive=True), render_board(game(), interactive=True)):
        assert svg.count('data-square="') == 40
        assert 'data-square="39" tabindex="0" role="button"' in svg
        assert 'aria-label="Boardwalk: open its card"' in svg
        assert 'aria-hidden="true"' not in svg.split(">", 1)[0]
    assert "data-square" not in render_board_base(rules)
    assert "data-square" not in render_board(game())


# --- the view ------------------------------------------------------------------------


def square_url(g: Game, sq: int) -> str:
    return f"{g.get_absolute_url()}square/{sq}"


def test_player_and_spectator_get_the_same_deed(duel, alice, charlie, edit_state):
    edit_state(duel, lambda s: engine.setup(s, owners={39: 1}, buildings={}, mortgaged=[39]))
    pages = []
    for user in (alice, charlie):
        client = Client()
        client.force_login(user)
        response = client.get(square_url(duel, 39))
        assert response.status_code == 200
        pages.append(response.content.decode())
    assert pages[0] == pages[1]
    assert "$2,000" in pages[0] and "$50" in pages[0]
    assert "bob" in pages[0].lower() and "mortgaged" in pages[0]


def test_spectator_chance_card_gives_the_count_and_no_card(duel, charlie):
    with setup_writes("a card drawn"):
        GameEvent.objects.create(
            game=duel, seq=duel.version, index=99, kind="card",
            payload={"kind": "card", "player": 0, "deck": 0, "card": 4},
        )  # fmt: skip
    client = Client()
    client.force_login(charlie)
    html = client.get(square_url(duel, CHANCE)).content.decode()
    assert "<strong>15</strong> of 16 cards" in html
    state = engine.from_dict(duel.state)
    cards = engine.DECKS[state.rules.decks][0]
    # No card's words leave the server, the next one's least of all.
    words = [text.split("{")[0].strip() for _e, _a, _b, text in cards]
    top = words[state.decks[0][0]]
    assert "Jail Free" in top or top[:12] not in html
    assert not [w for w in words if len(w) > 8 and "Jail Free" not in w and w in html]


def test_private_game_square_is_refused_to_strangers(private_duel, charlie):
    client = Client()
    client.force_login(charlie)
    assert client.get(square_url(private_duel, 39)).status_code in (403, 404)


@pytest.mark.parametrize("sq", [-1, 40])
def test_no_card_off_the_board(duel, alice, sq):
    client = Client()
    client.force_login(alice)
    assert client.get(f"{duel.get_absolute_url()}square/{sq}").status_code == 404


def test_replay_step_shows_the_square_then(duel, alice, edit_state):
    client = Client()
    client.force_login(alice)
    html = client.get(square_url(duel, 39) + "?step=0").content.decode()
    assert "The bank (for sale)" in html

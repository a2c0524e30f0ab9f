"""Hints where an action is missing (games.web.hints) and their place in the panel."""

from __future__ import annotations

from django.template.loader import render_to_string

from games import engine
from games.engine import new_game, ruleset
from games.web import hints as H
from games.web.action_forms import panel

BROWN = (1, 3)  # Mediterranean, Baltic
DARK_BLUE = (37, 39)  # Park Place, Boardwalk


def game(preset: str = "us-2003", **switches: object) -> engine.State:
    return new_game(ruleset(preset, **switches), ["Alice", "Bob"], seed=5)


def hints_of(s: engine.State, seat: int = 0) -> list[H.Hint]:
    return H.hints(s, seat, engine.legal_actions(s, seat))


def kinds(s: engine.State, seat: int = 0) -> list[str]:
    return [h.kind for h in hints_of(s, seat)]


def test_buy_short_of_cash_says_how_much_is_missing():
    s = engine.setup(game(), positions={0: 39}, cash={0: 360}, turn=0, phase=engine.P_BUY)
    (hint,) = [h for h in hints_of(s) if h.kind == H.BUY_CASH]
    assert hint.text == "Buy needs $40 more: mortgage or sell to raise it."
    assert hint.square == 39


def test_no_buy_hint_when_the_buy_is_on_offer():
    s = engine.setup(game(), positions={0: 39}, cash={0: 400}, turn=0, phase=engine.P_BUY)
    assert H.BUY_CASH not in kinds(s)


def test_no_buy_hint_for_the_player_not_deciding():
    s = engine.setup(game(), positions={0: 39}, cash={0: 360, 1: 10}, turn=0, phase=engine.P_BUY)
    assert H.BUY_CASH not in kinds(s, seat=1)


def test_jail_fine_short_of_cash():
    s = engine.setup(game(), cash={0: 30}, jail={0: 0}, turn=0)
    (hint,) = [h for h in hints_of(s) if h.kind == H.JAIL_FINE_CASH]
    assert hint.text == "Paying the $50 fine needs $20 more."


def test_uneven_building_names_the_site_to_build_first():
    s = engine.setup(game(), owners=dict.fromkeys(BROWN, 0), buildings={1: 1}, turn=0)
    (hint,) = [h for h in hints_of(s) if h.kind == H.BUILD_EVENLY]
    assert hint.text == "Build evenly: Baltic Avenue first, then Mediterranean Avenue."
    assert hint.square == 1


def test_even_group_gives_no_building_hint():
    s = engine.setup(game(), owners=dict.fromkeys(BROWN, 0), buildings={1: 1, 3: 1}, turn=0)
    assert kinds(s) == []


def test_no_houses_left_in_the_bank():
    # Bob's 32 houses empty the bank; Alice owns the browns, bare.
    houses = {11: 4, 13: 4, 14: 4, 16: 4, 18: 4, 19: 4, 21: 3, 23: 3, 24: 2}
    s = engine.setup(
        game(),
        owners={**dict.fromkeys(BROWN, 0), **dict.fromkeys(houses, 1)},
        buildings=houses,
        turn=0,
    )
    assert s.bank_houses == 0
    (hint,) = [h for h in hints_of(s) if h.kind == H.BUILD_NO_HOUSES]
    assert hint.text == "No houses left in the bank."


def test_no_hotels_left_in_the_bank():
    hotels = (11, 13, 14, 16, 18, 19, 21, 23, 24, 26, 27, 29)
    s = engine.setup(
        game(),
        owners={**dict.fromkeys(BROWN, 0), **dict.fromkeys(hotels, 1)},
        buildings={**dict.fromkeys(hotels, engine.HOTEL), 1: 4, 3: 4},
        turn=0,
    )
    assert s.bank_hotels == 0
    assert H.BUILD_NO_HOTELS in kinds(s)


def test_building_short_of_cash():
    s = engine.setup(game(), owners=dict.fromkeys(DARK_BLUE, 0), cash={0: 150}, turn=0)
    (hint,) = [h for h in hints_of(s) if h.kind == H.BUILD_CASH]
    assert hint.text == "A house on the dark blue group costs $200: $50 more than you have."


def test_mortgaged_site_blocks_building_on_its_group():
    s = engine.setup(game(), owners=dict.fromkeys(BROWN, 0), mortgaged=[3], cash={0: 1000}, turn=0)
    texts = {h.kind: h.text for h in hints_of(s)}
    assert texts[H.BUILD_MORTGAGED] == (
        "Building on the brown group needs the mortgage on Baltic Avenue lifted first."
    )


def test_uk_builds_only_in_own_turn():
    s = engine.setup(game("uk"), owners=dict.fromkeys(BROWN, 0), turn=1)
    (hint,) = [h for h in hints_of(s) if h.kind == H.BUILD_OWN_TURN]
    assert hint.text == "You can build only in your own turn."


def test_unmortgage_short_of_cash_gives_the_cost():
    s = engine.setup(game(), owners={39: 0}, mortgaged=[39], cash={0: 100}, turn=0)
    (hint,) = [h for h in hints_of(s) if h.kind == H.UNMORTGAGE_CASH]
    # 200 principal plus 10% interest.
    assert hint.text == "Unmortgaging Boardwalk needs $220: $120 more than you have."


def test_no_unmortgage_hint_when_it_can_be_lifted():
    s = engine.setup(game(), owners={39: 0}, mortgaged=[39], cash={0: 500}, turn=0)
    assert H.UNMORTGAGE_CASH not in kinds(s)


def test_hints_never_explain_a_legal_action():
    s = engine.setup(
        game(),
        owners={**dict.fromkeys(BROWN, 0), 39: 0},
        buildings={1: 1},
        mortgaged=[39],
        cash={0: 100},
        turn=0,
    )
    legal = engine.legal_actions(s, 0)
    offered = {(a.kind, a.square) for a in legal}
    for hint in H.hints(s, 0, legal):
        if hint.kind == H.BUILD_EVENLY:
            assert (engine.BUILD, hint.square) not in offered
        if hint.kind == H.UNMORTGAGE_CASH:
            assert (engine.UNMORTGAGE, hint.square) not in offered


def test_panel_shows_hints_to_the_player_only():
    s = engine.setup(game(), positions={0: 39}, cash={0: 360}, turn=0, phase=engine.P_BUY)
    mine = panel(s, 0)
    assert [h.kind for h in mine.decision_hints] == [H.BUY_CASH]
    spectator = panel(s, None)
    assert spectator.decision_hints == [] and spectator.property_hints == []


def test_action_panel_renders_the_hints():
    s = engine.setup(
        game(), positions={0: 39}, owners={37: 0}, mortgaged=[37], cash={0: 100}, turn=0,
        phase=engine.P_BUY,
    )  # fmt: skip
    html = render_to_string("games/play/actions_body.html", {"panel": panel(s, 0)})
    assert "Buy needs $300 more: mortgage or sell to raise it." in html
    assert "Unmortgaging Park Place needs $193: $93 more than you have." in html

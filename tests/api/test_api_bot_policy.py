"""The example bot's policy (``examples/api_bot.choose``) on positions the
engine sets up, shown to it as the API shows them: it values trades as the
site's heuristic bot does, so each accepts what the other offers; it builds
and lifts mortgages keeping a cushion. No database: the views are built
with the API's own readers."""

from __future__ import annotations

import random
from typing import Any

from api.board import printed_board
from api.reads import legal_actions, private_state, public_state
from examples import api_bot
from games import engine

BOARD = printed_board()
ORANGE = [16, 18, 19]
RED = [21, 23, 24]
DARK_BLUE = [37, 39]


def view_of(s: engine.State, seat: int) -> dict[str, Any]:
    """The game as GET /games/{id} shows it to ``seat``."""
    return {
        "id": "g",
        "version": 1,
        "your_seat": seat,
        "state": public_state(s),
        "private": private_state(s, seat),
        "decisions": [p.to_dict() for p in engine.pending_decisions(s)],
        "legal_actions": legal_actions(s, seat),
    }


def position(turn: int = 0, **kw: Any) -> engine.State:
    s = engine.new_game(engine.ruleset(), ["us", "them"], seed=3)
    return engine.setup(s, turn=turn, phase=engine.P_END, **kw)


def as_engine_action(action: dict[str, Any], seat: int) -> engine.Action:
    return engine.action_from_dict({**action, "player": seat})


def test_a_trade_is_valued_exactly_as_the_site_bots_value_it() -> None:
    rng = random.Random(31)
    for seed in range(40):
        # A position from a random bot game, with a few mortgages.
        s = engine.new_game(engine.ruleset(), ["a", "b", "c"], seed=seed)
        bots = [engine.make_bot("random", seed=i) for i in range(3)]
        for _ in range(rng.randrange(50, 600)):
            if s.finished:
                break
            p = engine.next_actor(s)
            s, _ = engine.apply(s, bots[p].act(s, p))
        s.turn_no = rng.randrange(0, 600)
        state = public_state(s)
        for _ in range(20):
            p, q = rng.sample(range(3), 2)
            mine = [sq for sq in engine.PROPERTIES if s.owner[sq] == p]
            theirs = [sq for sq in engine.PROPERTIES if s.owner[sq] == q]
            recv = rng.sample(theirs, min(len(theirs), rng.randrange(0, 4)))
            give = rng.sample(mine, min(len(mine), rng.randrange(0, 4)))
            cash, cards = rng.randrange(-300, 300), rng.randrange(-1, 2)
            expected = engine.offer_gain(s, p, q, recv, give, cash, cards)
            assert api_bot.trade_value(state, BOARD, p, q, recv, give, cash, cards) == expected


def test_it_offers_a_swap_completing_a_group_for_each_side_and_the_site_bot_accepts() -> None:
    owners = dict.fromkeys(ORANGE[:2] + RED[:1], 0) | dict.fromkeys(ORANGE[2:] + RED[1:], 1)
    s = position(owners=owners)
    offered: dict[Any, int] = {}
    action = api_bot.choose(view_of(s, 0), board=BOARD, offered=offered)
    assert action is not None and action["kind"] == "propose_trade"
    assert action["target"] == 1
    assert action["terms"]["take_props"] == ORANGE[2:]
    assert action["terms"]["give_props"] == RED[:1]
    s, _ = engine.apply(s, as_engine_action(action, 0))
    answer = engine.make_bot("heuristic").act(s, 1)
    assert answer.kind == engine.ACCEPT_TRADE
    s, _ = engine.apply(s, answer)
    assert all(s.owner[sq] == 0 for sq in ORANGE) and all(s.owner[sq] == 1 for sq in RED)


def test_it_pays_the_least_cash_the_site_bot_accepts_for_the_last_site_of_a_group() -> None:
    s = position(owners=dict.fromkeys(DARK_BLUE[:1], 0) | dict.fromkeys(DARK_BLUE[1:], 1))
    action = api_bot.choose(view_of(s, 0), board=BOARD, offered={})
    assert action is not None and action["kind"] == "propose_trade"
    terms = action["terms"]
    assert terms["take_props"] == [39] and terms["give_props"] == []
    # Boardwalk's 400, and half the group's 750 for handing over a group,
    # rounded up to 10.
    assert terms["give_cash"] == 780
    cheaper = engine.Terms((), terms["give_cash"] - 10, (0, 0), (39,), 0, (0, 0))
    assert engine.offer_gain(s, 1, 0, cheaper.give_props, cheaper.take_props, cheaper.give_cash) < 0
    s, _ = engine.apply(s, as_engine_action(action, 0))
    assert engine.make_bot("heuristic").act(s, 1).kind == engine.ACCEPT_TRADE


def test_it_keeps_its_cushion_and_offers_nothing_it_cannot_afford() -> None:
    owners = dict.fromkeys(DARK_BLUE[:1], 0) | dict.fromkeys(DARK_BLUE[1:], 1)
    s = position(owners=owners, cash={0: 780 + api_bot.CUSHION - 1})
    action = api_bot.choose(view_of(s, 0), board=BOARD, offered={})
    assert action is not None and action["kind"] == "end_turn"


def test_a_refused_offer_is_not_made_again_for_some_turns() -> None:
    s = position(owners=dict.fromkeys(DARK_BLUE[:1], 0) | dict.fromkeys(DARK_BLUE[1:], 1))
    offered: dict[Any, int] = {}
    first = api_bot.choose(view_of(s, 0), board=BOARD, offered=offered)
    assert first is not None and first["kind"] == "propose_trade"
    again = api_bot.choose(view_of(s, 0), board=BOARD, offered=offered)
    assert again is not None and again["kind"] == "end_turn"
    s.turn_no += api_bot.RETRY_OFFER_TURNS
    later = api_bot.choose(view_of(s, 0), board=BOARD, offered=offered)
    assert later is not None and later["kind"] == "propose_trade"


def test_it_makes_no_offer_while_one_of_its_own_is_open() -> None:
    s = position(owners=dict.fromkeys(DARK_BLUE[:1], 0) | dict.fromkeys(DARK_BLUE[1:], 1))
    s, _ = engine.apply(
        s, engine.Action(engine.PROPOSE_TRADE, 0, target=1, terms=engine.Terms(give_cash=1))
    )
    action = api_bot.choose(view_of(s, 0), board=BOARD, offered={})
    assert action is not None and action["kind"] == "end_turn"


def offer_to_us(s: engine.State, terms: engine.Terms) -> tuple[engine.State, dict[str, Any]]:
    s, _ = engine.apply(s, engine.Action(engine.PROPOSE_TRADE, 1, target=0, terms=terms))
    return s, view_of(s, 0)


def test_it_accepts_the_site_bots_own_offer() -> None:
    owners = dict.fromkeys(ORANGE[:2] + RED[:1], 1) | dict.fromkeys(ORANGE[2:] + RED[1:], 0)
    s = position(turn=1, owners=owners)
    # What the heuristic bot offers in its trade window (the window aside).
    found = engine.HeuristicBot()._offer(s, 1, engine.candidate_groups(s.owner, 1))
    assert found is not None and found.terms is not None
    s, view = offer_to_us(s, found.terms)
    action = api_bot.choose(view, board=BOARD, offered={})
    assert action is not None and action["kind"] == "accept_trade"


def test_it_refuses_an_offer_the_valuation_does_not_favour() -> None:
    s = position(turn=1, owners=dict.fromkeys(DARK_BLUE[:1], 1) | dict.fromkeys(DARK_BLUE[1:], 0))
    # Boardwalk for its price alone: it hands them dark blue for nothing more.
    s, view = offer_to_us(s, engine.Terms((), 400, (0, 0), (39,), 0, (0, 0)))
    action = api_bot.choose(view, board=BOARD, offered={})
    assert action is not None and action["kind"] == "reject_trade"
    # Without the board it refuses every offer, as it always did.
    s, view = offer_to_us(s, engine.Terms((), 1000, (0, 0), (39,), 0, (0, 0)))
    assert (api_bot.choose(view, board=BOARD, offered={}) or {})["kind"] == "accept_trade"
    assert (api_bot.choose(view) or {})["kind"] == "reject_trade"


def test_it_builds_evenly_on_a_complete_group_keeping_its_cushion() -> None:
    cost = BOARD["squares"][37]["house_cost"]
    s = position(owners=dict.fromkeys(DARK_BLUE, 0), cash={0: api_bot.CUSHION + 2 * cost})
    built = []
    while True:
        action = api_bot.choose(view_of(s, 0), board=BOARD, offered={})
        assert action is not None
        if action["kind"] != "build":
            break
        built.append(action["square"])
        s, _ = engine.apply(s, as_engine_action(action, 0))
    assert sorted(built) == DARK_BLUE and s.cash[0] == api_bot.CUSHION
    assert action["kind"] == "end_turn"


def test_it_lifts_a_mortgage_in_a_complete_group_before_building() -> None:
    s = position(owners=dict.fromkeys(DARK_BLUE, 0), mortgaged=[37], cash={0: 1000})
    action = api_bot.choose(view_of(s, 0), board=BOARD, offered={})
    assert action == {"kind": "unmortgage", "square": 37}


def test_it_buys_what_it_is_offered_and_can_pay_for() -> None:
    view = {
        "your_seat": 0,
        "state": {"cash": [300, 300]},
        "legal_actions": [{"kind": "decline"}, {"kind": "buy"}],
    }
    assert (api_bot.choose(view) or {})["kind"] == "buy"

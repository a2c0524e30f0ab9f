"""The public API: apply, legal_actions, pending_decisions, timeouts, codec."""

from __future__ import annotations

import json

import pytest

from games.engine import (
    P_ROLL,
    SCHEMA_VERSION,
    SYSTEM,
    Action,
    CodecError,
    IllegalAction,
    NotYourTurn,
    UnknownAction,
    action_from_dict,
    apply,
    from_dict,
    legal_actions,
    make_record,
    new_game,
    pending_decisions,
    render_event,
    replay,
    timeout_action,
    to_dict,
)
from games.engine.events import EVENT_FIELDS, Event, event_from_dict

from .helpers import A, act, deal, force_dice, game, setup


def test_apply_does_not_change_its_input() -> None:
    s = game()
    before = json.dumps(to_dict(s))
    new, events = apply(s, Action(A.ROLL, 0))
    assert json.dumps(to_dict(s)) == before and new is not s and events


def test_illegal_action_raises_and_changes_nothing() -> None:
    s = game()
    before = to_dict(s)
    with pytest.raises(NotYourTurn, match="not your turn"):
        apply(s, Action(A.ROLL, 1))
    with pytest.raises(UnknownAction):
        apply(s, Action("teleport", 0))
    with pytest.raises(IllegalAction):
        apply(s, Action(A.ROLL, 5))
    assert to_dict(s) == before


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)


def test_legal_actions_at_the_start() -> None:
    s = game()
    assert legal_actions(s, 0) == [Action(A.ROLL, 0), Action(A.RESIGN, 0)]
    assert legal_actions(s, 1) == [Action(A.RESIGN, 1)]
    s = deal(s, 1, 1, 3)
    kinds = {a.kind for a in legal_actions(s, 1)}
    assert kinds == {A.MORTGAGE, A.BUILD, A.RESIGN}


def test_pending_decisions_lists_several_deciders() -> None:
    s = game(players=3)
    s = deal(s, 2, 39)
    s = deal(s, 1, 1)
    s, _ = act(s, A.PROPOSE_TRADE, player=1, target=2, terms=A.Terms(give_props=(1,)))
    s = setup(s, positions={0: 33})
    force_dice(s, (2, 4), (1, 1))
    s, _ = act(s, A.ROLL)  # lands on Boardwalk: a claim for player 2
    kinds = {(d.player, d.kind) for d in pending_decisions(s)}
    assert kinds == {(0, "end_turn"), (2, "trade_response"), (2, "claim_rent")}


def test_timeout_defaults() -> None:
    s = game(players=3)
    assert timeout_action(s, 0) == Action(A.ROLL, 0)
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    assert timeout_action(s, 0) == Action(A.DECLINE, 0)
    s, _ = act(s, A.DECLINE)
    assert timeout_action(s, 1) == Action(A.PASS_BID, 1)
    for q in range(3):
        s, _ = act(s, *(lambda a: (a.kind, a.player))(timeout_action(s, q)))  # type: ignore[arg-type]
    assert timeout_action(s, 0) == Action(A.END_TURN, 0)
    s = setup(s, positions={0: 1}, phase=P_ROLL)
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    assert timeout_action(s, 0) == Action(A.INCOME_TAX_FLAT, 0)


def test_timeout_expires_a_claim_and_rejects_a_trade() -> None:
    s = game(players=3)
    s = deal(s, 2, 39)
    s = deal(s, 1, 1)
    s, _ = act(s, A.PROPOSE_TRADE, player=1, target=2, terms=A.Terms(give_props=(1,)))
    a = timeout_action(s, 2)
    assert a.kind == A.REJECT_TRADE
    s, _ = act(s, a.kind, player=2, target=a.target)
    s = setup(s, positions={0: 33})
    force_dice(s, (2, 4))
    s, _ = act(s, A.ROLL)
    a = timeout_action(s, 2)
    assert a.kind == A.EXPIRE_CLAIM and a.player == SYSTEM


def test_state_round_trips_through_json_exactly() -> None:
    s = game(players=3)
    s = deal(s, 1, 1)
    s, _ = act(s, A.PROPOSE_TRADE, player=1, target=2, terms=A.Terms(give_props=(1,)))
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, _ = act(s, A.DECLINE)
    d = to_dict(s)
    assert d["schema_version"] == SCHEMA_VERSION
    back = from_dict(json.loads(json.dumps(d)))
    assert back == s and to_dict(back) == d


def test_from_dict_rejects_other_schema_versions() -> None:
    d = to_dict(game())
    d["schema_version"] = 999
    with pytest.raises(CodecError):
        from_dict(d)


def test_actions_round_trip_through_dicts() -> None:
    a = Action(A.PROPOSE_TRADE, 1, target=2, terms=A.Terms((1, 3), 10, (1, 0), (5,), 0, (0, 0)))
    assert action_from_dict(json.loads(json.dumps(a.to_dict()))) == a
    with pytest.raises(CodecError):
        action_from_dict({"kind": "fly", "player": 0})


def test_replaying_a_record_reproduces_the_state() -> None:
    from games.engine.rules import ruleset
    from games.engine.sim import play_game

    res = play_game(ruleset(), 3, 11, "heuristic", "pay", 60, record=True)
    rec = json.loads(json.dumps(make_record(ruleset(), res.state.names, 11, res.actions)))
    assert replay(rec) == res.state


def test_every_event_kind_renders_one_line() -> None:
    from games.engine import ruleset

    for kind, fields in EVENT_FIELDS.items():
        args = tuple(0 if f not in ("reason",) else "time" for f in fields)
        ev = Event(kind, 0, args)
        for r in (ruleset(), ruleset("uk")):
            line = render_event(ev, r, ["Ann"])
            assert line and "\n" not in line, kind
        assert event_from_dict(ev.to_dict()) == ev


def test_new_game_is_deterministic_for_a_seed() -> None:
    a = new_game("us-2003", ["a", "b", "c"], 5)
    b = new_game("us-2003", ["a", "b", "c"], 5)
    assert a == b and to_dict(a) == to_dict(b)


def test_timeout_during_an_auction_answers_the_trade_not_the_turn() -> None:
    """The turn player's default waits while an auction is open (found by fuzzing)."""
    s = game(players=3)
    s = deal(s, 2, 1)
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, _ = act(s, A.DECLINE)
    s, _ = act(s, A.BID, player=0, amount=10)
    s, _ = act(s, A.PROPOSE_TRADE, player=2, target=0, terms=A.Terms(give_props=(1,)))
    assert timeout_action(s, 0).kind == A.REJECT_TRADE

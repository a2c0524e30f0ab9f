"""The simulator behind ``manage.py simulate`` and the bots."""

from __future__ import annotations

import json

import pytest

from games.engine import (
    P_BUY,
    P_END,
    PRESETS,
    SCHEMA_VERSION,
    HeuristicBot,
    make_bot,
    play_game,
    replay_file,
    ruleset,
    simulate,
)

from .helpers import A, act, deal, game, setup


def test_simulate_reports_the_agreed_fields() -> None:
    out = simulate(5, players=4, seed=1, bot="heuristic", max_turns=200)
    for key in ("games", "player_turns", "seconds", "player_turns_per_second"):
        assert key in out
    assert out["games"] == 5 and out["invariant_violations"] is None
    assert sum(out["ended_by"].values()) == 5
    positions = out["end_of_turn_positions"]
    assert set(positions) == {str(i) for i in range(40)} | {"jail"}
    assert positions["30"] == 0  # nobody ends a turn on Go To Jail
    assert sum(positions.values()) == out["player_turns"]


def test_max_turns_counts_as_a_turn_limit() -> None:
    out = simulate(3, players=4, seed=2, bot="heuristic", max_turns=10)
    assert out["ended_by"] == {"turn_limit": 3} and out["player_turns"] == 30


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_bot_games_keep_the_invariants_in_every_preset(preset: str, bot: str) -> None:
    out = simulate(
        3, players=3, seed=4, ruleset_name=preset, bot=bot, max_turns=60, check_invariants=True
    )
    assert out["invariant_violations"] == 0, out.get("violation_examples")


@pytest.mark.parametrize("policy", ["pay", "stay"])
def test_jail_policies(policy: str) -> None:
    out = simulate(4, players=4, seed=3, bot="heuristic", jail_policy=policy, max_turns=150)
    assert out["end_of_turn_positions"]["jail"] > 0


def test_stay_policy_rolls_in_jail_and_pay_policy_pays() -> None:
    s = setup(game(), jail={0: 0})
    assert HeuristicBot("stay").act(s, 0).kind == A.ROLL
    assert HeuristicBot("pay").act(s, 0).kind == A.PAY_JAIL_FINE


def test_heuristic_bot_keeps_a_cash_cushion_when_buying() -> None:
    s = setup(game(), positions={0: 39}, phase=P_BUY, cash={0: 500})
    assert HeuristicBot().act(s, 0).kind == A.DECLINE
    s = setup(s, cash={0: 600})
    assert HeuristicBot().act(s, 0).kind == A.BUY


def test_heuristic_bot_builds_evenly_on_complete_groups() -> None:
    s = game()
    s = deal(s, 0, 6, 8, 9)
    s = setup(s, phase=P_END)
    bot = HeuristicBot()
    for _ in range(6):
        s, _ = act(s, bot.act(s, 0).kind, square=bot.act(s, 0).square)
    assert sorted(s.bld[q] for q in (6, 8, 9)) == [2, 2, 2]


def test_heuristic_bot_asks_more_for_a_trade_that_hands_over_a_group() -> None:
    s = game()
    s = deal(s, 0, 37)
    s = deal(s, 1, 39)
    s, _ = act(
        s, A.PROPOSE_TRADE, player=1, target=0, terms=A.Terms(take_props=(37,), give_cash=360)
    )
    # Not accepted: countered at the price plus half the dark blue premium.
    answer = HeuristicBot().act(s, 0)
    assert answer.kind == A.COUNTER_TRADE
    assert answer.terms == A.Terms(give_props=(37,), take_cash=730)
    s2 = game()
    s2 = deal(s2, 0, 37)
    s2 = deal(s2, 1, 1)
    s2, _ = act(
        s2, A.PROPOSE_TRADE, player=1, target=0, terms=A.Terms(take_props=(37,), give_cash=500)
    )
    assert HeuristicBot().act(s2, 0).kind == A.ACCEPT_TRADE


def test_bots_are_deterministic() -> None:
    a = play_game(ruleset(), 3, 9, "random", "pay", 40, record=True)
    b = play_game(ruleset(), 3, 9, "random", "pay", 40, record=True)
    assert a.actions == b.actions and a.state == b.state


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(ValueError):
        make_bot("clever")


def test_replay_file_prints_the_final_state(tmp_path: object) -> None:
    from pathlib import Path

    from games.engine import make_record

    res = play_game(ruleset("uk"), 2, 3, "heuristic", "stay", 30, record=True)
    path = Path(str(tmp_path)) / "game.json"
    path.write_text(json.dumps(make_record("uk", res.state.names, 3, res.actions)))
    out = json.loads(replay_file(str(path)))
    assert out["cash"] == res.state.cash and out["schema_version"] == SCHEMA_VERSION

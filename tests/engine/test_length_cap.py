"""The length cap (issue #33): ``cap_turns`` ends the game by net worth at
the end of the round in which each player has had that many turns;
``cap_days`` lets the server's clock end it at once (``end_cap``)."""

from __future__ import annotations

import json

import pytest

from games.engine import (
    END_CAP,
    END_LENGTH_CAP,
    HOTEL,
    P_END,
    P_OVER,
    PRESETS,
    SYSTEM,
    Action,
    GameOver,
    NotYourTurn,
    RulesetError,
    RuleViolation,
    State,
    apply,
    auction_view,
    check_invariants,
    from_dict,
    is_legal,
    legal_actions,
    make_bot,
    make_record,
    new_game,
    next_actor,
    replay,
    ruleset,
    step,
    to_dict,
    verify_record,
)
from games.ranking import final_ranking

from .helpers import A as K
from .helpers import act, find, force_dice, game, kinds, setup

SECRET = "cd" * 32


def end_turns(s: State, count: int) -> State:
    """``count`` turns ended in a row, each player doing nothing else."""
    for _ in range(count):
        assert not s.finished
        s, _ = act(setup(s, phase=P_END), K.END_TURN)
    return s


def test_the_game_ends_by_net_worth_when_each_player_has_had_the_capped_turns() -> None:
    s = game(players=3, cap_turns=2)
    # 1000 cash; 700 cash, Boardwalk (400) and Park Place mortgaged (350 / 2).
    s = setup(s, cash={0: 1000, 1: 700, 2: 900}, owners={39: 1, 37: 1}, mortgaged=[37])
    s = end_turns(s, 5)
    assert not s.finished and s.played == [2, 2, 1]
    s, ev = act(setup(s, phase=P_END), K.END_TURN)
    assert s.phase == P_OVER and s.end_reason == END_LENGTH_CAP == "length_cap"
    assert s.values == [1000, 1275, 900] and s.winner == 1
    assert kinds(ev)[-2:] == ["length_cap", "game_over"]
    assert find(ev, "length_cap").args == (2, 0)
    assert [(rank, p) for rank, p, _ in final_ranking(s)] == [(1, 1), (2, 0), (3, 2)]


def test_the_cap_counts_rounds_from_whoever_moved_first() -> None:
    s = setup(game(players=3, cap_turns=1), turn=2)
    s = end_turns(s, 2)
    assert not s.finished and s.turn == 1
    s = end_turns(s, 1)
    assert s.finished and s.played == [1, 1, 1]


def test_after_someone_leaves_the_round_still_ends_with_as_many_turns_each() -> None:
    s = setup(game(players=3, cap_turns=2), cash={2: 10})
    s = end_turns(s, 5)  # seats 0 and 1 have had 2 turns, seat 2 one
    s, _ = act(s, K.RESIGN, player=0)
    assert not s.finished
    s = end_turns(s, 1)  # seat 2's second turn ends the round
    assert s.finished and s.end_reason == END_LENGTH_CAP
    assert s.values[0] == -1 and s.winner == 1
    # Whoever left ranks below everyone still in, however little they have.
    assert [p for _, p, _ in final_ranking(s)] == [1, 2, 0]


def test_no_cap_by_default_and_no_count_kept() -> None:
    assert all(r.cap_turns == 0 and r.cap_days == 0 for r in PRESETS.values())
    s = game()
    assert s.played == [] and "played" not in to_dict(s)
    s = end_turns(s, 50)
    assert not s.finished
    assert not is_legal(s, Action(END_CAP, SYSTEM))


def test_the_caps_must_be_sane_whole_numbers() -> None:
    for bad in ({"cap_turns": -1}, {"cap_days": 367}, {"cap_turns": "10"}, {"cap_days": 1.5}):
        with pytest.raises(RulesetError):
            ruleset(**bad)
    assert ruleset(cap_turns=30, cap_days=14).to_dict() == {
        "preset": "us-2003",
        "overrides": {"cap_turns": 30, "cap_days": 14},
    }


def test_the_days_cap_ends_the_game_at_once_mid_auction() -> None:
    s = setup(game(cap_days=7), owners={39: 1}, cash={0: 1000})
    force_dice(s, (1, 2))
    s, _ = act(s, K.ROLL)
    s, _ = act(s, K.DECLINE)
    assert auction_view(s) is not None
    assert Action(END_CAP, SYSTEM) in legal_actions(s, SYSTEM)
    s, ev = act(s, END_CAP, player=SYSTEM)
    assert s.finished and s.end_reason == END_LENGTH_CAP
    assert s.auction is None and s.owner[3] == -1
    assert s.values == [1000, 1500 + 400] and s.winner == 1
    assert find(ev, "length_cap").args == (0, 7)


def test_an_open_debt_counts_against_the_debtor_and_for_the_creditor() -> None:
    s = game(cap_days=7, rent_collection="automatic")
    s = setup(
        s, cash={0: 100}, owners={37: 1, 39: 1}, buildings={37: HOTEL, 39: HOTEL}, positions={0: 34}
    )
    force_dice(s, (2, 3))
    s, _ = act(s, K.ROLL)
    assert s.debts
    s, _ = act(s, END_CAP, player=SYSTEM)
    assert not s.debts and s.values[0] == 0
    # Creditor: cash, both deeds, the hotels at five buildings, and what the debtor had.
    assert s.values[1] == 1500 + 350 + 400 + 2 * 5 * 200 + 100
    assert check_invariants(s) == []


def test_a_building_won_but_not_placed_is_refunded() -> None:
    s = game(cap_days=7)
    s.placement = [1, 1, 180]
    s.cash[1] -= 180
    s.bank_in += 180
    s, _ = act(s, END_CAP, player=SYSTEM)
    assert s.placement is None and s.cash[1] == 1500 and s.values[1] == 1500


def test_only_the_server_may_end_a_capped_game_and_only_while_it_runs() -> None:
    s = game(cap_days=3)
    assert not is_legal(s, Action(END_CAP, 0))
    assert all(a.kind != END_CAP for p in range(2) for a in legal_actions(s, p))
    with pytest.raises(NotYourTurn):
        apply(s, Action(END_CAP, 0))
    with pytest.raises(RuleViolation):
        apply(game(cap_turns=3), Action(END_CAP, SYSTEM))
    s, _ = act(s, END_CAP, player=SYSTEM)
    assert not is_legal(s, Action(END_CAP, SYSTEM))
    with pytest.raises(GameOver):
        apply(s, Action(END_CAP, SYSTEM))


def test_the_count_survives_the_json_round_trip() -> None:
    s = end_turns(game(players=3, cap_turns=5), 4)
    back = from_dict(json.loads(json.dumps(to_dict(s))))
    assert back == s and back.played == [2, 1, 1]


def test_a_capped_game_replays_and_verifies() -> None:
    rules = ruleset(cap_turns=12)
    names = ["a", "b", "c"]
    s = new_game(rules, names, 0, secret=SECRET)
    bots = [make_bot("random", seed=i) for i in range(3)]
    actions = []
    log: list[tuple[str, int, tuple[object, ...]]] = []
    while not s.finished:
        p = next_actor(s)
        a = bots[p].act(s, p)
        assert a.kind != END_CAP
        step(s, a, log)
        actions.append(a)
    assert s.end_reason == END_LENGTH_CAP
    assert {s.played[p] for p in range(3) if s.alive[p]} == {12}
    record = make_record(rules, names, 0, actions, secret=SECRET)
    assert verify_record(record).ok
    again = replay(record)
    assert to_dict(again) == to_dict(s)


def test_the_system_end_is_recorded_and_replayed() -> None:
    rules = ruleset(cap_days=2)
    s = new_game(rules, ["a", "b"], 5, secret=SECRET)
    bot = make_bot("random", seed=1)
    actions = []
    for _ in range(30):
        a = bot.act(s, next_actor(s))
        s, _ = apply(s, a)
        actions.append(a)
    s, _ = apply(s, Action(END_CAP, SYSTEM))
    actions.append(Action(END_CAP, SYSTEM))
    record = make_record(rules, ["a", "b"], 5, actions, secret=SECRET)
    assert verify_record(record).ok
    assert to_dict(replay(record)) == to_dict(s)

"""The site's turn limit (``Ruleset.turn_limit``, set for games with no
person seated): the game ends by net worth at the end of a round."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import (
    P_END,
    P_OVER,
    P_ROLL,
    RulesetError,
    State,
    make_bot,
    make_record,
    new_game,
    next_actor,
    ruleset,
    setup,
    step,
    verify_record,
)
from games.ranking import final_ranking

from .helpers import A, act, find, game, kinds

SECRET = "ab" * 32


def at_turn(players: int, turn_no: int, limit: int, turn: int = 0, **position: Any) -> State:
    s = game(players=players, turn_limit=limit)
    s = setup(s, turn=turn, phase=P_END, **position)
    s.turn_no = turn_no
    return s


def test_the_game_ends_by_net_worth_when_a_turn_reaches_the_limit() -> None:
    s = at_turn(2, 9, 10, turn=1, cash={0: 900, 1: 1000})
    s, ev = act(s, A.END_TURN)
    assert s.phase == P_OVER and s.finished
    assert s.end_reason == "turn_limit"
    assert s.winner == 1 and s.values == [900, 1000]
    assert kinds(ev)[-2:] == ["turn_limit", "game_over"]
    assert find(ev, "turn_limit").args == (10,)
    assert "turn_start" not in kinds(ev)
    assert not s.trades and not s.claims


def test_the_turns_before_the_limit_are_played() -> None:
    s = at_turn(2, 8, 10, turn=1)
    s, _ev = act(s, A.END_TURN)
    assert s.phase == P_ROLL and s.turn_no == 9 and not s.finished


def test_the_limit_waits_for_the_end_of_the_round_so_everyone_has_as_many_turns() -> None:
    # Three players, limit 10: turn 10 is mid-round; the round ends at 12.
    s = at_turn(3, 9, 10, turn=0)
    for expected in (10, 11):
        s, _ = act(s, A.END_TURN)
        assert not s.finished and s.turn_no == expected
        s = setup(s, phase=P_END)
    s, _ev = act(s, A.END_TURN)
    assert s.finished and s.turn_no == 12 and s.end_reason == "turn_limit"


def test_property_counts_at_its_price_and_a_mortgaged_one_at_half() -> None:
    # 1000 cash against 700 cash, Boardwalk (400) and Park Place mortgaged (175).
    s = at_turn(2, 9, 10, turn=1, cash={0: 1000, 1: 700}, owners={39: 1, 37: 1}, mortgaged=[37])
    s, _ = act(s, A.END_TURN)
    assert s.values == [1000, 1275] and s.winner == 1


def test_a_tie_goes_to_the_earlier_seat_as_in_the_time_limit_game() -> None:
    s = at_turn(3, 11, 12, turn=2, cash={0: 800, 1: 1200, 2: 1200})
    s, _ = act(s, A.END_TURN)
    assert s.winner == 1
    assert [(rank, player) for rank, player, _ in final_ranking(s)] == [(1, 1), (2, 2), (3, 0)]


def test_no_limit_by_default() -> None:
    s = game()
    assert s.rules.turn_limit == 0
    s = setup(s, turn=1, phase=P_END)
    s.turn_no = 99_999
    s, _ = act(s, A.END_TURN)
    assert not s.finished


def test_the_limit_must_be_a_sane_whole_number() -> None:
    with pytest.raises(RulesetError):
        ruleset(turn_limit=-1)
    with pytest.raises(RulesetError):
        ruleset(turn_limit="500")
    assert ruleset(turn_limit=500).to_dict() == {
        "preset": "us-2003",
        "overrides": {"turn_limit": 500},
    }


def test_a_game_ended_at_the_limit_replays_and_verifies() -> None:
    """Random bots rarely end a game; at a limit of 40 turns the record's
    moves replay to the same end, and the fair-dice check passes."""
    rules = ruleset(turn_limit=40)
    s = new_game(rules, ["a", "b", "c"], 0, secret=SECRET)
    bots = [make_bot("random", seed=i) for i in range(3)]
    actions = []
    log: list[tuple[str, int, tuple[object, ...]]] = []
    while not s.finished:
        p = next_actor(s)
        a = bots[p].act(s, p)
        step(s, a, log)
        actions.append(a)
    assert s.end_reason == "turn_limit" and s.turn_no == 42
    record = make_record(rules, ["a", "b", "c"], 0, actions, secret=SECRET)
    verification = verify_record(record)
    assert verification.ok, verification.checks


def test_the_limit_waits_while_a_person_plays_and_ends_the_round_after_they_leave() -> None:
    # Seat 0 is a person: past the limit the bots play on with them.
    s = game(players=3, turn_limit=10, turn_limit_people=0b001)
    s = setup(s, turn=2, phase=P_END)
    s.turn_no = 11
    s, _ = act(s, A.END_TURN)
    assert not s.finished and s.turn_no == 12 and s.turn == 0
    # Once the person resigns, the first round's end of the two bots left ends it.
    s, _ = act(s, A.RESIGN, player=0)
    assert not s.finished and s.alive == [False, True, True]
    while not s.finished:
        assert s.turn_no < 20
        s = setup(s, phase=P_END)
        s, ev = act(s, A.END_TURN)
    assert s.end_reason == "turn_limit" and s.turn_no % 2 == 0
    assert kinds(ev)[-2:] == ["turn_limit", "game_over"]


def test_the_people_are_a_bit_a_seat_of_at_most_eight() -> None:
    with pytest.raises(RulesetError):
        ruleset("us-2003", turn_limit_people=256)
    with pytest.raises(RulesetError):
        ruleset("us-2003", turn_limit_people=-1)

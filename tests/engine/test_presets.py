"""Presets and switches (rule-variants.md), dealt deeds and the time limit."""

from __future__ import annotations

import json

import pytest

from games.engine import (
    HOTEL,
    P_OVER,
    PRESETS,
    PRICE,
    SYSTEM,
    Event,
    RulesetError,
    RuleViolation,
    new_game,
    ruleset,
    ruleset_from_dict,
)

from .helpers import A, act, force_dice, game, kinds, setup


def test_every_preset_is_valid_and_round_trips_through_json() -> None:
    """Rule: a ruleset is a preset plus overrides, serialisable (issue 3)."""
    assert set(PRESETS) == {
        "us-2003", "us-2008", "uk", "short-2003", "short-classic", "time-limit", "quick-web",
    }  # fmt: skip
    for name in PRESETS:
        r = ruleset(name, starting_cash=1000)
        back = ruleset_from_dict(json.loads(json.dumps(r.to_dict())))
        assert back == r


def test_bad_switch_values_raise_clear_errors() -> None:
    """Switch validation (issue 3)."""
    with pytest.raises(RulesetError, match="houses_per_hotel"):
        ruleset(houses_per_hotel=5)
    with pytest.raises(RulesetError, match="Unknown switch"):
        ruleset(free_lunch=True)
    with pytest.raises(RulesetError, match="must be a bool"):
        ruleset(auctions="yes")
    with pytest.raises(RulesetError, match="Unknown preset"):
        ruleset("monopoly-deluxe")
    with pytest.raises(RulesetError, match="between"):
        ruleset(max_players=9)


def test_player_count_limits() -> None:
    """Rule: 2 to 8 players (003); UK 2 to 6 (001)."""
    with pytest.raises(RuleViolation):
        new_game("us-2003", ["a"], 1)
    new_game("us-2003", [str(i) for i in range(8)], 1)
    with pytest.raises(RuleViolation):
        new_game("uk", [str(i) for i in range(7)], 1)


def test_uk_preset_uses_london_names_and_pounds() -> None:
    """Rule: UK board and currency (001)."""
    from games.engine import render_event

    r = ruleset("uk")
    line = render_event(Event("buy", 0, (39, 400)), r, ["Ann"])
    assert line == "Ann buys Mayfair for £400."
    assert render_event(Event("buy", 0, (39, 400)), ruleset(), ["Ann"]) == (
        "Ann buys Boardwalk for $400."
    )


def test_short_2003_deals_three_free_deeds() -> None:
    """Rule: the banker deals three Title Deeds each, free (003 short 1)."""
    ev: list[Event] = []
    s = new_game("short-2003", ["a", "b", "c"], 3, ev)
    assert [s.owner.count(p) for p in range(3)] == [3, 3, 3]
    assert s.cash == [1500] * 3 and kinds(ev).count("deal") == 9


def test_time_limit_deals_two_deeds_paid_at_printed_price() -> None:
    """Rule: deal two each; players pay the bank the printed price (003 time limit)."""
    s = new_game("time-limit", ["a", "b"], 3)
    for p in range(2):
        owned = [sq for sq in range(40) if s.owner[sq] == p]
        assert len(owned) == 2 and s.cash[p] == 1500 - sum(PRICE[sq] for sq in owned)


def test_time_limit_end_now_values_everyone() -> None:
    """Rule: at the agreed hour the richest player wins (003 time limit; 001 valuation)."""
    s = game("time-limit")
    s, _ev = act(s, A.END_NOW, player=SYSTEM)
    assert s.phase == P_OVER and s.end_reason == "time"
    assert s.winner == max(range(2), key=lambda p: (s.values[p], -p))


def test_time_limit_lets_the_player_complete_the_move() -> None:
    """Rule: a player in the middle of a move completes it (001 short game)."""
    s = game("time-limit")
    s = setup(s, owners={sq: -1 for sq in range(40) if s.owner[sq] >= 0})
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, ev = act(s, A.END_NOW, player=SYSTEM)
    assert s.phase != P_OVER and "end_requested" in kinds(ev)
    s, _ = act(s, A.BUY)
    s, ev = act(s, A.END_TURN)
    assert s.phase == P_OVER and s.owner[3] == 0


def test_end_now_is_refused_without_a_time_limit() -> None:
    """Rule: only the time-limit game ends on the clock (issue 3)."""
    with pytest.raises(RuleViolation):
        act(game(), A.END_NOW, player=SYSTEM)


def test_hotels_valued_including_the_houses_turned_in() -> None:
    """Rule: hotels valued at purchase price including the houses (003 short 5; 001: five houses)."""
    s = game("time-limit")
    s = setup(
        s,
        owners={**{sq: -1 for sq in range(40) if s.owner[sq] >= 0}, 37: 0, 39: 0, 12: 0},
        buildings={37: HOTEL, 39: HOTEL},
        mortgaged=[12],
        cash={0: 1500, 1: 1500},
    )
    s, _ = act(s, A.END_NOW, player=SYSTEM)
    assert s.values[0] == 1500 + 350 + 400 + 2 * 5 * 200 + 75

"""Jail (003 JAIL; 001 extra throw; short game of 003; 004 community)."""

from __future__ import annotations

import pytest

from games.engine import P_END, P_ROLL, RuleViolation, State, offers

from .helpers import A, act, force_dice, game, kinds, setup


def jailed(preset: str = "us-2003", **kw: object) -> State:
    s = game(preset, **kw)  # type: ignore[arg-type]
    return setup(s, jail={0: 0})


def test_landing_on_go_to_jail_sends_you_there() -> None:
    """Rule: landing on "Go to Jail" (003 JAIL)."""
    s = game()
    s = setup(s, positions={0: 25})
    force_dice(s, (2, 3))
    s, _ev = act(s, A.ROLL)
    assert s.in_jail[0] and s.pos[0] == 10 and s.phase == P_END


def test_just_visiting_is_no_penalty() -> None:
    """Rule: landing on Jail in ordinary play is Just Visiting (003)."""
    s = game()
    s = setup(s, positions={0: 5}, owners={5: 0})
    force_dice(s, (2, 3))
    s, _ = act(s, A.ROLL)
    assert s.pos[0] == 10 and not s.in_jail[0]


def test_doubles_free_you_and_move_without_another_throw_us() -> None:
    """Rule: doubles in jail: move, but "you do not take another turn" (003)."""
    s = jailed()
    force_dice(s, (3, 3))
    s, ev = act(s, A.ROLL)
    assert not s.in_jail[0] and s.pos[0] == 16 and "jail_out" in kinds(ev)
    s, _ = act(s, A.BUY)
    assert s.phase == P_END


def test_doubles_free_you_and_throw_again_uk() -> None:
    """Rule: "He also has another throw of the dice" (001)."""
    s = jailed("uk")
    force_dice(s, (3, 3))
    s, _ = act(s, A.ROLL)
    s, _ = act(s, A.BUY)
    assert s.phase == P_ROLL and s.turn == 0


def test_failed_roll_keeps_you_in_jail() -> None:
    """Rule: no doubles: stay (003)."""
    s = jailed()
    force_dice(s, (1, 2))
    s, _ev = act(s, A.ROLL)
    assert s.in_jail[0] and s.pos[0] == 10 and s.jail_turns[0] == 1 and s.phase == P_END


def test_pay_the_fine_before_rolling_on_the_first_two_turns_only() -> None:
    """Rule: pay 50 "before you roll the dice on either of your next two turns" (003)."""
    s = jailed()
    s, _ = act(s, A.PAY_JAIL_FINE)
    assert not s.in_jail[0] and s.cash[0] == 1450 and s.phase == P_ROLL
    s = setup(jailed(), jail={0: 2})
    with pytest.raises(RuleViolation):
        act(s, A.PAY_JAIL_FINE)


def test_third_failure_pays_the_fine_and_moves_by_that_throw() -> None:
    """Rule: no doubles by the third turn: pay 50, then move by the throw (003)."""
    s = setup(jailed(), jail={0: 2})
    force_dice(s, (1, 2))
    s, ev = act(s, A.ROLL)
    assert not s.in_jail[0] and s.pos[0] == 13 and s.cash[0] == 1450
    assert "jail_fine" in kinds(ev)


def test_use_a_bought_jail_card() -> None:
    """Rule: buy the card from another player and play it (003 JAIL (3))."""
    s = jailed()
    s = setup(s, jail_cards={1: (0, 1)})
    terms = A.Terms(give_cash=40, take_cards=(0, 1))
    s, _ = act(s, A.PROPOSE_TRADE, target=1, terms=terms)
    s, _ = act(s, A.ACCEPT_TRADE, player=1, target=offers(s)[0].id)
    s, _ev = act(s, A.USE_JAIL_CARD, target=1)
    assert not s.in_jail[0] and s.cash[0] == 1460 and len(s.decks[1]) == 16


def test_short_game_must_leave_on_the_next_turn_roll_then_pay() -> None:
    """Rule: short game: roll for doubles and, failing, pay 50 the same turn (003 short)."""
    s = jailed("short-2003")
    s = setup(s, owners={sq: -1 for sq in range(40) if s.owner[sq] >= 0})  # forget the dealt deeds
    force_dice(s, (1, 2))
    s, _ev = act(s, A.ROLL)
    assert not s.in_jail[0] and s.pos[0] == 13 and s.cash[0] == 1450


def test_short_game_may_pay_before_rolling() -> None:
    """Rule: short game: "paying 50" is one of the ways out (003 short)."""
    s = jailed("short-2003")
    s, _ = act(s, A.PAY_JAIL_FINE)
    assert not s.in_jail[0]


def test_jailed_player_may_still_build_and_trade() -> None:
    """Rule: "Even though you are in Jail, you may buy and sell ... houses" (003)."""
    s = jailed(rent_collection="automatic")
    s = setup(s, owners={1: 0, 3: 0}, turn=1)
    s, _ = act(s, A.BUILD, player=0, square=1)
    assert s.bld[1] == 1

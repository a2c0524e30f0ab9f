"""Setup, dice, doubles and the GO salary (seed 003 unless noted)."""

from __future__ import annotations

from games.engine import P_END, P_ROLL, Event, IllegalAction, auction_view, new_game, ruleset
from games.engine.cards import ADVANCE, CHANCE_DECK, JAIL

from .helpers import A, act, find, force_dice, game, kinds, setup, top_card


def test_highest_first_roll_starts_and_ties_throw_again() -> None:
    """Rule: each player throws; the highest total starts (003 THE PLAY)."""
    saw_tie = False
    for seed in range(40):
        ev: list[Event] = []
        s = new_game(ruleset(), ["a", "b", "c", "d"], seed, ev)
        rolls = [e for e in ev if e.kind == "first_roll"]
        contenders = [0, 1, 2, 3]
        while len(contenders) > 1:
            round_, rolls = rolls[: len(contenders)], rolls[len(contenders) :]
            assert [e.player for e in round_] == contenders
            best = max(sum(e.args) for e in round_)
            contenders = [e.player for e in round_ if sum(e.args) == best]
            saw_tie = saw_tie or (len(contenders) > 1)
        assert not rolls
        assert s.turn == contenders[0] == find(ev, "first_player").player
    assert saw_tie


def test_move_by_the_dice_and_end_turn_passes_to_the_left() -> None:
    """Rule: move the sum of the dice; then the turn passes to the left (003)."""
    s = game(players=3)
    force_dice(s, (2, 3))
    s, ev = act(s, A.ROLL)
    assert s.pos[0] == 5 and s.phase != P_ROLL
    s, ev = act(s, A.DECLINE)
    while s.auction is not None:
        s, _ = act(s, A.PASS_BID, player=auction_view(s).bidders[0])
    s, ev = act(s, A.END_TURN)
    assert s.turn == 1 and s.phase == P_ROLL and "turn_start" in kinds(ev)


def test_doubles_give_another_throw() -> None:
    """Rule: after doubles, move and throw again (003 THE PLAY)."""
    s = game()
    force_dice(s, (2, 2))
    s, _ = act(s, A.ROLL)
    assert s.pos[0] == 4  # Income Tax: choose first
    s, _ = act(s, A.INCOME_TAX_FLAT)
    assert s.phase == P_ROLL and s.turn == 0
    try:
        act(s, A.END_TURN)
        raise AssertionError("end_turn must be refused before the doubles throw")
    except IllegalAction:
        pass


def test_third_doubles_sends_to_jail_without_moving() -> None:
    """Rule: three doubles in succession -> straight to jail, no move (003; 001)."""
    s = game()
    force_dice(s, (1, 1), (2, 2), (3, 3))
    s, _ = act(s, A.ROLL)  # to 2, Community Chest
    s = setup(s, positions={0: 10}, phase=P_ROLL)
    s, _ = act(s, A.ROLL)  # to 14, Virginia Avenue: unowned
    s, _ = act(s, A.DECLINE)
    while s.auction is not None:
        s, _ = act(s, A.PASS_BID, player=auction_view(s).bidders[0])
    assert s.phase == P_ROLL
    s, ev = act(s, A.ROLL)
    assert "speeding" in kinds(ev) and "move" not in kinds(ev)
    assert s.in_jail[0] and s.pos[0] == 10 and s.phase == P_END


def test_passing_go_pays_salary() -> None:
    """Rule: each time you pass GO the bank pays 200 (003 "GO")."""
    s = game()
    s = setup(s, positions={0: 38})
    force_dice(s, (2, 3))  # to 3, Baltic
    s, ev = act(s, A.ROLL)
    assert s.cash[0] == 1700 and find(ev, "salary").args == (200,)


def test_landing_on_go_pays_salary() -> None:
    """Rule: landing on GO pays 200 (003 "GO")."""
    s = game()
    s = setup(s, positions={0: 35})
    force_dice(s, (1, 4))
    s, _ = act(s, A.ROLL)
    assert s.pos[0] == 0 and s.cash[0] == 1700


def test_passing_go_then_advance_to_go_card_pays_twice() -> None:
    """Rule: pass GO by dice onto Chance at 7, draw "Advance to GO": 400 (003 "GO")."""
    s = game()
    s = setup(s, positions={0: 36})
    top_card(s, CHANCE_DECK, ADVANCE, 0)
    force_dice(s, (5, 6))  # 36 + 11 = 7
    s, ev = act(s, A.ROLL)
    assert s.pos[0] == 0
    assert kinds(ev).count("salary") == 2 and s.cash[0] == 1900


def test_go_to_jail_card_never_pays_salary() -> None:
    """Rule: sent to jail you cannot collect 200 in that move (003 JAIL)."""
    s = game()
    s = setup(s, positions={0: 33})
    top_card(s, CHANCE_DECK, JAIL)
    force_dice(s, (1, 2))  # 36 Chance
    s, ev = act(s, A.ROLL)
    assert s.in_jail[0] and s.pos[0] == 10 and "salary" not in kinds(ev) and s.cash[0] == 1500


def test_go_salary_switch() -> None:
    """Switch go_salary (house rule; printed 200 in every book)."""
    s = game(go_salary=400)
    s = setup(s, positions={0: 38})
    force_dice(s, (2, 3))
    s, _ = act(s, A.ROLL)
    assert s.cash[0] == 1900


def test_starting_cash_switch() -> None:
    """Switch starting_cash (every book prints 1500)."""
    assert game(starting_cash=2000).cash == [2000, 2000]

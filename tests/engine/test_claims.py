"""Rent claim windows (003 "before the second player following throws";
001 "before the next throw"; 004 community "start of the second following
player's turn"; 002 automatic rent)."""

from __future__ import annotations

import pytest

from games.engine import SYSTEM, IllegalAction, NotYourTurn, State, claims, pending_decisions

from .helpers import A, act, deal, force_dice, game, kinds, setup


def land_on_boardwalk(preset: str = "us-2003", players: int = 3, **kw: object) -> State:
    """Player 0 owns Boardwalk; player 1 lands on it and ends the turn."""
    s = game(preset, players=players, **kw)  # type: ignore[arg-type]
    s = deal(s, 0, 39)
    s = setup(s, turn=1, positions={1: 33})
    force_dice(s, (2, 4))
    s, ev = act(s, A.ROLL)
    assert "claim_open" in kinds(ev) and s.cash[1] == 1500
    return s


def next_turn(s: State) -> State:
    s, _ = act(s, A.END_TURN)
    return s


def test_owner_claim_in_time_collects_rent() -> None:
    """Rule: the owner collects rent by asking for it (003 PAYING RENT)."""
    s = land_on_boardwalk()
    cid = claims(s)[0].id
    assert any(d.kind == "claim_rent" and d.player == 0 for d in pending_decisions(s))
    s, _ev = act(s, A.CLAIM_RENT, player=0, target=cid)
    assert s.cash[1] == 1450 and s.cash[0] == 1550 and not s.claims


def test_only_the_owner_may_claim() -> None:
    """Rule: rent is the owner's to claim (003)."""
    s = land_on_boardwalk()
    with pytest.raises(NotYourTurn):
        act(s, A.CLAIM_RENT, player=2, target=claims(s)[0].id)


def test_us_claim_survives_the_next_players_throw() -> None:
    """Rule: the claim lapses when the second player following throws (003)."""
    s = next_turn(land_on_boardwalk())  # player 2's turn
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    assert s.claims, "the first player following may throw without ending the claim"


def test_us_claim_expires_when_the_second_player_following_throws() -> None:
    """Rule: "before the second player following throws the dice" (003)."""
    s = next_turn(land_on_boardwalk())
    cid = claims(s)[0].id
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)  # player 2 lands on 3, Baltic (unowned)
    s, _ = act(s, A.BUY)
    s = next_turn(s)  # player 0, the owner, is the second player following
    force_dice(s, (2, 3))
    s, ev = act(s, A.ROLL)
    assert cid not in [c[0] for c in s.claims] and "claim_expired" in kinds(ev)


def test_uk_claim_expires_at_the_next_throw() -> None:
    """Rule: "If the owner fails to ask for his rent before the next throw" (001)."""
    s = next_turn(land_on_boardwalk("uk"))
    force_dice(s, (1, 2))
    s, ev = act(s, A.ROLL)
    assert not s.claims and "claim_expired" in kinds(ev)


def test_community_claim_expires_at_the_start_of_the_second_following_turn() -> None:
    """Rule: "until the beginning of the second following player's turn" (004 community)."""
    s = land_on_boardwalk(claim_deadline="second_following_turn")
    s = next_turn(s)
    assert s.claims
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, _ = act(s, A.BUY)
    s, ev = act(s, A.END_TURN)
    assert not s.claims and "claim_expired" in kinds(ev)


def test_server_expires_a_claim_on_its_wall_clock() -> None:
    """Rule: the server's wall-clock limit expires a claim (issue 3)."""
    s = land_on_boardwalk()
    cid = claims(s)[0].id
    s, ev = act(s, A.EXPIRE_CLAIM, player=SYSTEM, target=cid)
    assert not s.claims and "claim_expired" in kinds(ev)
    with pytest.raises(IllegalAction):
        act(s, A.CLAIM_RENT, player=0, target=cid)


def test_debtors_turn_does_not_wait_for_the_claim() -> None:
    """Rule: the debtor's turn goes on while a claim is open (issue 3)."""
    s = land_on_boardwalk()
    s = next_turn(s)
    assert s.turn == 2 and s.claims


def test_timely_claim_can_put_debtor_into_raising_funds_out_of_turn() -> None:
    """Rule: a claim in time makes rent due then, even outside the debtor's turn (issue 3)."""
    s = land_on_boardwalk()
    s = next_turn(s)
    s = setup(s, cash={1: s.cash[1] - 1480})
    s, ev = act(s, A.CLAIM_RENT, player=0, target=claims(s)[0].id)
    assert "debt" in kinds(ev)
    assert next(d.kind for d in pending_decisions(s)) == "raise_funds"
    with pytest.raises(IllegalAction):
        act(s, A.ROLL)  # player 2 waits for the debt


def test_automatic_rent_is_debited_at_once() -> None:
    """Rule: "the money owed is automatically debited" (002)."""
    s = game("quick-web")
    s = deal(s, 0, 39)
    s = setup(s, turn=1, positions={1: 33})
    force_dice(s, (2, 4))
    s, ev = act(s, A.ROLL)
    assert s.cash[1] == 1450 and not s.claims and "rent" in kinds(ev)

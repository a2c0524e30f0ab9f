"""Building shortages follow the book's word "wish" (issue #17).

003 BUILDING SHORTAGES: "If there are a limited number of houses and hotels
available and two or more players wish to buy more than the Bank has, the
houses or hotels must be sold at auction to the highest bidder." A build that
meets a shortage first asks the others who could buy one whether they want
one too (``D_WISH``); only if someone does are the buildings auctioned.
"""

from __future__ import annotations

import pytest

from games.engine import (
    A_HOTEL,
    A_HOUSE,
    D_WISH,
    Action,
    HeuristicBot,
    Pending,
    Placement,
    RuleViolation,
    Shortage,
    State,
    WrongPhase,
    check_invariants,
    from_dict,
    is_legal,
    legal_actions,
    make_bot,
    next_actor,
    pending_decisions,
    placement,
    shortage,
    timeout_action,
    to_dict,
)

from .helpers import A, act, deal, game, kinds, setup, use_up_houses


def scarce(preset: str = "us-2003", left: int = 1, **kw: object) -> State:
    """Seat 0 owns the light blues, seat 1 the browns, seat 2 every house but
    ``left`` and too little cash to build more; it is seat 0's turn."""
    s = game(preset, players=3, **kw)  # type: ignore[arg-type]
    s = deal(s, 0, 6, 8, 9)  # light blues, houses cost 50
    s = deal(s, 1, 1, 3)  # browns, houses cost 50
    s = use_up_houses(s, 2, 32 - left)
    return setup(s, cash={2: 10})


def test_a_shortage_opens_a_window_for_those_who_could_buy() -> None:
    s = scarce()
    s, ev = act(s, A.BUILD, square=6)
    assert kinds(ev) == ["shortage"]
    assert s.bld[6] == 0 and s.bank_houses == 1 and s.cash[0] == 1500
    assert shortage(s) == Shortage(0, 6, A_HOUSE, (1,), ())
    # Seat 2 cannot afford a house: it is not asked. The turn waits.
    assert pending_decisions(s) == [Pending(1, D_WISH, 6)]
    assert {a.kind for a in legal_actions(s, 1)} >= {A.DECLARE_WISH, A.NO_WISH}
    with pytest.raises(WrongPhase, match="scarce"):
        act(s, A.END_TURN)
    with pytest.raises(RuleViolation, match="scarce"):
        act(s, A.BUILD, player=1, square=1)
    with pytest.raises(WrongPhase):
        act(s, A.DECLARE_WISH, player=2)  # not asked


def test_nobody_else_wishes_so_the_build_goes_ahead_without_an_auction() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    paid_in = s.bank_in
    s, ev = act(s, A.NO_WISH, player=1)
    assert kinds(ev) == ["no_wish", "build"]
    assert s.bld[6] == 1 and s.bank_houses == 0 and s.cash[0] == 1450
    assert shortage(s) is None and s.auction is None
    assert [d.kind for d in pending_decisions(s)] == ["roll"]
    assert s.bank_in == paid_in + 50  # the house, paid when it is built


def test_another_player_wishes_so_the_scarce_house_is_auctioned() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    s, ev = act(s, A.DECLARE_WISH, player=1)
    assert kinds(ev) == ["wish", "auction_start"]
    assert s.bld[6] == 0 and s.bank_houses == 1
    assert {d.player for d in pending_decisions(s) if d.kind == "bid"} == {0, 1}
    s, _ = act(s, A.BID, player=0, amount=60)
    s, _ = act(s, A.PASS_BID, player=1)
    assert placement(s) == Placement(0, A_HOUSE, 60)
    s, _ = act(s, A.PLACE_BUILDING, player=0, square=6)
    assert s.bld[6] == 1 and s.bank_houses == 0 and s.cash[0] == 1440


def test_no_window_when_nobody_else_could_buy() -> None:
    s = scarce()
    s = setup(s, cash={1: 40})  # a brown house costs 50
    s, ev = act(s, A.BUILD, square=6)
    assert kinds(ev) == ["build"] and s.bld[6] == 1 and shortage(s) is None


def test_no_window_when_the_bank_has_enough_for_everyone_who_could_ask() -> None:
    s = scarce(left=2)
    s, ev = act(s, A.BUILD, square=6)
    assert kinds(ev) == ["build"] and s.bank_houses == 1


def test_the_window_asks_every_player_who_could_buy() -> None:
    s = scarce(left=2)
    s = setup(s, cash={2: 1500})  # seat 2 can build on the yellows again
    s, ev = act(s, A.BUILD, square=6)
    assert kinds(ev) == ["shortage"]
    assert shortage(s) == Shortage(0, 6, A_HOUSE, (1, 2), ())
    s, _ = act(s, A.DECLARE_WISH, player=1)
    assert shortage(s) == Shortage(0, 6, A_HOUSE, (2,), (1,))
    # Two want houses and the bank has two: no shortage after all.
    s, ev = act(s, A.NO_WISH, player=2)
    assert kinds(ev) == ["no_wish", "build"] and s.bank_houses == 1


def test_timeout_default_is_no_wish() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    default = timeout_action(s, 1)
    assert default == Action(A.NO_WISH, 1)
    s, ev = act(s, default.kind, player=1)
    assert s.bld[6] == 1 and "auction_start" not in kinds(ev)


def test_heuristic_bot_wishes_only_where_it_would_build() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    assert next_actor(s) == 1
    bot = make_bot("heuristic")
    assert isinstance(bot, HeuristicBot)
    assert bot.act(s, 1) == Action(A.DECLARE_WISH, 1)
    # Keeping its cushion, it would not build: it does not ask.
    poor = setup(s, cash={1: 190})
    assert bot.act(poor, 1) == Action(A.NO_WISH, 1)


def test_random_bot_answers_the_window() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    answers = set()
    for seed in range(20):
        a = make_bot("random", seed=seed).act(s, 1)
        assert is_legal(s, a)
        answers.add(a.kind)
    assert {A.DECLARE_WISH, A.NO_WISH} & answers


def test_a_wish_needs_a_site_and_the_cash_for_it() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    s = setup(s, cash={1: 20})  # spent meanwhile
    with pytest.raises(RuleViolation, match="could not buy"):
        act(s, A.DECLARE_WISH, player=1)
    s, _ev = act(s, A.NO_WISH, player=1)
    assert s.bld[6] == 1


def test_the_build_lapses_if_the_requester_can_no_longer_build() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    s = setup(s, cash={0: 30})
    s, ev = act(s, A.NO_WISH, player=1)
    assert kinds(ev) == ["no_wish", "build_lapsed"]
    assert s.bld[6] == 0 and s.bank_houses == 1 and s.cash[0] == 30


def test_the_window_lapses_when_the_requester_resigns() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    s, ev = act(s, A.RESIGN, player=0)
    assert "build_lapsed" in kinds(ev) and shortage(s) is None
    assert D_WISH not in {d.kind for d in pending_decisions(s)}


def test_an_asked_player_who_resigns_answers_no() -> None:
    s = scarce()
    s = setup(s, cash={2: 1500})
    s, _ = act(s, A.BUILD, square=6)
    assert shortage(s) == Shortage(0, 6, A_HOUSE, (1, 2), ())
    s, _ = act(s, A.DECLARE_WISH, player=1)
    s, _ev = act(s, A.RESIGN, player=2)  # its houses go back: no shortage now
    assert shortage(s) is None and s.bld[6] == 1
    assert s.auction is not None and s.auction[0] == 0  # then its estate is auctioned


def test_a_hotel_shortage_asks_those_who_could_buy_a_hotel() -> None:
    s = game(players=3)
    s = deal(s, 0, 6, 8, 9)
    s = deal(s, 1, 1, 3)
    s = setup(s, buildings={6: 4, 8: 4, 9: 4, 1: 4, 3: 4})
    hotels = {sq: 5 for sq in (11, 13, 14, 16, 18, 19, 21, 23, 24, 26, 27)}
    s = setup(s, owners=dict.fromkeys([*hotels, 29], 2), buildings={**hotels, 29: 4})
    s = setup(s, cash={2: 10})
    assert s.bank_hotels == 1
    s, _ = act(s, A.BUILD, square=6)
    assert shortage(s) == Shortage(0, 6, A_HOTEL, (1,), ())
    s, _ev = act(s, A.DECLARE_WISH, player=1)
    assert s.auction is not None and s.auction[0] == A_HOTEL


def test_switch_off_first_come_first_served() -> None:
    """Switch building_shortage_auctions=False (002): nobody is asked."""
    s = scarce(building_shortage_auctions=False)
    s, ev = act(s, A.BUILD, square=6)
    assert kinds(ev) == ["build"]


def test_uk_the_turn_player_builds_and_the_others_may_still_wish() -> None:
    """001 builds "in his turn" but keeps the shortage paragraph word for word:
    the others cannot build now, yet they may ask for the scarce houses."""
    s = scarce("uk")
    with pytest.raises(RuleViolation, match="own turn"):
        act(s, A.BUILD, player=1, square=1)
    s, ev = act(s, A.BUILD, square=6)
    assert kinds(ev) == ["shortage"] and pending_decisions(s) == [Pending(1, D_WISH, 6)]
    s, ev = act(s, A.DECLARE_WISH, player=1)
    assert "auction_start" in kinds(ev)
    s, _ = act(s, A.BID, player=1, amount=70)
    s, _ = act(s, A.PASS_BID, player=0)
    # The auction's winner places the house out of turn.
    s, _ = act(s, A.PLACE_BUILDING, player=1, square=1)
    assert s.bld[1] == 1 and s.bank_houses == 0 and s.cash[1] == 1430


def test_uk_nobody_else_wishes_so_the_turn_player_builds() -> None:
    s = scarce("uk")
    s, _ = act(s, A.BUILD, square=6)
    s, ev = act(s, timeout_action(s, 1).kind, player=1)
    assert kinds(ev) == ["no_wish", "build"] and s.bld[6] == 1


def test_uk_only_the_turn_player_can_open_a_window() -> None:
    s = scarce("uk")
    s = setup(s, turn=1)
    with pytest.raises(RuleViolation, match="own turn"):
        act(s, A.BUILD, player=0, square=6)
    s, _ev = act(s, A.BUILD, player=1, square=1)
    assert shortage(s) == Shortage(1, 1, A_HOUSE, (0,), ())


def test_the_window_survives_a_json_round_trip() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    assert from_dict(to_dict(s)) == s
    old = to_dict(scarce())
    del old["wish"]  # a state stored before the window existed
    assert from_dict(old).wish is None


def test_invariants_hold_through_the_window() -> None:
    s = scarce()
    s, _ = act(s, A.BUILD, square=6)
    assert check_invariants(s) == []
    broken = s.copy()
    assert broken.wish is not None
    broken.wish[4] = 0  # nobody left to answer, yet still open
    assert check_invariants(broken)

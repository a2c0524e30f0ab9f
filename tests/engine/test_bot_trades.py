"""The heuristic bot's trades: proposals that complete a colour group, an
acceptance rule consistent with them, no offer loops, and bot games that end."""

from __future__ import annotations

import pytest

from games.engine import (
    P_END,
    P_OVER,
    Action,
    HeuristicBot,
    State,
    game_seed,
    make_bot,
    new_game,
    next_actor,
    offers,
    play_game,
    ruleset,
    simulate,
    step,
)
from games.engine.board import MORTGAGE, ten_percent
from games.engine.bot_trades import find_offer, handover_share, offer_gain

from .helpers import A, act, deal, game, setup

ORANGE = (16, 18, 19)  # St. James Place, Tennessee Avenue, New York Avenue
DARK_BLUE = (37, 39)  # Park Place, Boardwalk


def end_phase(s: State, player: int = 0) -> State:
    """``player`` has moved and may trade; ``seq`` opens the bot's trade window."""
    s = setup(s, turn=player, phase=P_END)
    s.seq = -player % HeuristicBot.trade_every
    s.next_id += (s.next_id + s.turn_no // s.n) % 2
    assert HeuristicBot.trade_window(s, player)
    return s


def propose(s: State, terms: A.Terms, frm: int = 0, to: int = 1) -> State:
    s, _ = act(s, A.PROPOSE_TRADE, player=frm, target=to, terms=terms)
    return s


def test_bot_offers_cash_for_the_site_that_completes_its_group() -> None:
    s = end_phase(game(players=3))
    s = deal(s, 0, 16, 18)
    s = deal(s, 1, 19)
    a = HeuristicBot().act(s, 0)
    assert a.kind == A.PROPOSE_TRADE and a.target == 1 and a.terms is not None
    # Price 200 plus half the orange premium (560): the least seat 1 accepts.
    assert handover_share(s) == 50
    assert a.terms == A.Terms(take_props=(19,), give_cash=480)


def test_the_other_heuristic_bot_accepts_the_offer_and_the_group_is_complete() -> None:
    s = end_phase(game(players=3))
    s = deal(s, 0, 16, 18)
    s = deal(s, 1, 19)
    s, _ = act(s, A.PROPOSE_TRADE, player=0, **_fields(HeuristicBot().act(s, 0)))
    answer = HeuristicBot().act(s, 1)
    assert answer.kind == A.ACCEPT_TRADE
    s, _ = act(s, answer.kind, player=1, target=answer.target)
    assert all(s.owner[sq] == 0 for sq in ORANGE)
    assert s.cash[0] == 1500 - 480 and s.cash[1] == 1500 + 480


def test_no_offer_when_the_bank_or_two_players_hold_the_rest() -> None:
    s = end_phase(game(players=3))
    s = deal(s, 0, 16)
    s = deal(s, 1, 18)  # New York Avenue still with the bank
    assert HeuristicBot().act(s, 0).kind == A.END_TURN
    s = deal(s, 2, 19)  # now two other owners
    assert HeuristicBot().act(s, 0).kind == A.END_TURN


def test_no_offer_without_cash_above_the_cushion_or_property_to_add() -> None:
    s = end_phase(game(players=2))
    s = deal(s, 0, 16, 18)
    s = deal(s, 1, 19)
    s = setup(s, cash={0: 600})
    assert HeuristicBot().act(s, 0).kind == A.END_TURN
    s = setup(s, cash={0: 630})
    assert HeuristicBot().act(s, 0).kind == A.PROPOSE_TRADE


def test_short_of_cash_the_bot_adds_property_in_place_of_cash() -> None:
    s = end_phase(game(players=3))
    s = deal(s, 0, 16, 18, 5)  # and Reading Railroad
    s = deal(s, 1, 19)
    s = setup(s, cash={0: 500})
    a = HeuristicBot().act(s, 0)
    assert a.kind == A.PROPOSE_TRADE and a.terms is not None
    # 480 in cash would leave less than the cushion: the railroad (200 to
    # both sides) replaces 200 of it.
    assert a.terms == A.Terms(give_props=(5,), give_cash=280, take_props=(19,))
    s = propose(s, a.terms)
    assert HeuristicBot().act(s, 1).kind == A.ACCEPT_TRADE


def test_a_swap_that_completes_a_group_for_each_side_is_found_and_accepted() -> None:
    s = end_phase(game(players=2))
    s = deal(s, 0, 16, 18, 37)
    s = deal(s, 1, 19, 39)
    a = HeuristicBot().act(s, 0)
    assert a.kind == A.PROPOSE_TRADE and a.terms is not None
    assert a.terms.give_props == (37,) and a.terms.take_props == (19,)
    s = propose(s, a.terms)
    answer = HeuristicBot().act(s, 1)
    assert answer.kind == A.ACCEPT_TRADE
    s, _ = act(s, answer.kind, player=1, target=answer.target)
    assert all(s.owner[sq] == 0 for sq in ORANGE)
    assert all(s.owner[sq] == 1 for sq in DARK_BLUE)


def test_acceptance_needs_compensation_for_handing_over_a_group() -> None:
    s = game(players=2)
    s = deal(s, 0, 16, 18)
    s = deal(s, 1, 19)
    # At the printed price, or just below the bot's own offer: not accepted
    # (it completes seat 0's group) but countered at that offer; at it: accepted.
    at_480 = A.Terms(give_props=(19,), take_cash=480)
    for low in (200, 470):
        answer = HeuristicBot().act(propose(s, A.Terms(take_props=(19,), give_cash=low)), 1)
        assert answer.kind == A.COUNTER_TRADE and answer.terms == at_480
    assert HeuristicBot().act(propose(s, A.Terms(take_props=(19,), give_cash=480)), 1).kind == (
        A.ACCEPT_TRADE
    )


def test_acceptance_of_trades_that_complete_nothing() -> None:
    s = game(players=2)
    s = deal(s, 0, 21, 6)
    s = deal(s, 1, 19)
    # A fair sale of a site that completes nothing: accepted at its price.
    fair = A.Terms(take_props=(19,), give_cash=200)
    assert HeuristicBot().act(propose(s, fair), 1).kind == A.ACCEPT_TRADE
    cheap = A.Terms(take_props=(19,), give_cash=150)
    answer = HeuristicBot().act(propose(s, cheap), 1)
    assert answer.kind == A.COUNTER_TRADE
    assert answer.terms == A.Terms(give_props=(19,), take_cash=200)
    # Paying cash below its cushion: refused however good.
    s = setup(s, cash={1: 200})
    gift = A.Terms(give_props=(21,), take_cash=100)
    assert HeuristicBot().act(propose(s, gift), 1).kind == A.REJECT_TRADE


def test_a_rejected_offer_is_not_repeated_at_once() -> None:
    s = end_phase(game(players=2))
    s = deal(s, 0, 16, 18)
    s = deal(s, 1, 19)
    bot = HeuristicBot()
    a = bot.act(s, 0)
    assert a.kind == A.PROPOSE_TRADE
    s, _ = act(s, a.kind, player=0, **_fields(a))
    # While its offer is open the bot proposes nothing else, even in a window.
    open_offer = end_phase(s.copy())
    assert bot.act(open_offer, 0).kind == A.END_TURN
    s, _ = act(s, A.REJECT_TRADE, player=1, target=offers(s)[0].id)
    # Refused: the offer took an id, so the window stays shut this move.
    assert not HeuristicBot.trade_window(s, 0)
    s.seq = 0
    assert bot.act(s, 0).kind == A.END_TURN


def test_a_counter_offer_is_accepted_by_the_proposing_bot() -> None:
    s = game(players=2)
    s = deal(s, 0, 16, 18)
    s = deal(s, 1, 19)
    s = propose(s, A.Terms(take_props=(19,), give_cash=200))
    counter = HeuristicBot().act(s, 1)
    assert counter.kind == A.COUNTER_TRADE
    s, _ = act(s, counter.kind, player=1, target=counter.target, terms=counter.terms)
    (tid, frm, to, terms) = offers(s)[0]
    assert (frm, to) == (1, 0) and terms == A.Terms(give_props=(19,), take_cash=480)
    answer = HeuristicBot().act(s, 0)
    assert answer.kind == A.ACCEPT_TRADE and answer.target == tid
    s, _ = act(s, answer.kind, player=0, target=tid)
    assert all(s.owner[sq] == 0 for sq in ORANGE)
    assert s.cash[0] == 1500 - 480 and s.cash[1] == 1500 + 480


def test_no_counter_when_no_price_suits_both_sides() -> None:
    s = game(players=2)
    s = deal(s, 1, *DARK_BLUE)
    # Breaking up seat 1's complete group costs it more than Boardwalk is
    # worth to seat 0: refused outright.
    answer = HeuristicBot().act(propose(s, A.Terms(take_props=(39,), give_cash=10)), 1)
    assert answer.kind == A.REJECT_TRADE


def test_no_counter_when_the_proposer_cannot_pay_the_price() -> None:
    s = game(players=2)
    s = deal(s, 0, 16, 18)
    s = deal(s, 1, 19)
    s = setup(s, cash={0: 300})
    answer = HeuristicBot().act(propose(s, A.Terms(take_props=(19,), give_cash=200)), 1)
    assert answer.kind == A.REJECT_TRADE


class _Stubborn:
    """Plays like the heuristic bot but rejects every offer (as a human
    might). A wrapper, not a subclass: the compiled engine's classes cannot
    be subclassed from Python."""

    def __init__(self) -> None:
        self.bot = HeuristicBot()

    def act(self, s: State, p: int) -> A.Action:
        a = self.bot.act(s, p)
        if a.kind == A.ACCEPT_TRADE:
            return A.Action(A.REJECT_TRADE, p, target=a.target)
        return a


def test_no_offer_loop_against_a_player_who_always_refuses() -> None:
    rules = ruleset("us-2003")
    offers = 0
    for i in range(10):
        seed = game_seed(11, i)
        s = new_game(rules, ["a", "b", "c", "d"], seed)
        bots = [HeuristicBot(), _Stubborn(), HeuristicBot(), _Stubborn()]
        last: dict[int, int] = {}
        per_turn: dict[tuple[int, int], int] = {}
        budget = 200_000
        while s.phase != P_OVER and s.turn_no < 400:
            p = next_actor(s)
            a = bots[p].act(s, p)
            if a.kind == A.PROPOSE_TRADE:
                assert s.seq - last.get(p, -99) >= HeuristicBot.trade_every
                assert not any(t[1] == p for t in s.trades)
                last[p] = s.seq
                key = (p, s.turn_no)
                per_turn[key] = per_turn.get(key, 0) + 1
            step(s, a, [])
            budget -= 1
            assert budget > 0, "the game stopped moving"
        # One offer per move: a turn has more only after doubles.
        assert max(per_turn.values(), default=0) <= 2
        offers += sum(per_turn.values())
    assert offers > 10


def test_proposals_between_heuristic_bots_are_always_accepted() -> None:
    for preset, players in (("us-2003", 4), ("uk", 3), ("quick-web", 6)):
        for i in range(8):
            res = play_game(
                ruleset(preset), players, game_seed(5, i), "heuristic", "pay", 400, True
            )
            kinds = [a.kind for a in res.actions]
            assert kinds.count(A.PROPOSE_TRADE) == kinds.count(A.ACCEPT_TRADE)
            assert A.REJECT_TRADE not in kinds


def test_offers_are_worth_at_least_zero_to_both_sides() -> None:
    rules = ruleset("us-2003")
    seen = 0
    for i in range(10):
        seed = game_seed(6, i)
        s = new_game(rules, ["a", "b", "c", "d"], seed)
        bots = [make_bot("heuristic") for _ in range(4)]
        while s.phase != P_OVER and s.turn_no < 400:
            p = next_actor(s)
            a = bots[p].act(s, p)
            if a.kind == A.PROPOSE_TRADE:
                assert a.terms is not None
                t, q = a.terms, a.target
                cash = t.take_cash - t.give_cash
                assert offer_gain(s, p, q, t.take_props, t.give_props, cash) >= 0
                assert offer_gain(s, q, p, t.give_props, t.take_props, -cash) >= 0
                interest = sum(ten_percent(MORTGAGE[sq]) for sq in t.take_props if s.mortgaged[sq])
                assert s.cash[p] + cash - interest >= HeuristicBot.cushion
                seen += 1
            step(s, a, [])
    assert seen > 10


def test_a_fresh_bot_per_decision_plays_like_one_bot_per_seat() -> None:
    """The site makes a new bot for every decision: trade choices must come
    from the state alone, not from memory kept in the bot."""
    rules = ruleset("us-2003")
    for i in range(4):
        seed = game_seed(8, i)
        res = play_game(rules, 4, seed, "heuristic", "pay", 500, record=True)
        s = new_game(rules, [f"heuristic-{k + 1}" for k in range(4)], seed)
        for expected in res.actions:
            p = next_actor(s)
            assert make_bot("heuristic", seed=s.seq).act(s, p) == expected
            step(s, expected, [])
        assert s == res.state


def test_find_offer_is_none_without_candidates() -> None:
    s = game(players=2)
    assert find_offer(s, 0, [], HeuristicBot.cushion) is None


@pytest.mark.parametrize("policy", ["pay", "stay"])
def test_four_player_heuristic_games_end_by_bankruptcy(policy: str) -> None:
    """Guards the site's demo: a public 4-bot game finishes on its own."""
    out = simulate(50, players=4, seed=1, bot="heuristic", jail_policy=policy, max_turns=1000)
    assert out["ended_by"].get("last_player", 0) >= 45, out["ended_by"]


def _fields(a: Action) -> dict[str, object]:
    return {"target": a.target, "terms": a.terms}

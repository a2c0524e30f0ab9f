"""Which actions still mean the same once the game has moved on since the
position they were posted against (``still_means``)."""

from __future__ import annotations

from games.engine import STILL_MEANT, Action, State, still_means

from .helpers import A, act, force_dice, game


def auction(players: int = 3) -> State:
    """P0 lands on Baltic Avenue (3) and declines it: everyone may bid."""
    s = game(players=players)
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, _ = act(s, A.DECLINE)
    return s


def test_a_pass_means_the_same_after_others_bid_in_the_same_auction() -> None:
    s, _ = act(auction(), A.BID, 2, amount=50)
    assert still_means(s, Action(A.PASS_BID, 1), movers={2}, happened={"bid"})


def test_a_bid_means_the_same_only_while_it_is_above_the_high_bid() -> None:
    s, _ = act(auction(), A.BID, 2, amount=50)
    assert not still_means(s, Action(A.BID, 1, amount=50), movers={2}, happened={"bid"})
    assert still_means(s, Action(A.BID, 1, amount=51), movers={2}, happened={"bid"})


def test_nothing_means_the_same_after_a_move_made_by_or_for_its_player() -> None:
    s, _ = act(auction(), A.BID, 2, amount=50)
    assert not still_means(s, Action(A.PASS_BID, 1), movers={1, 2}, happened={"bid"})


def test_an_auction_action_is_not_carried_into_an_auction_begun_since() -> None:
    s = auction()
    assert not still_means(s, Action(A.PASS_BID, 1), movers={0}, happened={"auction_start"})
    assert not still_means(s, Action(A.BID, 1, amount=10), movers={0}, happened={"auction_start"})


def test_an_action_no_longer_legal_does_not_mean_the_same() -> None:
    s = game(players=3)  # no auction now
    assert not still_means(s, Action(A.PASS_BID, 1), movers={0}, happened={"dice"})


def test_choices_made_for_a_position_never_mean_the_same_in_another() -> None:
    s = game(players=3)
    assert A.ROLL not in STILL_MEANT and A.BUILD not in STILL_MEANT
    assert not still_means(s, Action(A.ROLL, 0), movers={1}, happened={"trade_proposed"})
    for kind in (A.BUY, A.MORTGAGE, A.ACCEPT_TRADE, A.PROPOSE_TRADE, A.PAY_DEBT, A.RESIGN):
        assert kind not in STILL_MEANT

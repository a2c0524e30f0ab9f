"""Win probabilities by playouts (issue #20): deterministic for the
estimator's seed, blind to everything hidden (secret, generator, undrawn
card order, sealed bids), and sensible at the extremes."""

from __future__ import annotations

import pytest

from games.engine import (
    AUCTION_SEALED,
    HOTEL,
    P_BUY,
    P_OVER,
    PROPERTIES,
    SITES,
    RandomBot,
    State,
    WinEstimate,
    auction_view,
    check_invariants,
    count_draws,
    estimate_win_probabilities,
    make_bot,
    new_game,
    next_actor,
    public_state,
    step,
    to_dict,
)
from games.engine.estimate import play_default, play_out, playout_start, unseen_cards

from .helpers import A, act, force_dice, game, setup

SECRET_A = "a1" * 32
SECRET_B = "b2" * 32


def bot_game(turns: int, secret: str = SECRET_A, players: int = 4) -> tuple[State, tuple[int, int]]:
    """A keyed game played by bots for ``turns`` player-turns, and how many
    cards were drawn from each deck on the way (from its events)."""
    s = new_game("us-2003", [f"P{i}" for i in range(players)], 0, secret=secret)
    bots = [make_bot("heuristic") for _ in range(players)]
    ev: list[tuple[str, int, tuple[object, ...]]] = []
    while s.turn_no < turns and s.phase != P_OVER:
        p = next_actor(s)
        step(s, bots[p].act(s, p), ev)
    return s, count_draws(ev)


def fixed(s: State, playouts: int, seed: int, drawn: tuple[int, int] | None = None) -> WinEstimate:
    """An estimate of exactly ``playouts`` playouts (no early stop)."""
    return estimate_win_probabilities(s, playouts, seed, cards_drawn=drawn, target_stderr=None)


def with_other_hidden(s: State, drawn: tuple[int, int]) -> State:
    """The same visible position with another secret, generator counter,
    scripted dice and order of the undrawn cards."""
    t = s.copy()
    t.secret = SECRET_B
    t.rng = s.rng + 12345
    t.forced_dice = [6, 6, 1, 2]
    for deck, u in enumerate(unseen_cards(s, drawn)):
        t.decks[deck][:u] = list(reversed(s.decks[deck][:u]))
    return t


def test_is_deterministic_for_a_given_estimator_seed() -> None:
    s, drawn = bot_game(40)
    a = estimate_win_probabilities(s, 300, seed=5, cards_drawn=drawn, target_stderr=None)
    b = estimate_win_probabilities(s, 300, seed=5, cards_drawn=drawn, target_stderr=None)
    c = estimate_win_probabilities(s, 300, seed=6, cards_drawn=drawn, target_stderr=None)
    assert a == b
    assert a.probabilities != c.probabilities
    assert a.playouts == 300


def test_ignores_the_secret_the_generator_and_the_undrawn_order() -> None:
    s, drawn = bot_game(40)
    assert 0 < unseen_cards(s, drawn)[0] < 16 or 0 < unseen_cards(s, drawn)[1] < 16
    t = with_other_hidden(s, drawn)
    assert t.decks != s.decks
    assert fixed(s, 200, 9, drawn) == fixed(t, 200, 9, drawn)


def test_a_splitmix_game_and_a_keyed_game_in_the_same_position_agree() -> None:
    s, drawn = bot_game(30)
    t = s.copy()
    t.generator, t.secret, t.seed, t.rng = 0, "", 42, 987654321
    assert fixed(s, 100, 3, drawn) == fixed(t, 100, 3, drawn)


def test_without_a_draw_count_the_whole_deck_is_reshuffled() -> None:
    s, _ = bot_game(30)
    t = s.copy()
    t.decks = [list(reversed(d)) for d in s.decks]
    assert fixed(s, 100, 3) == fixed(t, 100, 3)


def test_cards_drawn_and_put_back_keep_their_known_order_at_the_bottom() -> None:
    s, drawn = bot_game(40)
    unseen = unseen_cards(s, drawn)
    tops = set()
    for i in range(20):
        p = playout_start(public_state(s), 1, i, unseen)
        for deck, u in enumerate(unseen):
            assert p.decks[deck][u:] == s.decks[deck][u:]
            assert sorted(p.decks[deck][:u]) == sorted(s.decks[deck][:u])
        tops.add(tuple(p.decks[0][: unseen[0]]))
    assert len(tops) > 1 or unseen[0] < 2


def test_the_unseen_count_follows_the_draws() -> None:
    s = game()
    assert unseen_cards(s, (0, 0)) == (16, 16)
    assert unseen_cards(s, (3, 20)) == (13, 0)
    assert unseen_cards(s, None) == (16, 16)
    events = [("card", 0, (0, 5)), ("roll", 0, (1, 2)), ("card", 1, (1, 3))]
    assert count_draws(events) == (1, 1)
    assert count_draws([{"kind": "card", "player": 0, "deck": 1, "card": 2}]) == (0, 1)


def test_sealed_bids_are_not_used() -> None:
    s = game(players=3, auction_kind=AUCTION_SEALED)
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    s, _ = act(s, A.DECLINE)
    low, _ = act(s, A.BID, player=1, amount=1)
    high, _ = act(s, A.BID, player=1, amount=900)
    assert low.bids != high.bids
    assert fixed(low, 100, 2) == fixed(high, 100, 2)
    view = auction_view(public_state(high))
    assert view is not None and 1 in view.bidders and not public_state(high).bids


def test_probabilities_sum_to_one_and_the_bankrupt_get_nothing() -> None:
    s, drawn = bot_game(60)
    s = s.copy()
    s.alive[2] = False
    s.cash[2] = 0
    for sq in PROPERTIES:
        if s.owner[sq] == 2:
            s.owner[sq], s.bld[sq] = -1, 0
    e = estimate_win_probabilities(s, 200, 1, cards_drawn=drawn)
    assert sum(e.probabilities) == pytest.approx(1.0)
    assert e.probabilities[2] == 0.0
    assert all(0.0 <= p <= 1.0 for p in e.probabilities)
    assert len(e.stderr) == 4 and all(x >= 0 for x in e.stderr)


def test_a_finished_game_gives_everything_to_its_winner() -> None:
    s, _ = bot_game(10_000, players=3)
    assert s.phase == P_OVER
    e = estimate_win_probabilities(s, 100, 1)
    assert e.probabilities[s.winner] == 1.0
    assert sum(e.probabilities) == 1.0 and e.playouts == 0


def test_all_the_money_and_every_monopoly_is_above_ninety_percent() -> None:
    s = game(players=4)
    s = setup(
        s,
        owners={sq: 0 for sq in PROPERTIES},
        buildings={sq: HOTEL for sq in SITES[-11:]},  # red to dark blue
        cash={0: 6000, 1: 0, 2: 0, 3: 0},
        turn=1,
    )
    e = estimate_win_probabilities(s, 200, 4)
    assert e.probabilities[0] > 0.9


def test_the_state_given_is_not_changed() -> None:
    s, drawn = bot_game(40)
    before = to_dict(s)
    estimate_win_probabilities(s, 100, 1, cards_drawn=drawn)
    assert to_dict(s) == before


def test_stops_early_once_every_standard_error_is_small() -> None:
    s = setup(game(players=2), owners={sq: 0 for sq in PROPERTIES}, cash={1: 50})
    lopsided = estimate_win_probabilities(s, 5000, 1, target_stderr=0.015, min_playouts=100)
    assert lopsided.playouts < 5000
    assert max(lopsided.stderr) < 0.015
    even, _ = bot_game(4)
    full = estimate_win_probabilities(even, 300, 1, target_stderr=0.015, min_playouts=100)
    assert full.playouts == 300


@pytest.mark.parametrize("playouts", [0, -3])
def test_rejects_fewer_than_one_playout(playouts: int) -> None:
    with pytest.raises(ValueError, match="at least one playout"):
        estimate_win_probabilities(game(), playouts, 1)


def test_continues_from_any_open_decision() -> None:
    """Auctions, debts, rent claims, trade offers, buying and tax decisions
    met in random-bot games: the bots play on from each."""
    s = new_game("us-2003", ["a", "b", "c"], 11)
    bots = [RandomBot(seed=i) for i in range(3)]
    seen: set[str] = set()
    while s.phase != P_OVER and s.seq < 1500:
        kinds = _open(s)
        if kinds - seen:
            seen |= kinds
            e = estimate_win_probabilities(s, 20, s.seq, turn_cap=60)
            assert sum(e.probabilities) == pytest.approx(1.0) and e.playouts == 20
        p = next_actor(s)
        step(s, bots[p].act(s, p), [])
    assert {"auction", "claim", "trade", "buy"} <= seen, seen


def _open(s: State) -> set[str]:
    out = set()
    if s.auction is not None:
        out.add("auction")
    if s.debts:
        out.add("debt")
    if s.claims:
        out.add("claim")
    if s.trades:
        out.add("trade")
    if s.phase in (1, 2, 3):
        out.add(("buy", "tax", "choice")[s.phase - 1])
    return out


def test_a_refused_bot_action_gives_way_to_the_deadline_default() -> None:
    s = game(players=3)
    force_dice(s, (1, 2))
    s, _ = act(s, A.ROLL)
    assert s.phase == P_BUY
    ev: list[tuple[str, int, tuple[object, ...]]] = []
    assert play_default(s, ev)
    assert s.auction is not None and ev[0][0] == "decline"


def test_play_out_stops_at_the_turn_cap() -> None:
    s = public_state(game(players=3))
    s.rng = 1
    start = s.turn_no
    ended = play_out(s, [make_bot("heuristic") for _ in range(3)], 5)
    assert not ended and s.turn_no == start + 5
    assert not check_invariants(s)

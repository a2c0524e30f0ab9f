"""The clock belongs to the decision, not to the last click (issue #17).

A decision's deadline is set once, when it arises; the optional moves made
while it is open (mortgaging, building, trading, raising funds) never
extend it, nor spend or top up a time bank."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from games import decisions, engine, services
from games.models import Deadline, Game

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
BOARDWALK = 39
PARK_PLACE = 37


def _act(game: Game, player: int, **action: Any) -> None:
    services.submit_action(
        public_id=game.public_id, user=game.seats.get(number=player).user, action=action,
        expected_version=game.version,
    )  # fmt: skip
    game.refresh_from_db()


def _row(game: Game, player: int, kind: str) -> Deadline:
    return game.deadlines.get(player=player, kind=kind)


def _to_end_of_turn(game: Game, edit_state: Any, clock: Any) -> int:
    """The turn player rolls onto Boardwalk and buys it: "end the turn" arises."""
    mover = engine.from_dict(game.state).turn

    def on_park_lane(s: engine.State) -> engine.State:
        s = engine.setup(s, positions={mover: 33})
        engine.force_dice(s, (2, 4))
        return s

    edit_state(game, on_park_lane)
    _act(game, mover, kind="roll")
    clock.shift(timedelta(seconds=30))
    _act(game, mover, kind="buy")
    return mover


@pytest.mark.django_db
def test_mortgaging_and_unmortgaging_never_extends_the_turn(
    duel: Game, edit_state: Any, no_bot_tasks: Any
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        mover = _to_end_of_turn(duel, edit_state, clock)
        arose = timezone.now()
        end = _row(duel, mover, engine.D_END_TURN)
        assert end.due_at == arose + timedelta(seconds=duel.turn_seconds)
        for _ in range(10):
            clock.shift(timedelta(seconds=7))
            _act(duel, mover, kind="mortgage", square=BOARDWALK)
            clock.shift(timedelta(seconds=7))
            _act(duel, mover, kind="unmortgage", square=BOARDWALK)
            assert _row(duel, mover, engine.D_END_TURN).due_at == end.due_at
        # Offering and withdrawing a trade does not extend it either.
        other = 1 - mover
        _act(duel, mover, kind="propose_trade", target=other, terms={"give_cash": 1})
        (offer,) = engine.offers(engine.from_dict(duel.state))
        _act(duel, mover, kind="withdraw_trade", target=offer.id)
        after = _row(duel, mover, engine.D_END_TURN)
        assert (after.pk, after.started_at, after.due_at) == (end.pk, end.started_at, end.due_at)
        # Ending the turn is the answer: the next decision gets a clock of its own.
        clock.shift(timedelta(seconds=7))
        _act(duel, mover, kind="end_turn")
        nxt = _row(duel, other, engine.D_ROLL)
        assert nxt.due_at == timezone.now() + timedelta(seconds=duel.turn_seconds)


@pytest.mark.django_db
def test_optional_moves_neither_spend_nor_top_up_a_time_bank(
    alice: Any, bob: Any, edit_state: Any, no_bot_tasks: Any
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = services.create_game(
            host=alice, max_seats=2, turn_seconds=3600,
            timers={"time_bank_seconds": 600, "time_bank_increment_seconds": 60},
        )  # fmt: skip
        services.join_game(public_id=game.public_id, user=bob)
        services.start_game(public_id=game.public_id, user=alice)
        game.refresh_from_db()
        mover = _to_end_of_turn(game, edit_state, clock)
        bank = game.seats.get(number=mover).bank_seconds
        due = _row(game, mover, engine.D_END_TURN).due_at
        for _ in range(10):
            clock.shift(timedelta(seconds=5))
            _act(game, mover, kind="mortgage", square=BOARDWALK)
            clock.shift(timedelta(seconds=5))
            _act(game, mover, kind="unmortgage", square=BOARDWALK)
        assert game.seats.get(number=mover).bank_seconds == bank
        assert _row(game, mover, engine.D_END_TURN).due_at == due
        # The answer spends the 100 s thought since "end the turn" arose.
        _act(game, mover, kind="end_turn")
        assert game.seats.get(number=mover).bank_seconds == min(600, bank - 100 + 60)


@pytest.mark.django_db
def test_raising_funds_does_not_extend_a_debt(
    duel: Game, edit_state: Any, no_bot_tasks: Any
) -> None:
    mover = engine.from_dict(duel.state).turn

    def broke_before_luxury_tax(s: engine.State) -> engine.State:
        s = engine.setup(
            s, positions={mover: 33}, cash={mover: 10},
            owners={BOARDWALK: mover, PARK_PLACE: mover},
        )  # fmt: skip
        engine.force_dice(s, (2, 3))
        return s

    edit_state(duel, broke_before_luxury_tax)
    with time_machine.travel(T0, tick=False) as clock:
        _act(duel, mover, kind="roll")
        debt = _row(duel, mover, engine.D_DEBT)
        assert debt.due_at == T0 + timedelta(seconds=duel.turn_seconds)
        clock.shift(timedelta(minutes=5))
        _act(duel, mover, kind="mortgage", square=PARK_PLACE)
        assert engine.owed(engine.from_dict(duel.state), mover) > 0
        assert _row(duel, mover, engine.D_DEBT).due_at == debt.due_at


def test_only_an_answer_or_a_bid_gives_an_open_decision_a_new_clock() -> None:
    # Optional moves of the player, and anything another player does.
    assert decisions.keeps_clock(engine.D_END_TURN, 0, 0, engine.MORTGAGE)
    assert decisions.keeps_clock(engine.D_END_TURN, 0, 0, engine.PROPOSE_TRADE)
    assert decisions.keeps_clock(engine.D_DEBT, 0, 0, engine.MORTGAGE)
    assert decisions.keeps_clock(engine.D_ROLL, 0, 1, engine.ROLL)
    # Doubles: the roll answered, and a new roll arose.
    assert not decisions.keeps_clock(engine.D_ROLL, 0, 0, engine.ROLL)
    # Each new high bid is a new question for the other bidders.
    assert not decisions.keeps_clock(engine.D_BID, 0, 1, engine.BID)
    assert decisions.keeps_clock(engine.D_BID, 0, 1, engine.PASS_BID)
    # Windows run until they close.
    assert decisions.keeps_clock(engine.D_TRADE, 0, 0, engine.ACCEPT_TRADE)
    assert decisions.keeps_clock(engine.D_CLAIM, 0, 1, engine.CLAIM_RENT)


@pytest.mark.django_db
def test_an_interrupt_holds_the_turn_clock_and_it_resumes_with_the_time_left(
    duel: Game, edit_state: Any, no_bot_tasks: Any
) -> None:
    """Building into a shortage opens the others' wish window; the builder's
    own clock stops meanwhile and comes back with what it had left, however
    often they build and sell to open the window again."""
    from tests.games.test_building_wish import HOUSES, OWNERS

    with time_machine.travel(T0, tick=False) as clock:
        mover = _to_end_of_turn(duel, edit_state, clock)
        other = 1 - mover
        owners = {sq: mover if seat == 0 else other for sq, seat in OWNERS.items()}
        edit_state(duel, lambda s: engine.setup(s, owners=owners, buildings=HOUSES))
        end = _row(duel, mover, engine.D_END_TURN)
        paused = timedelta()
        for _ in range(3):
            clock.shift(timedelta(seconds=11))
            _act(duel, mover, kind="build", square=6)
            assert [(d.player, d.kind) for d in duel.deadlines.all()] == [(other, engine.D_WISH)]
            assert duel.held_clock is not None
            clock.shift(timedelta(seconds=20))
            paused += timedelta(seconds=20)
            _act(duel, other, kind="no_wish")
            back = _row(duel, mover, engine.D_END_TURN)
            assert back.due_at == end.due_at + paused
            assert back.started_at == end.started_at + paused
            assert duel.held_clock is None
            _act(duel, mover, kind="sell_building", square=6)
            assert _row(duel, mover, engine.D_END_TURN).due_at == end.due_at + paused
        # Ending the turn answers it; the next turn's clock is its own.
        _act(duel, mover, kind="end_turn")
        assert _row(duel, other, engine.D_ROLL).due_at == timezone.now() + timedelta(
            seconds=duel.turn_seconds
        )

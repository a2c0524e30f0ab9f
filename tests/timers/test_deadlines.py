"""Deadline arithmetic (pure) and the rows each move writes (database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from games import deadlines as dl
from games import engine, services
from games.models import Deadline, Game
from games.services import timers

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PLAIN = dl.TimerSettings(turn_seconds=3600)
BANK = dl.TimerSettings(turn_seconds=3600, time_bank_seconds=600, time_bank_increment_seconds=60)


def test_each_kind_gets_its_own_allowance() -> None:
    timer = dl.TimerSettings(
        turn_seconds=60, claim_window_seconds=7, bid_window_seconds=8, trade_expiry_seconds=9
    )
    assert dl.allowance(timer, "roll") == 60
    assert dl.allowance(timer, "claim_rent") == 7
    assert dl.allowance(timer, "bid") == 8
    assert dl.allowance(timer, "trade_response") == 9


def test_a_time_bank_spends_the_time_used_and_earns_the_increment_up_to_the_base() -> None:
    assert dl.allowance(BANK, "roll", bank=None) == 600
    assert dl.bank_after_move(BANK, 600, used_seconds=100) == 560
    assert dl.bank_after_move(BANK, 590, used_seconds=0) == 600  # capped at the base
    assert dl.bank_after_move(BANK, 30, used_seconds=90) == 60  # never below nothing
    assert dl.allowance(BANK, "roll", bank=560) == 560


def test_the_reminder_falls_at_80_percent() -> None:
    due = dl.due_at(T0, 3600)
    assert dl.remind_at(T0, due) == T0 + timedelta(minutes=48)


def test_a_pause_keeps_the_time_that_was_left() -> None:
    with time_machine.travel(T0, tick=False):
        now = timezone.now()
        due = now + timedelta(hours=2)
        until = now + timedelta(days=3)
        assert dl.paused(due, now, until) == until + timedelta(hours=2)
        # Passed deadlines stay passed; a pause that is over changes nothing.
        assert dl.paused(now - timedelta(seconds=1), now, until) == now - timedelta(seconds=1)
        assert dl.paused(due, now, now) == due


def test_ending_a_pause_early_gives_back_the_rest() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        start = timezone.now()
        until = start + timedelta(days=3)
        paused = dl.paused(start + timedelta(hours=2), start, until)
        traveller.shift(timedelta(days=1))
        now = timezone.now()
        assert dl.resumed(paused, now, until) == now + timedelta(hours=2)


def test_the_clock_of_a_player_on_vacation_starts_when_they_return() -> None:
    with time_machine.travel(T0, tick=False):
        now = timezone.now()
        assert dl.start_of_clock(now, None) == now
        assert dl.start_of_clock(now, now - timedelta(days=1)) == now
        assert dl.start_of_clock(now, now + timedelta(days=2)) == now + timedelta(days=2)


def test_vacation_allowance_renews_each_year() -> None:
    assert dl.vacation_days_left(per_year=14, used=10, used_year=2026, year=2026) == 4
    assert dl.vacation_days_left(per_year=14, used=10, used_year=2025, year=2026) == 14
    assert dl.vacation_days_left(per_year=14, used=20, used_year=2026, year=2026) == 0


def test_a_claim_window_closes_on_the_wall_clock() -> None:
    assert dl.claim_closes_at(T0, 6 * 3600) == T0 + timedelta(hours=6)


def test_time_left_reads_plainly() -> None:
    assert dl.describe_left(2 * 86400 + 3 * 3600) == "2d 3h"
    assert dl.describe_left(4 * 3600 + 5 * 60) == "4h 05m"
    assert dl.describe_left(12 * 60 + 30) == "12m 30s"
    assert dl.describe_left(45) == "45s"
    assert dl.describe_left(-5) == "0s"


# --- rows written with each move -------------------------------------------------


@pytest.mark.django_db
def test_starting_a_game_gives_the_first_decision_a_deadline(
    alice: Any, bob: Any, no_bot_tasks: Any
) -> None:
    with time_machine.travel(T0, tick=False):
        game = services.create_game(host=alice, max_seats=2, turn_seconds=3600)
        services.join_game(public_id=game.public_id, user=bob)
        services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    (d,) = game.deadlines.all()
    first = engine.from_dict(game.state).turn
    assert (d.player, d.kind, d.version) == (first, "roll", game.version)
    assert d.due_at == T0 + timedelta(hours=1)
    assert d.remind_at == T0 + timedelta(minutes=48)


@pytest.mark.django_db
def test_a_move_gives_the_next_decision_a_fresh_clock(duel: Game, no_bot_tasks: Any) -> None:
    later = timezone.now() + timedelta(minutes=5)
    turn = engine.from_dict(duel.state).turn
    with time_machine.travel(later, tick=False):
        services.submit_action(
            public_id=duel.public_id, user=duel.seats.get(number=turn).user,
            action={"kind": "roll"}, expected_version=duel.version,
        )  # fmt: skip
    duel.refresh_from_db()
    state = engine.from_dict(duel.state)
    pending = {(p.player, p.kind) for p in engine.pending_decisions(state)}
    rows = {(d.player, d.kind): d for d in duel.deadlines.all()}
    assert set(rows) == pending
    for d in rows.values():
        assert d.version == duel.version
        if d.player == turn:
            assert d.started_at == later


@pytest.mark.django_db
def test_an_opponents_move_does_not_reset_a_trade_window(duel: Game, no_bot_tasks: Any) -> None:
    turn = engine.from_dict(duel.state).turn
    mover = duel.seats.get(number=turn).user
    services.submit_action(
        public_id=duel.public_id, user=mover, expected_version=duel.version,
        action={"kind": "propose_trade", "target": 1 - turn,
                "terms": {"give_cash": 1, "give_props": [], "give_cards": [0, 0],
                          "take_props": [], "take_cash": 0, "take_cards": [0, 0]}},
    )  # fmt: skip
    duel.refresh_from_db()
    window = duel.deadlines.get(kind="trade_response")
    assert window.player == 1 - turn
    assert window.due_at - window.started_at == timedelta(seconds=duel.trade_expiry_seconds)
    services.submit_action(
        public_id=duel.public_id, user=mover, action={"kind": "roll"},
        expected_version=duel.version,
    )  # fmt: skip
    duel.refresh_from_db()
    assert duel.deadlines.get(kind="trade_response").due_at == window.due_at


@pytest.mark.django_db
def test_a_finished_game_has_no_deadlines(duel: Game, no_bot_tasks: Any) -> None:
    services.resign(
        public_id=duel.public_id, user=duel.seats.get(number=1).user,
        expected_version=duel.version,
    )  # fmt: skip
    duel.refresh_from_db()
    assert duel.status == Game.Status.FINISHED
    assert not Deadline.objects.filter(game=duel).exists()


@pytest.mark.django_db
def test_expiring_does_nothing_at_a_stale_version_or_before_the_deadline(
    duel: Game, no_bot_tasks: Any
) -> None:
    late = engine.from_dict(duel.state).turn
    assert not timers.expire_decision(
        duel.pk, duel.version - 1, now=timezone.now() + timedelta(days=9)
    )
    assert not timers.expire_decision(duel.pk, duel.version)
    assert timers.expire_decision(duel.pk, duel.version, now=timezone.now() + timedelta(days=9))
    assert duel.seats.get(number=late).timeouts_in_row == 1


@pytest.mark.django_db
def test_a_time_limit_game_ends_at_its_deadline(alice: Any, bob: Any, no_bot_tasks: Any) -> None:
    game = services.create_game(
        host=alice, preset="time-limit", max_seats=2, turn_seconds=3 * 86400,
        timers={"time_limit_seconds": 3600},
    )  # fmt: skip
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    limit = game.deadlines.get(kind="time_limit")
    assert limit.due_at == game.started_at + timedelta(hours=1)
    assert timers.expire_decision(game.pk, game.version, now=limit.due_at + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not game.deadlines.exists()


@pytest.mark.django_db
def test_other_rules_get_no_time_limit_deadline(alice: Any, bob: Any, no_bot_tasks: Any) -> None:
    game = services.create_game(host=alice, max_seats=2, timers={"time_limit_seconds": 3600})
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    assert not Deadline.objects.filter(game=game, kind="time_limit").exists()


@pytest.mark.django_db
def test_bad_timer_settings_are_refused(alice: Any) -> None:
    with pytest.raises(services.InvalidRequest):
        services.create_game(host=alice, timers={"claim_window_seconds": 5})
    with pytest.raises(services.InvalidRequest):
        services.create_game(host=alice, timers={"no_such_timer": 5})


def _turn_user(game: Game) -> Any:
    return game.seats.get(number=engine.from_dict(game.state).turn).user


@pytest.mark.django_db
def test_a_time_bank_is_spent_by_thinking_and_topped_up_per_move(
    alice: Any, bob: Any, no_bot_tasks: Any
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = services.create_game(
            host=alice, max_seats=2, turn_seconds=3600,
            timers={"time_bank_seconds": 600, "time_bank_increment_seconds": 60},
        )  # fmt: skip
        services.join_game(public_id=game.public_id, user=bob)
        services.start_game(public_id=game.public_id, user=alice)
        game.refresh_from_db()
        mover = engine.from_dict(game.state).turn
        assert game.deadlines.get(player=mover).due_at == T0 + timedelta(seconds=600)
        clock.shift(timedelta(seconds=100))
        services.submit_action(
            public_id=game.public_id, user=_turn_user(game), action={"kind": "roll"},
            expected_version=game.version,
        )  # fmt: skip
        game.refresh_from_db()
        assert game.seats.get(number=mover).bank_seconds == 600 - 100 + 60
        mine = game.deadlines.filter(player=mover).exclude(
            kind__in=["claim_rent", "trade_response"]
        )
        for d in mine:
            assert d.due_at == timezone.now() + timedelta(seconds=560)


@pytest.mark.django_db
def test_each_bid_reopens_the_auction_window(
    duel: Game, edit_state: Any, no_bot_tasks: Any
) -> None:
    mover = engine.from_dict(duel.state).turn
    other = 1 - mover

    def on_boardwalk(s: engine.State) -> engine.State:
        s = engine.setup(s, positions={mover: 33})
        engine.force_dice(s, (2, 4))
        return s

    edit_state(duel, on_boardwalk)
    user = _turn_user(duel)
    with time_machine.travel(T0, tick=False) as clock:
        for kind in ("roll", "decline"):
            services.submit_action(
                public_id=duel.public_id, user=user, action={"kind": kind},
                expected_version=duel.version,
            )  # fmt: skip
            duel.refresh_from_db()
        window = timedelta(seconds=duel.bid_window_seconds)
        bids = {d.player: d for d in duel.deadlines.filter(kind="bid")}
        assert set(bids) == {0, 1} and all(d.due_at == T0 + window for d in bids.values())
        clock.shift(timedelta(minutes=10))
        services.submit_action(
            public_id=duel.public_id, user=duel.seats.get(number=other).user,
            action={"kind": "bid", "amount": 10}, expected_version=duel.version,
        )  # fmt: skip
        duel.refresh_from_db()
        (left,) = duel.deadlines.filter(kind="bid")
        assert left.player == mover and left.due_at == timezone.now() + window

"""Timeouts, claim windows, take-overs, vacation, standing orders and
reminders, with a real Celery worker, a real beat and real Redis."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games import engine, services
from games.models import Deadline, Game, GameEvent, Seat
from games.services import timers as timer_services
from games.tasks import expire_decision, sweep_deadlines
from games.web import presenters
from games.web.snapshot import Snapshot
from notifications.models import Notification
from notifications.tasks import notify_your_turn, send_reminder
from tests.conftest import setup_writes
from tests.timers.conftest import (
    due_soon,
    past,
    run_task,
    sent_mail,
    timeout_notes,
    version,
    wait_for,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def state_of(game: Game) -> engine.State:
    game.refresh_from_db()
    return engine.from_dict(game.state)


def turn_player(game: Game) -> int:
    return state_of(game).turn


def user_of(game: Game, number: int) -> Any:
    return game.seats.get(number=number).user


def test_a_timeout_applies_the_default_once_when_sweep_and_eta_both_fire(
    timers: None, timed_duel: Game
) -> None:
    game = timed_duel
    late = turn_player(game)
    v = game.version
    d = due_soon(game, 1.5, player=late)
    # Two ETA tasks for the same deadline, and beat sweeping every second.
    expire_decision.apply_async((game.pk, v), eta=d.due_at)
    expire_decision.apply_async((game.pk, v), eta=d.due_at)
    wait_for(lambda: version(game) > v)
    # Late and duplicate firings after the fact: each runs and does nothing.
    assert [run_task(expire_decision, game.pk, v) for _ in range(3)] == [False] * 3
    run_task(sweep_deadlines)
    notes = timeout_notes(game)
    assert len(notes) == 1
    assert notes[0].seq == v + 1
    assert notes[0].payload["deadline"] == d.pk
    assert version(game) == v + 1
    (action,) = GameEvent.objects.filter(game=game, seq=v + 1, kind="action")
    assert action.payload["kind"] == "roll" and action.payload["player"] == late
    assert game.seats.get(number=late).timeouts_total == 1


def test_a_player_acting_at_the_last_instant_beats_a_late_timer(
    timers: None, timed_duel: Game
) -> None:
    game = timed_duel
    mover = turn_player(game)
    v = game.version
    d = due_soon(game, 0.5, player=mover)
    services.submit_action(
        public_id=game.public_id, user=user_of(game, mover), action={"kind": "roll"},
        expected_version=v,
    )  # fmt: skip
    # The timer for the decision just taken, and a sweep once it is overdue:
    # both run and find it gone.
    assert run_task(expire_decision, game.pk, v) is False
    past(d.due_at)
    run_task(sweep_deadlines)
    assert timeout_notes(game) == []
    assert game.seats.get(number=mover).timeouts_total == 0


def test_a_claim_window_closes_and_the_rent_is_forfeited(
    timers: None, timed_duel: Game, edit_state: Any
) -> None:
    game = timed_duel
    payer = turn_player(game)
    owner = 1 - payer
    # The owner has turned off claiming rent automatically (on by default).
    services.set_standing_orders(
        public_id=game.public_id, user=user_of(game, owner), orders={"claim_rent": False}
    )
    game.refresh_from_db()

    def land_on_boardwalk(s: engine.State) -> engine.State:
        s = engine.setup(s, owners={39: owner}, positions={payer: 33})
        engine.force_dice(s, (2, 4))
        return s

    edit_state(game, land_on_boardwalk)
    services.submit_action(
        public_id=game.public_id, user=user_of(game, payer), action={"kind": "roll"},
        expected_version=game.version,
    )  # fmt: skip
    s = state_of(game)
    assert [c.owner for c in engine.claims(s)] == [owner]
    cash = list(s.cash)
    window = game.deadlines.get(kind="claim_rent")
    assert window.due_at - window.started_at == timedelta(seconds=game.claim_window_seconds)
    due_soon(game, 1, kind="claim_rent")
    wait_for(lambda: not state_of(game).claims)
    s = state_of(game)
    assert s.cash == cash  # nobody paid: the rent is forfeited
    (note,) = timeout_notes(game)
    assert "rent is forfeited" in note.payload["text"]
    assert (
        GameEvent.objects.filter(game=game, kind="action", payload__kind="expire_claim").count()
        == 1
    )
    told = wait_for(
        lambda: Notification.objects.filter(user=user_of(game, owner), kind="claim_expired").first()
    )
    assert "forfeited" in told.text
    # A missed claim is not a missed turn.
    assert game.seats.get(number=owner).timeouts_in_row == 0


@pytest.mark.slow  # real timers: in make test-long, to keep make test under seven minutes
def test_after_k_timeouts_a_bot_takes_the_seat_and_the_player_reclaims_it(
    timers: None, timed_duel: Game
) -> None:
    game = timed_duel
    assert game.takeover_after == 2
    late = turn_player(game)
    for expected in (1, 2):
        v = version(game)
        game.refresh_from_db()
        due_soon(
            game,
            0.5,
            player=late,
            kind__in=["roll", "buy", "end_turn", "jail", "bid", "income_tax", "raise_funds"],
        )
        wait_for(lambda v=v: version(game) > v)
        assert game.seats.get(number=late).timeouts_in_row == expected
    seat = game.seats.get(number=late)
    assert seat.taken_over and seat.takeovers_total == 1
    taken_at = max(n.seq for n in timeout_notes(game))
    # The opponent plays on (their default moves) until the seat must decide;
    # then the bot plays it through the worker, without any timer.
    other = 1 - late
    for _ in range(10):
        s = state_of(game)
        if any(p.player == late for p in engine.pending_decisions(s)):
            break
        move = engine.timeout_action(s, other)
        services.submit_action(
            public_id=game.public_id, user=user_of(game, other),
            action={k: v for k, v in move.to_dict().items() if k != "player"},
            expected_version=game.version,
        )  # fmt: skip
    wait_for(
        lambda: GameEvent.objects.filter(
            game=game, kind="action", payload__player=late, seq__gt=taken_at
        ).exists()
    )
    assert len(timeout_notes(game)) == 2
    wait_for(lambda: Notification.objects.filter(user=seat.user, kind="takeover").exists())

    services.reclaim_seat(public_id=game.public_id, user=seat.user)
    seat.refresh_from_db()
    assert not seat.taken_over and seat.timeouts_in_row == 0
    # Back in human hands: the seat's decisions get reminders again.
    assert all(d.remind_at is not None for d in game.deadlines.filter(player=late))
    with pytest.raises(services.InvalidRequest):
        services.reclaim_seat(public_id=game.public_id, user=seat.user)


@pytest.mark.slow  # seconds of real timers: in make test-long
def test_vacation_pauses_deadlines_and_the_return_resumes_them(
    timers: None, timed_duel: Game
) -> None:
    game = timed_duel
    late = turn_player(game)
    other = 1 - late
    d = due_soon(game, 1.5, player=late)
    first_due = d.due_at
    v = game.version
    until = timer_services.start_vacation(user=user_of(game, late), days=2)
    d.refresh_from_db()
    assert d.due_at > until  # the 1.5 s left are kept after the vacation
    # Past the time it was due before the vacation, a sweep finds nothing due.
    past(first_due)
    assert run_task(sweep_deadlines) == 0
    assert version(game) == v and timeout_notes(game) == []
    user = user_of(game, late)
    user.refresh_from_db()
    assert user.vacation_days_used == 2
    # Opponents' clocks do not move.
    assert not Deadline.objects.filter(game=game, player=other, due_at__gt=until).exists()
    timer_services.end_vacation(user=user)
    wait_for(lambda: len(timeout_notes(game)) == 1)
    user.refresh_from_db()
    # The day begun counts as taken; the whole day not begun is given back.
    assert user.vacation_until is None and user.vacation_days_used == 1


def test_standing_orders_fire_at_once_and_are_logged(
    timers: None, timed_duel: Game, edit_state: Any
) -> None:
    game = timed_duel
    mover = turn_player(game)
    owner = 1 - mover
    services.set_standing_orders(
        public_id=game.public_id, user=user_of(game, owner),
        orders={"claim_rent": True, "auto_roll": True},
    )  # fmt: skip

    def land_on_reading(s: engine.State) -> engine.State:
        s = engine.setup(s, owners={5: owner}, positions={mover: 0})
        engine.force_dice(s, (2, 3), (4, 6))
        return s

    edit_state(game, land_on_reading)
    services.submit_action(
        public_id=game.public_id, user=user_of(game, mover), action={"kind": "roll"},
        expected_version=game.version,
    )  # fmt: skip
    s = state_of(game)
    assert not s.claims, "the owner's standing order claimed the rent at once"
    assert s.cash[mover] == 1500 - 25 and s.cash[owner] == 1525
    services.submit_action(
        public_id=game.public_id, user=user_of(game, mover), action={"kind": "end_turn"},
        expected_version=game.version,
    )  # fmt: skip
    s = state_of(game)
    assert s.turn == owner and s.pos[owner] == 10, "the owner rolled by standing order"
    lines = [
        line["text"]
        for group in presenters.log(Snapshot.of(game, state=s), None)
        for line in group["lines"]
    ]
    orders = [t for t in lines if "(standing order)" in t]
    assert len(orders) == 2
    assert any("claim rent" in t for t in orders) and any("roll" in t for t in orders)


def test_the_reminder_and_the_email_are_sent_once(
    timers: None, mail_dir: Path, timed_duel: Game
) -> None:
    # (mail_dir empties the mailbox, so it comes before the game starts.)
    game = timed_duel
    mover = turn_player(game)
    user = user_of(game, mover)
    # The "your turn" notice for the first decision, with its email.
    wait_for(lambda: Notification.objects.filter(user=user, kind="your_turn").exists())
    wait_for(lambda: [m for m in sent_mail(mail_dir) if "Your move in game" in m])
    d = game.deadlines.get(player=mover)
    with setup_writes("the reminder due"):
        Deadline.objects.filter(pk=d.pk).update(remind_at=timezone.now() - timedelta(seconds=1))
    wait_for(lambda: Notification.objects.filter(user=user, kind="reminder").exists())
    # Late and duplicate reminders after the fact: each runs and sends nothing,
    # and neither does a sweep.
    assert [run_task(send_reminder, d.pk) for _ in range(3)] == [False] * 3
    run_task(sweep_deadlines)
    # Another decision of the same player soon after, which they just made
    # arise themselves: no second email.
    services.submit_action(
        public_id=game.public_id, user=user, action={"kind": "roll"},
        expected_version=version(game),
    )  # fmt: skip
    # The one worker (--pool=solo) takes its queue in order: once this notice
    # task has run, so has every task the sweep and the move queued before it,
    # and it finds nothing left to tell.
    assert run_task(notify_your_turn, game.pk) == 0
    assert Notification.objects.filter(user=user, kind="reminder").count() == 1
    mail = sent_mail(mail_dir)
    assert len([m for m in mail if "Subject: Reminder" in m]) == 1
    assert len([m for m in mail if "Your move in game" in m and user.email in m]) == 1
    assert Notification.objects.filter(user=user, kind="your_turn").count() >= 1
    assert Seat.objects.get(pk=game.seats.get(number=mover).pk).timeouts_total == 0

"""A timeout is a full move: the rows it reads with the lock must match what
the ORM would read, and after the lock it only writes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine
from games.models import Deadline, Game, GameEvent, Seat
from games.services import timers, write
from tests.conftest import setup_writes
from tests.games.conftest import writes_after_the_lock

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


@pytest.mark.django_db
def test_the_lock_reads_the_same_game_seats_and_deadlines_as_the_orm(duel: Game) -> None:
    with transaction.atomic():
        w = write.lock(duel.pk)
        game, seats, deadlines = w.game, w.seats, w.deadlines
    assert model_to_dict(game) == model_to_dict(Game.objects.get(pk=duel.pk))
    assert game.state == Game.objects.get(pk=duel.pk).state
    assert [model_to_dict(s) for s in seats] == [
        model_to_dict(s) for s in Seat.objects.filter(game=duel).order_by("number")
    ]
    assert [s.user for s in seats] == [s.user for s in duel.seats.order_by("number")]
    assert [s.user.vacation_until for s in seats] == [None, None]  # type: ignore[union-attr]
    assert sorted(model_to_dict(d).items() for d in deadlines) == sorted(
        model_to_dict(d).items() for d in Deadline.objects.filter(game=duel)
    )


@pytest.mark.django_db
def test_a_timeout_writes_the_move_the_counters_and_the_new_deadline(
    duel: Game, no_bot_tasks: Any
) -> None:
    late = engine.from_dict(duel.state).turn
    old = set(Deadline.objects.filter(game=duel).values_list("pk", flat=True))
    assert timers.expire_decision(duel.pk, duel.version, now=timezone.now() + timedelta(days=9))
    game = Game.objects.get(pk=duel.pk)
    assert game.version == duel.version + 1
    assert game.updated_at > duel.updated_at
    assert engine.from_dict(game.state).seq == engine.from_dict(duel.state).seq + 1
    kinds = list(
        GameEvent.objects.filter(game=duel, seq=game.version).values_list("kind", flat=True)
    )
    assert kinds[:2] == ["action", "note"] and len(kinds) > 2
    seat = duel.seats.get(number=late)
    assert (seat.timeouts_in_row, seat.timeouts_total) == (1, 1)
    rows = list(Deadline.objects.filter(game=duel))
    assert rows and all(d.version == game.version for d in rows)
    # A new decision gets a row of its own (its id keys reminders and notices).
    assert not old & {d.pk for d in rows}


@pytest.mark.skipif(not ON_POSTGRES, reason="the lock reads in one round trip on PostgreSQL only")
@pytest.mark.django_db
def test_a_timeout_reads_only_with_its_lock(duel: Game, no_bot_tasks: Any) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert timers.expire_decision(duel.pk, duel.version, now=timezone.now() + timedelta(days=9))
    # (Here the transaction is a savepoint inside the test's own.)
    writes_after_the_lock(queries)


@pytest.mark.django_db
def test_a_seat_taken_over_on_a_timeout_gets_no_reminders_while_another_seat_goes_bankrupt(
    alice: Any, bob: Any, charlie: Any, no_bot_tasks: Any
) -> None:
    from games import services

    # A bot that pauses before its move, so that the taken-over seat's next
    # decision is there to look at (an instant one answers it at once).
    game = services.create_game(host=alice, max_seats=3, turn_seconds=3600, bot_delay_ms=1000)
    with setup_writes("a take-over after one timeout"):
        Game.objects.filter(pk=game.pk).update(takeover_after=1)
    services.join_game(public_id=game.public_id, user=bob)
    services.join_game(public_id=game.public_id, user=charlie)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    state = engine.from_dict(game.state)
    late = state.turn
    out = (late + 1) % 3
    # Test setup: a player out of the game whose seat still says playing, so
    # that the timeout's move marks it bankrupt before writing the deadlines.
    with setup_writes("a player out whose seat says playing"):
        state.alive[out] = False
        Game.objects.filter(pk=game.pk).update(state=engine.to_dict(state))
    assert timers.expire_decision(game.pk, game.version, now=timezone.now() + timedelta(days=9))
    seats = {s.number: s for s in Seat.objects.filter(game=game)}
    assert seats[late].taken_over and seats[late].timeouts_in_row == 1
    assert seats[out].status == Seat.Status.BANKRUPT
    mine = list(Deadline.objects.filter(game=game, player=late))
    assert mine, "the timed-out player has a next decision"
    assert all(d.remind_at is None and d.reminded for d in mine)


@pytest.mark.skipif(not ON_POSTGRES, reason="the lock reads in one round trip on PostgreSQL only")
@pytest.mark.django_db
def test_a_bot_move_reads_its_seats_and_deadlines_with_the_lock(
    alice: Any, no_bot_tasks: Any
) -> None:
    from games import services
    from tests.games.conftest import _started

    game = _started(alice, bots=1)
    bot = Seat.objects.get(game=game, user=None).number
    state = engine.from_dict(game.state)
    state = engine.setup(state, turn=bot)  # test setup: the bot is to roll
    with setup_writes("the bot to roll, one move per task"):
        Game.objects.filter(pk=game.pk).update(state=engine.to_dict(state), bot_delay_ms=1000)
    with CaptureQueriesContext(connection) as queries:
        assert services.play_bot_move(game.pk, game.version)
    writes_after_the_lock(queries)
    assert Game.objects.get(pk=game.pk).version == game.version + 1


@pytest.mark.skipif(not ON_POSTGRES, reason="the lock reads in one round trip on PostgreSQL only")
@pytest.mark.django_db
def test_a_players_move_reads_only_with_its_lock_and_counts_on_their_seat(
    duel: Game, no_bot_tasks: Any
) -> None:
    from games import services

    mover = engine.next_actor(engine.from_dict(duel.state))
    seat = duel.seats.select_related("user").get(number=mover)
    with setup_writes("a seat with timeouts in a row"):
        Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=2, decisions_total=5)
    with CaptureQueriesContext(connection) as queries:
        services.submit_action(
            public_id=duel.public_id,
            user=seat.user,
            action={"kind": "roll"},
            expected_version=duel.version,
        )
    writes_after_the_lock(queries)
    seat.refresh_from_db()
    assert (seat.timeouts_in_row, seat.decisions_total) == (0, 6)
    assert Game.objects.get(pk=duel.pk).version == duel.version + 1


@pytest.mark.django_db
def test_a_deadline_with_no_legal_default_is_dropped_through_the_write(
    duel: Game, no_bot_tasks: Any
) -> None:
    now = timezone.now()
    kept = set(Deadline.objects.filter(game=duel).values_list("pk", flat=True))
    with setup_writes("an overdue claim window whose claim is gone"):
        gone = Deadline.objects.create(
            game=duel, player=0, kind=engine.D_CLAIM, ref="999", version=duel.version,
            started_at=now - timedelta(hours=2), due_at=now - timedelta(hours=1),
        )  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        assert not timers.expire_decision(duel.pk, duel.version, now=now)
    assert set(Deadline.objects.filter(game=duel).values_list("pk", flat=True)) == kept
    assert not Deadline.objects.filter(pk=gone.pk).exists()
    assert Game.objects.get(pk=duel.pk).version == duel.version
    if ON_POSTGRES:
        # The lock with the rows, then the one delete.
        assert len(writes_after_the_lock(queries)) == 1

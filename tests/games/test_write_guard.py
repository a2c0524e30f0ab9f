"""Only games.services writes games, seats, events and deadlines
(games/writeguard.py); the tests run with the guard refusing."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import engine, services
from games.models import Deadline, Game, GameEvent, Seat
from games.services import timers as timer_services
from games.writeguard import GameWriteOutsideServices, writes_allowed

pytestmark = pytest.mark.django_db


def test_rejects_game_save_outside_services(duel: Game) -> None:
    duel.status = Game.Status.ABANDONED
    with pytest.raises(GameWriteOutsideServices, match="games_game"), transaction.atomic():
        duel.save()
    assert Game.objects.get(pk=duel.pk).status == Game.Status.ACTIVE


def test_rejects_the_writes_that_bypass_model_signals(duel: Game) -> None:
    seat = duel.seats.get(number=0)
    writes = [
        lambda: Game.objects.filter(pk=duel.pk).update(version=99),
        lambda: Seat.objects.bulk_create([Seat(game=duel, number=5)]),
        lambda: GameEvent.objects.filter(game=duel).delete(),
        lambda: Deadline.objects.filter(game=duel).update(due_at=timezone.now()),
        lambda: Seat.objects.filter(pk=seat.pk).update(timeouts_total=3),
    ]
    for write in writes:
        # (A refused write spoils the transaction it was in: a savepoint here.)
        with pytest.raises(GameWriteOutsideServices), transaction.atomic():
            write()
    with (
        pytest.raises(GameWriteOutsideServices),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE games_deadline SET version = 0 WHERE game_id = %s", [duel.pk])
    assert Game.objects.get(pk=duel.pk).version == duel.version
    assert duel.events.exists() and duel.seats.count() == 2


def test_reads_and_other_tables_pass(duel: Game, alice: User) -> None:
    assert Game.objects.filter(pk=duel.pk).count() == 1
    alice.display_name = "Ada"
    alice.save()  # accounts_user: not a game table


def test_services_write_games(alice: User, bob: User, no_bot_tasks: Any) -> None:
    # The lobby, a move and a timeout (hand-built statements in few round
    # trips), all with the guard refusing any other writer.
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    mover = game.seats.get(number=engine.from_dict(game.state).turn).user
    services.submit_action(
        public_id=game.public_id, user=mover, action={"kind": "roll"},
        expected_version=game.version,
    )  # fmt: skip
    game.refresh_from_db()
    with writes_allowed("test setup: a deadline already past"):
        Deadline.objects.filter(game=game).update(due_at=timezone.now() - timedelta(seconds=1))
    assert timer_services.expire_decision(game.pk, game.version) is True
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_writes_allowed_names_its_reason(duel: Game) -> None:
    with pytest.raises(ValueError, match="say why"), writes_allowed(" "):
        pass
    with writes_allowed("test setup: a game abandoned by hand"):
        Game.objects.filter(pk=duel.pk).update(status=Game.Status.ABANDONED)
    assert Game.objects.get(pk=duel.pk).status == Game.Status.ABANDONED
    # Only inside it.
    with pytest.raises(GameWriteOutsideServices), transaction.atomic():
        Game.objects.filter(pk=duel.pk).update(status=Game.Status.ACTIVE)


def test_production_logs_a_write_outside_services_and_lets_it_through(
    duel: Game, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.GAME_WRITE_GUARD = "log"
    with caplog.at_level(logging.WARNING, logger="games.writeguard"):
        Game.objects.filter(pk=duel.pk).update(version=99)
    assert Game.objects.get(pk=duel.pk).version == 99
    (record,) = caplog.records
    assert "games_game written outside games.services" in record.getMessage()
    assert "test_write_guard.py" in (record.stack_info or "")  # who wrote it


def test_staff_delete_an_account_that_hosted_a_game(client: Client, charlie: User) -> None:
    game = services.create_game(host=charlie, max_seats=2, bot_delay_ms=0)
    services.leave_game(public_id=game.public_id, user=charlie)
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw-root-123"))
    client.post(f"/admin/accounts/user/{charlie.pk}/delete/", {"post": "yes"})
    assert not User.objects.filter(pk=charlie.pk).exists()
    assert Game.objects.get(pk=game.pk).host_id is None  # written, with its reason

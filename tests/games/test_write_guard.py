"""Only games.services writes games, seats, events and deadlines
(games/writeguard.py); the tests run with the guard refusing, and so do
debug mode and the processes the tests start; production installs none."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import engine, services, writeguard
from games.models import Deadline, Game, GameEvent, Seat
from games.services import timers as timer_services
from games.services.write import game_transaction
from games.writeguard import GameWriteOutsideServices, writes_allowed
from tests.conftest import BASE_DIR
from tests.monopoly_site.test_settings import PRODUCTION

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


def test_log_mode_warns_of_a_write_outside_services_and_lets_it_through(
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


def test_the_services_mark_ends_with_their_transaction(alice: User) -> None:
    game = services.create_game(host=alice, max_seats=2, bot_delay_ms=0)
    # The service has returned: the same write from here is refused.
    with pytest.raises(GameWriteOutsideServices), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(version=99)
    with game_transaction():
        Game.objects.filter(pk=game.pk).update(version=99)
    assert Game.objects.get(pk=game.pk).version == 99


def test_a_thread_a_service_starts_is_not_the_service(duel: Game) -> None:
    # Context variables do not follow a plain thread: its writes are its own.
    import threading

    refused: list[BaseException] = []

    def write() -> None:
        try:
            with transaction.atomic():
                Game.objects.filter(pk=duel.pk).update(version=99)
        except GameWriteOutsideServices as exc:
            refused.append(exc)
        finally:
            connection.close()

    with game_transaction():
        thread = threading.Thread(target=write)
        thread.start()
        thread.join()
    assert refused


def test_with_the_guard_off_a_new_connection_gets_no_wrapper(settings: Any) -> None:
    settings.GAME_WRITE_GUARD = "off"
    fresh = connections.create_connection("default")
    try:
        fresh.ensure_connection()
        assert writeguard.guard not in fresh.execute_wrappers
    finally:
        fresh.close()
    settings.GAME_WRITE_GUARD = "raise"
    fresh = connections.create_connection("default")
    try:
        fresh.ensure_connection()
        assert fresh.execute_wrappers[0] is writeguard.guard
    finally:
        fresh.close()


PROBE = """
import json, django
django.setup()
from django.conf import settings
from django.db import connection
from games import writeguard
from games.models import Game
connection.ensure_connection()
try:
    Game.objects.filter(pk=-1).update(version=0)  # no row: harmless if let through
    refused = False
except writeguard.GameWriteOutsideServices:
    refused = True
print(json.dumps({"mode": settings.GAME_WRITE_GUARD, "refused": refused,
                  "installed": writeguard.guard in connection.execute_wrappers}))
"""


def _probe(django_db_blocker: Any, **env: str | None) -> dict[str, Any]:
    """What a process of the site started with ``env`` does with a write to
    a game table outside the services (``None`` unsets a variable)."""
    from tests.timers.conftest import process_env

    full = process_env(django_db_blocker)
    for name, value in env.items():
        if value is None:
            full.pop(name, None)
        else:
            full[name] = value
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=BASE_DIR, env={**full, "DJANGO_SETTINGS_MODULE": "monopoly_site.settings"},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    probed: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return probed


def test_a_process_the_tests_start_refuses_such_a_write(django_db_blocker: Any) -> None:
    # Celery workers and Daphnes started by tests inherit GAME_WRITE_GUARD.
    assert _probe(django_db_blocker) == {"mode": "raise", "refused": True, "installed": True}


def test_debug_mode_refuses_and_production_installs_nothing(django_db_blocker: Any) -> None:
    debug = _probe(django_db_blocker, GAME_WRITE_GUARD=None, DEBUG="true")
    assert debug == {"mode": "raise", "refused": True, "installed": True}
    production = _probe(django_db_blocker, GAME_WRITE_GUARD=None, **PRODUCTION)
    assert production == {"mode": "off", "refused": False, "installed": False}

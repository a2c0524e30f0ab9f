"""A pg_dump of the site restores into a fresh database in which every game
replays to its stored state (the restore steps of docs/operations.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Game, Seat
from tests.conftest import BASE_DIR, setup_writes

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # The tests drive the bot themselves: a bot task queued after a commit
    # would be played by the session's real worker, if an earlier test
    # started one, and the game would move under them.
    pytest.mark.usefixtures("no_bot_tasks"),
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"], reason="pg_dump"
    ),
]


def finished_game(alice: Any) -> Game:
    """Alice against a bot: her timeouts, a bot taking her seat over, bot
    moves, then her resignation."""
    game = services.create_seated_game(
        humans=[alice], bots=["heuristic"], start=True, bot_delay_ms=0
    )
    later = timezone.now() + timedelta(days=3)
    for _ in range(60):
        if not services.play_bot_move(game.pk, game.version):
            assert services.expire_decision(game.pk, game.version, now=later)
        game.refresh_from_db()
    with setup_writes("alice back in her seat to resign"):
        Seat.objects.filter(game=game, user=alice).update(taken_over=False)
    services.resign(public_id=game.public_id, user=alice, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def server() -> dict[str, str]:
    d = connection.settings_dict
    return {
        "host": d.get("HOST") or "127.0.0.1",
        "port": str(d.get("PORT") or 5432),
        "user": d.get("USER") or "postgres",
    }


def libpq_args() -> list[str]:
    s = server()
    return ["-h", s["host"], "-p", s["port"], "-U", s["user"]]


@pytest.fixture
def restored_name() -> Iterator[str]:
    name = f"{connection.settings_dict['NAME']}_restored"
    with psycopg.connect(dbname="postgres", autocommit=True, **server()) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}"')
        c.execute(f'CREATE DATABASE "{name}"')
    yield name
    with psycopg.connect(dbname="postgres", autocommit=True, **server()) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def verify_games(database: str) -> subprocess.CompletedProcess[str]:
    s = server()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{s['user']}@{s['host']}:{s['port']}/{database}",
    }
    return subprocess.run(
        [sys.executable, "manage.py", "verify_games"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.mark.slow  # minutes of real processes: in `make test-long`, which CI runs too
def test_a_dump_restores_into_a_fresh_database_where_every_game_replays(
    tmp_path: Path, restored_name: str, alice: Any, bob: Any
) -> None:
    finished = finished_game(alice)
    running = services.create_seated_game(humans=[alice, bob], bots=[], start=True)
    dump = tmp_path / "site.dump"
    name = connection.settings_dict["NAME"]
    subprocess.run(["pg_dump", *libpq_args(), "-Fc", "-f", str(dump), name], check=True)
    subprocess.run(
        ["pg_restore", *libpq_args(), "--no-owner", "-d", restored_name, str(dump)], check=True
    )
    result = verify_games(restored_name)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 games replay to their stored state" in result.stdout
    d = connection.settings_dict
    with psycopg.connect(
        dbname=restored_name, host=d["HOST"] or "127.0.0.1", user=d["USER"] or "postgres"
    ) as c:
        row = c.execute(
            "SELECT version, status, secret FROM games_game WHERE id = %s", [finished.pk]
        ).fetchone()
    assert row == (finished.version, Game.Status.FINISHED, finished.secret)
    assert running.pk != finished.pk


def test_verify_games_names_a_game_whose_stored_state_does_not_replay(
    capsys: Any, alice: Any
) -> None:
    game = finished_game(alice)
    state = dict(game.state)
    state["cash"] = [c + 1 for c in state["cash"]]
    with setup_writes("a stored state that does not replay"):
        Game.objects.filter(pk=game.pk).update(state=state)
    with pytest.raises(Exception, match="1 of 1 games do not replay"):
        call_command("verify_games")
    assert game.public_id in capsys.readouterr().out

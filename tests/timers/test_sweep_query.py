"""The sweeps read overdue deadlines and the notice looks due through their indexes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.models import Deadline, Game
from games.services.timers import (
    overdue_games,
    overdue_query,
    turn_notices_due,
    turn_notices_query,
)
from tests.conftest import setup_writes


@pytest.mark.django_db
@pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="reads PostgreSQL's EXPLAIN",
)
def test_the_sweep_query_uses_the_due_at_index(alice: Any) -> None:
    with setup_writes("a game and 20,000 deadlines"):
        game = Game.objects.create(host=alice, status=Game.Status.ACTIVE)
        now = timezone.now()
        # Many future deadlines and a few overdue ones, as in a live site.
        Deadline.objects.bulk_create(
            Deadline(
                game=game,
                player=i % 8,
                kind="roll",
                ref=str(i),
                version=1,
                started_at=now,
                due_at=now + timedelta(seconds=(i - 20) if i < 20 else 60 + i),
            )
            for i in range(20_000)
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_deadline")
    sql, params = overdue_query(now, 2000).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "deadline_due_idx" in plan, plan
    assert "Seq Scan" not in plan, plan
    assert overdue_games(now) == [(game.pk, 1)]


@pytest.mark.django_db
def test_the_sweep_finds_nothing_before_its_time(duel: Game) -> None:
    assert overdue_games(timezone.now()) == []
    assert overdue_games(timezone.now() + timedelta(days=2)) == [(duel.pk, duel.version)]


@pytest.mark.django_db
@pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="reads PostgreSQL's EXPLAIN",
)
def test_the_notice_sweep_reads_the_looks_due_through_their_index(alice: Any) -> None:
    with setup_writes("a game and 20,000 deadlines, a few with a look due"):
        game = Game.objects.create(host=alice, status=Game.Status.ACTIVE)
        now = timezone.now()
        # Most decisions told already (no look owed), some put off, a few due.
        Deadline.objects.bulk_create(
            Deadline(
                game=game, player=i % 8, kind="roll", ref=str(i), version=1,
                started_at=now, due_at=now + timedelta(hours=1),
                notice_at=now - timedelta(seconds=1) if i < 5
                else now + timedelta(seconds=20) if i < 500 else None,
            )
            for i in range(20_000)
        )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_deadline")
    sql, params = turn_notices_query(now, 500).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "deadline_notice_at_idx" in plan, plan
    assert "Seq Scan" not in plan, plan
    assert turn_notices_due(now) == [game.pk]

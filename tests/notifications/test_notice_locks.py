"""A "your move" notice is raised under the game's lock (so that a move
answering the decision waits for it); it must never wait for a lock on its
player's user row, which a join or a vacation takes before locking games:
the two would deadlock (found by the real-worker vacation test)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction

from games import engine
from games.models import Game
from games.services.lobby import lock_user
from notifications import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_notice_is_raised_while_its_player_is_locked_by_a_join_or_a_vacation(
    duel: Game,
) -> None:
    mover = engine.next_actor(engine.from_dict(duel.state))
    user = duel.seats.get(number=mover).user
    deadline = duel.deadlines.get(player=mover)
    locked, release = threading.Event(), threading.Event()

    def hold_the_user() -> None:
        try:
            with transaction.atomic():
                lock_user(user)
                locked.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    def raise_notice() -> bool:
        try:
            return services.raise_turn_notice(
                user.pk, duel, "Your move", due_at=deadline.due_at, email=False,
                deadline_id=deadline.pk,
            )  # fmt: skip
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        holder = pool.submit(hold_the_user)
        assert locked.wait(timeout=10)
        try:
            assert pool.submit(raise_notice).result(timeout=10) is True
        finally:
            release.set()
            holder.result(timeout=10)

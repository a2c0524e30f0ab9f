"""Row locks and the access checks shared by every write."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Game, Seat
from games.services.errors import GameNotFound, NotAllowed, VersionConflict


def lock_game(*, public_id: str | None = None, pk: int | None = None) -> Game:
    """Fetch a game locked for update. Refuses to run outside a transaction,
    since a lock that is released at once protects nothing."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_game must be called inside transaction.atomic()")
    query = Game.objects.select_for_update()
    try:
        if pk is not None:
            return query.get(pk=pk)
        return query.get(public_id=public_id)
    except Game.DoesNotExist:
        raise GameNotFound("There is no such game.") from None


def access_seat(seats: list[Seat], user: Any) -> Seat:
    """The seat of ``user`` among the game's ``seats``, or ``NotAllowed``."""
    if not getattr(user, "is_authenticated", False):
        raise NotAllowed("Log in to play.")
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("You are not playing in this game.")
    return seat


def check_version(game: Game, expected_version: int | None) -> None:
    if expected_version is None or int(expected_version) != game.version:
        raise VersionConflict(
            "The game has moved on since you loaded it; here is the current position.", game
        )

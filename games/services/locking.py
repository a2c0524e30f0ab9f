"""Row locks and the access checks shared by every write."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import engine
from games.models import Game, GameEvent, Seat
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


# How far back an action's moves since are looked at: an action posted more
# versions ago than this is refused unread. A move of a person's may commit
# a few hundred versions at once (instant bots auctioning among themselves).
STILL_MEANT_WINDOW = 500


def check_version_or_meaning(
    game: Game, expected_version: int | None, state: engine.State, action: engine.Action
) -> None:
    """``check_version``, except that an action posted against an older
    version is let through if it means the same in ``state``, the locked
    game's (``engine.still_means``: a pass in the same auction, a bid still
    above the high bid, ending the turn; never a move made twice). What
    happened since is read from the moves' event rows, under the lock."""
    if expected_version is not None:
        since = int(expected_version)
        if 0 <= since < game.version and game.version - since <= STILL_MEANT_WINDOW:
            movers, happened = moves_since(game, since)
            if engine.still_means(state, action, movers, happened):
                return
    check_version(game, expected_version)


def moves_since(game: Game, version: int) -> tuple[set[int], set[str]]:
    """The players who moved (or were moved for) after ``version``, and the
    kinds of the engine events their moves made."""
    movers: set[int] = set()
    happened: set[str] = set()
    rows = GameEvent.objects.filter(game=game, seq__gt=version).exclude(kind="note")
    for kind, payload in rows.values_list("kind", "payload"):
        if kind == "action":
            movers.add(int(payload["player"]))
        else:
            happened.add(kind)
    return movers, happened

"""Setting a player's standing orders for one game."""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat
from games.services.errors import NotAllowed, StateConflict
from games.services.locking import access_seat
from games.services.play import fire_standing_orders
from games.services.write import game_transaction, lock
from games.standing_orders import DEFAULTS, clean


def set_standing_orders(*, public_id: str, user: Any, orders: dict[str, Any]) -> dict[str, Any]:
    """Save the orders; any that answer a decision open now fire at once."""
    with game_transaction():
        w = lock(public_id=public_id)
        game, seat = w.game, access_seat(w.seats, user)
        if game.status != Game.Status.ACTIVE:
            raise StateConflict("This game is not in play.")
        if seat.status != Seat.Status.PLAYING:
            raise NotAllowed("You are no longer playing in this game.")
        cleaned = clean(orders)
        seat.standing_orders = {} if cleaned == DEFAULTS else cleaned
        seat.save(update_fields=["standing_orders"])
        fire_standing_orders(w)
    return cleaned

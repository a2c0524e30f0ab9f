"""Deleting a game (the admin's only write to games)."""

from __future__ import annotations

from games.models import Game
from games.services.errors import GameNotFound, NotAllowed
from games.services.write import game_transaction

RATED = "A rated game's result is part of its players' ratings: it cannot be deleted."


@game_transaction()
def delete_game(*, game_pk: int) -> None:
    """Delete a game with its seats, events, deadlines and chat. The game row
    is locked first, so a move or a timer in flight either commits before the
    deletion or finds no game. A rated game stays: deleting it would leave its
    players' ratings counting a game nobody can see."""
    game = Game.objects.select_for_update().filter(pk=game_pk).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    if game.rating_changes.exists():
        raise NotAllowed(RATED)
    game.delete()

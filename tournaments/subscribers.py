"""Listening to the games (``games.services.subscribers``) without the
games knowing of tournaments: only a game made for a table
(``Game.takeover_on_first_timeout``) is looked at, inside its write's
transaction, so that a no-show or a table's result is recorded exactly once
with the move that caused it."""

from __future__ import annotations

from games.services.subscribers import Subscriber
from games.services.write import Committed
from tournaments.services.noshows import record_no_shows
from tournaments.services.results import is_no_show, record_game


def in_transaction(record: Committed) -> None:
    game = record.game
    if not game.takeover_on_first_timeout:
        return
    taken = {n.user_id for n in record.notices if n.kind == "takeover"}
    if taken:
        seats = record.seats if record.seats is not None else list(game.seats.all())
        absent = [s.user_id for s in seats if s.user_id in taken and is_no_show(s)]
        if absent:
            record_no_shows(game, [uid for uid in absent if uid is not None])
    if record.finished:
        record_game(game, record.seats)


SUBSCRIBER = Subscriber("tournaments", in_transaction=in_transaction)

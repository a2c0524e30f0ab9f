"""Rating a game as it finishes (``games.services.subscribers``): inside the
write's transaction, so that a finished game is rated exactly once."""

from __future__ import annotations

from games.services.subscribers import Subscriber
from games.services.write import Committed
from ratings.services import rate_game


def in_transaction(record: Committed) -> None:
    if record.finished:
        rate_game(record.game)


SUBSCRIBER = Subscriber("ratings", in_transaction=in_transaction)

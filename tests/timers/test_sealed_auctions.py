"""A sealed-bid auction with one absent human closes when its window passes:
beat and the real worker hand in the absent player's pass (issue #17)."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from games.models import Game, GameEvent
from tests.games.test_sealed_auctions import bid, open_auction, sealed_game
from tests.timers.conftest import due_soon, timeout_notes, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BALTIC = 3


def state_of(game: Game) -> engine.State:
    return engine.from_dict(Game.objects.get(pk=game.pk).state)


def test_an_absent_bidder_passes_when_the_window_closes_and_the_bid_wins(
    timers: None, alice: Any, bob: Any
) -> None:
    game = sealed_game(alice, bob)
    users = [alice, bob]
    mover = open_auction(game, users)
    bid(game, users[mover], 30)
    assert engine.auction_view(state_of(game)) is not None  # the other has not bid
    due_soon(game, 1, kind=engine.D_SEALED_BID)
    wait_for(lambda: engine.auction_view(state_of(game)) is None)
    s = state_of(game)
    assert s.owner[BALTIC] == mover and engine.check_invariants(s) == []
    (note,) = timeout_notes(game)
    (answer,) = GameEvent.objects.filter(game=game, kind="action", payload__kind="pass_bid")
    assert answer.seq == note.seq and answer.payload["player"] == 1 - mover

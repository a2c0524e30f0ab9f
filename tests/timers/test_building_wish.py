"""A building shortage window expires through the real timer path: the
deadline passes, beat and the worker apply the default (no wish), and the
requester's house is built (issue #17)."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine, services
from games.models import Game, GameEvent
from tests.games.test_building_wish import scarce, state_of
from tests.timers.conftest import due_soon, timeout_notes, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_wish_window_times_out_to_no_wish_and_the_build_goes_ahead(
    timers: None, timed_duel: Game, edit_state: Any
) -> None:
    game = timed_duel
    edit_state(game, scarce)
    services.submit_action(
        public_id=game.public_id, user=game.seats.get(number=0).user,
        action={"kind": "build", "square": 6}, expected_version=game.version,
    )  # fmt: skip
    s = state_of(game)
    assert engine.shortage(s) is not None and s.bld[6] == 0
    due_soon(game, 1, kind=engine.D_WISH)
    wait_for(lambda: engine.shortage(state_of(game)) is None)
    s = state_of(game)
    assert s.bld[6] == 1 and s.bank_houses == 0 and s.auction is None
    (note,) = timeout_notes(game)
    (answer,) = GameEvent.objects.filter(game=game, kind="action", payload__kind="no_wish")
    assert answer.seq == note.seq and answer.payload["player"] == 1
    assert engine.check_invariants(s) == []

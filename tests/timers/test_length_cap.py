"""The length cap in days (issue #33): a deadline row for everyone, due
``cap_days`` after the start, that beat's sweep finds and answers with the
engine's ``end_cap``: the game ends at once, places by net worth."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine

from games import engine, services, tasks
from games.models import Game
from tests.timers.conftest import due_soon, wait_for

# Bob (seat 1) is worth more: 1000 cash and Boardwalk (400), against
# Alice's 900 cash and a mortgaged Park Place (350, at half).
POSITION = {"cash": {0: 900, 1: 1000}, "owners": {37: 0, 39: 1}, "mortgaged": [37]}


def capped_duel(alice: Any, bob: Any, days: int = 1) -> Game:
    # Turns of three days: the cap falls before any player's own deadline.
    game = services.create_game(
        host=alice, max_seats=2, turn_seconds=3 * 86400, switches={"cap_days": days}
    )
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    return game


def places(game: Game) -> dict[int, tuple[int | None, int | None]]:
    return {s.number: (s.final_rank, s.final_net_worth) for s in game.seats.all()}


@pytest.mark.django_db
def test_the_sweep_ends_a_capped_game_by_net_worth_when_its_days_are_up(
    alice: Any, bob: Any, no_bot_tasks: Any, edit_state: Any
) -> None:
    game = capped_duel(alice, bob)
    cap = game.deadlines.get(kind="length_cap")
    assert cap.player == engine.SYSTEM
    assert cap.due_at == game.started_at + timedelta(days=1)
    edit_state(game, lambda s: engine.setup(s, **POSITION))
    with time_machine.travel(cap.due_at - timedelta(seconds=1), tick=False):
        assert tasks.dispatch_overdue(take_eta=False, run_one=True) == 0
    with time_machine.travel(cap.due_at + timedelta(seconds=1), tick=False):
        assert tasks.dispatch_overdue(take_eta=False, run_one=True) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end_reason == "length_cap"
    assert places(game) == {0: (2, 900 + 175), 1: (1, 1000 + 400)}
    assert not game.deadlines.exists()
    last = game.events.filter(kind="length_cap").get()
    assert last.payload["days"] == 1


@pytest.mark.django_db
def test_a_game_without_a_cap_in_days_gets_no_cap_deadline(
    alice: Any, bob: Any, no_bot_tasks: Any
) -> None:
    game = services.create_game(host=alice, max_seats=2, switches={"cap_turns": 20})
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    assert not game.deadlines.filter(kind="length_cap").exists()


@pytest.mark.slow  # a real worker and beat: in make test-long
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_beat_ends_a_capped_game_with_a_real_worker(
    timers: None, alice: Any, bob: Any, edit_state: Any
) -> None:
    game = capped_duel(alice, bob, days=2)
    edit_state(game, lambda s: engine.setup(s, **POSITION))
    due_soon(game, 1, kind="length_cap")
    wait_for(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED)
    game.refresh_from_db()
    assert game.end_reason == "length_cap"
    assert places(game) == {0: (2, 1075), 1: (1, 1400)}

"""The live "your move" notices with the real worker and beat (issue #17):
each write's notice task runs in the worker, beat's sweep is the net, and
the players act meanwhile, so that a late task races a player's move."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games import engine, services
from games.models import Deadline, Game
from live import presence
from notifications.models import Notification
from tests.live.conftest import run
from tests.notifications.test_live_notices import play_turns, unread_turn_notices
from tests.timers.conftest import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def duel_of(alice: Any, bob: Any) -> Game:
    game = services.create_game(host=alice, max_seats=2, turn_seconds=3600, bot_delay_ms=0)
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    return game


def settled(game: Game) -> bool:
    """Every decision's notice has been handled by the worker or beat."""
    return not Deadline.objects.filter(game=game, notice_at__lte=timezone.now()).exists()


def test_forty_turns_leave_each_player_at_most_one_unread_notice_for_the_game(
    timers: None, alice: Any, bob: Any
) -> None:
    game = duel_of(alice, bob)
    play_turns(game, 40, notify=False)
    waiting = engine.next_actor(engine.from_dict(Game.objects.get(pk=game.pk).state))
    mover = game.seats.get(number=waiting).user
    wait_for(lambda: settled(game) and unread_turn_notices(mover, game) == 1)
    for seat in game.seats.all():
        assert unread_turn_notices(seat.user, game) <= 1
    other = game.seats.exclude(number=waiting).get().user
    assert unread_turn_notices(other, game) == 0  # acted last: nothing waits for them


def test_a_player_watching_the_game_gets_no_notice(timers: None, alice: Any, bob: Any) -> None:
    game = duel_of(alice, bob)
    people = [
        presence.member(f"u{seat.user_id}", seat.number, f"channel-{seat.number}")
        for seat in game.seats.all()
    ]

    async def watching() -> None:
        for person in people:
            await presence.touch(game.pk, person)

    run(watching)  # in a thread of its own: the browser tests keep a loop in this one
    play_turns(game, 6, notify=False)
    wait_for(lambda: settled(game))
    assert not Notification.objects.filter(game=game, kind="your_turn").exists()

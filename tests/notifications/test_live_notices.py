"""One live "your move" notice per game: updated in place, cleared when the
player acts or opens the game, never raised while they watch it."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client

from games import engine
from games.models import Game
from games.services import submit_action
from live import presence
from notifications import decisions
from notifications.live import unread_count
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def play_turns(game: Game, turns: int, *, notify: bool = True) -> None:
    """Both humans play as the heuristic bot would, each write followed by
    what its notice task runs (unless a real worker runs it: ``notify``)."""
    done = 0
    while done < turns:
        game.refresh_from_db()
        state = engine.from_dict(game.state)
        if state.finished:
            return
        actor = engine.next_actor(state)
        user = game.seats.get(number=actor).user
        bot = engine.make_bot("heuristic", rng=engine.bot_rng(state, game.version))
        action = bot.act(state, actor)
        submit_action(
            public_id=game.public_id,
            user=user,
            action=action.to_dict(),
            expected_version=game.version,
        )
        done += action.kind == engine.END_TURN
        if notify:
            decisions.your_turn(game.pk)


def unread_turn_notices(user: Any, game: Game) -> int:
    return Notification.objects.filter(
        user=user, game=game, kind="your_turn", read_at__isnull=True
    ).count()


@pytest.mark.slow  # in make test-long; tests/timers/test_turn_notices.py plays forty turns too
def test_forty_turns_leave_each_player_at_most_one_unread_notice_for_the_game(
    duel: Game, no_bot_tasks: Any
) -> None:
    play_turns(duel, 40)
    for seat in duel.seats.all():
        assert unread_turn_notices(seat.user, duel) <= 1
        assert unread_count(seat.user) <= 1  # games waiting, not events
    waiting = engine.next_actor(engine.from_dict(Game.objects.get(pk=duel.pk).state))
    assert unread_turn_notices(duel.seats.get(number=waiting).user, duel) == 1


def test_a_player_watching_the_game_gets_no_notice(duel: Game, no_bot_tasks: Any) -> None:
    for seat in duel.seats.all():
        person = presence.member(f"u{seat.user_id}", seat.number, f"channel-{seat.number}")
        async_to_sync(presence.touch)(duel.pk, person)
    play_turns(duel, 6)
    assert not Notification.objects.filter(game=duel, kind="your_turn").exists()


def test_acting_clears_the_notice_and_the_next_decision_updates_it_in_place(
    duel: Game, no_bot_tasks: Any
) -> None:
    decisions.your_turn(duel.pk)
    first = engine.next_actor(engine.from_dict(duel.state))
    mover = duel.seats.get(number=first).user
    (note,) = Notification.objects.filter(game=duel, kind="your_turn")
    assert note.user == mover
    while engine.next_actor(engine.from_dict(Game.objects.get(pk=duel.pk).state)) == first:
        game = Game.objects.get(pk=duel.pk)
        state = engine.from_dict(game.state)
        bot = engine.make_bot("heuristic", rng=engine.bot_rng(state, game.version))
        submit_action(
            public_id=game.public_id,
            user=mover,
            action=bot.act(state, first).to_dict(),
            expected_version=game.version,
        )
        decisions.your_turn(duel.pk)
    assert unread_turn_notices(mover, duel) == 0  # acted: nothing waits for them
    other = Notification.objects.get(game=duel, kind="your_turn")
    assert other.user != mover and other.due_at is not None


def test_opening_the_game_clears_its_notice(duel: Game, no_bot_tasks: Any, client: Client) -> None:
    decisions.your_turn(duel.pk)
    (note,) = Notification.objects.filter(game=duel, kind="your_turn")
    client.force_login(note.user)
    assert client.get(duel.get_absolute_url()).status_code == 200
    assert not Notification.objects.filter(pk=note.pk).exists()


def test_a_player_whose_game_tab_is_in_the_background_is_notified(
    duel: Game, no_bot_tasks: Any
) -> None:
    people = {}
    for seat in duel.seats.all():
        people[seat.number] = presence.member(
            f"u{seat.user_id}", seat.number, f"channel-{seat.number}"
        )
        async_to_sync(presence.touch)(duel.pk, people[seat.number])
    mover = engine.next_actor(engine.from_dict(duel.state))
    async_to_sync(presence.set_visible)(duel.pk, people[mover], False)
    assert presence.looking(duel.pk) == frozenset(people) - {mover}
    assert decisions.your_turn(duel.pk) == 1
    async_to_sync(presence.set_visible)(duel.pk, people[mover], True)
    assert presence.looking(duel.pk) == frozenset(people)

"""One live "your move" notice per game: updated in place, cleared when the
player acts or opens the game, never raised while they watch it, and raised
once they have left with the decision still open."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.utils import timezone

from games import engine
from games.models import Deadline, Game
from games.services import expire_decision, submit_action, timers
from live import presence
from notifications import decisions
from notifications.live import unread_count
from notifications.models import Notification
from tests.conftest import setup_writes

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


def looking_at(game: Game, seat: Any) -> str:
    """A visible page of ``game`` open for ``seat``'s player; its entry."""
    person = presence.member(f"u{seat.user_id}", seat.number, f"channel-{seat.number}")
    async_to_sync(presence.touch)(game.pk, person)
    return person


def look_now(game: Game) -> None:
    """Test setup: the recheck period of every put-off look has passed."""
    with setup_writes("the recheck period passed"):
        Deadline.objects.filter(game=game, notice_at__isnull=False).update(notice_at=timezone.now())


def test_a_decision_raised_while_its_player_looks_is_told_once_they_have_left(
    duel: Game, no_bot_tasks: Any
) -> None:
    seat = duel.seats.get(number=engine.from_dict(duel.state).turn)
    person = looking_at(duel, seat)
    assert decisions.your_turn(duel.pk) == 0
    (row,) = Deadline.objects.filter(game=duel)
    assert row.notice_at is not None and row.notice_at > timezone.now()  # looked at again later
    look_now(duel)
    assert decisions.your_turn(duel.pk) == 0  # still there: put off again
    assert Deadline.objects.get(pk=row.pk).notice_at > timezone.now()
    async_to_sync(presence.leave)(duel.pk, person)
    look_now(duel)
    assert decisions.your_turn(duel.pk) == 1
    assert unread_turn_notices(seat.user, duel) == 1
    assert Deadline.objects.get(pk=row.pk).notice_at is None  # told: nothing more to look at


def test_the_seat_the_timer_played_for_is_not_taken_for_present(
    duel: Game, no_bot_tasks: Any
) -> None:
    late = engine.from_dict(duel.state).turn
    assert expire_decision(duel.pk, duel.version, now=timezone.now() + timedelta(days=30))
    mine = Deadline.objects.filter(game=duel, player=late)
    assert mine.exists() and not mine.filter(notice_at__gt=timezone.now()).exists()
    assert not mine.filter(notice_at=None).exists()


def test_the_notice_after_a_timeout_says_what_the_timer_played_on_the_players_clock(
    duel: Game, no_bot_tasks: Any
) -> None:
    seat = duel.seats.select_related("user").get(number=engine.from_dict(duel.state).turn)
    seat.user.time_zone = "Asia/Tokyo"
    seat.user.save(update_fields=["time_zone"])
    decisions.your_turn(duel.pk)
    assert expire_decision(duel.pk, duel.version, now=timezone.now() + timedelta(days=30))
    decisions.your_turn(duel.pk)
    note = Notification.objects.get(user=seat.user, game=duel, kind="your_turn")
    played = duel.events.get(kind="note", payload__source="timeout").created_at
    at = played.astimezone(ZoneInfo("Asia/Tokyo"))
    clock = f"{at:%H:%M}" if at.date() == timezone.now().astimezone(at.tzinfo).date() else ""
    assert note.text.startswith("The timer played Roll for you at ")
    assert f"{clock} (JST). Your move in game {duel.public_id}: " in note.text


def test_a_player_who_answers_their_decision_is_no_longer_said_to_have_timed_out(
    duel: Game, no_bot_tasks: Any
) -> None:
    first = engine.from_dict(duel.state).turn
    assert expire_decision(duel.pk, duel.version, now=timezone.now() + timedelta(days=30))
    while engine.next_actor(state := engine.from_dict(Game.objects.get(pk=duel.pk).state)) == first:
        game = Game.objects.get(pk=duel.pk)
        bot = engine.make_bot("heuristic", rng=engine.bot_rng(state, game.version))
        submit_action(
            public_id=game.public_id,
            user=game.seats.get(number=first).user,
            action=bot.act(state, first).to_dict(),
            expected_version=game.version,
        )
    play_turns(duel, 1)  # the other's turn, back to the first player's roll
    look_now(duel)
    decisions.your_turn(duel.pk)
    note = Notification.objects.get(game=duel, kind="your_turn", user__seats__number=first)
    assert "timer" not in note.text


def test_opening_the_game_and_leaving_with_the_decision_open_tells_again(
    duel: Game, no_bot_tasks: Any, client: Client
) -> None:
    decisions.your_turn(duel.pk)
    (note,) = Notification.objects.filter(game=duel, kind="your_turn")
    client.force_login(note.user)
    assert client.get(duel.get_absolute_url()).status_code == 200
    assert not Notification.objects.filter(game=duel, kind="your_turn").exists()
    (row,) = Deadline.objects.filter(game=duel)
    assert row.notice_at is not None and row.notice_at > timezone.now()
    look_now(duel)  # the page was closed since: no socket of theirs is open
    assert decisions.your_turn(duel.pk) == 1
    assert Notification.objects.filter(game=duel, kind="your_turn", user=note.user).exists()


def test_the_sweep_finds_a_put_off_look_only_once_it_is_due(duel: Game, no_bot_tasks: Any) -> None:
    seat = duel.seats.get(number=engine.from_dict(duel.state).turn)
    looking_at(duel, seat)
    assert timers.turn_notices_due() == [duel.pk]  # the decision the start raised
    decisions.your_turn(duel.pk)
    assert timers.turn_notices_due() == []
    (row,) = Deadline.objects.filter(game=duel)
    assert timers.turn_notices_due(row.notice_at) == [duel.pk]

"""The first look at a new decision's player happens in the move's own
transaction (``notifications.subscribers.in_transaction``): no
``notify_your_turn`` task is queued while the player has the game's page or
API stream open, and a player away is told exactly once, by the task or, with
the task lost, by beat's sweep."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine
from games.models import Deadline, Game
from games.services import submit_action, timers
from games.services import subscribers as registry
from live import presence
from notifications import decisions, subscribers
from notifications.models import Notification
from notifications.tasks import sweep_notices
from tests.notifications.test_live_notices import look_now, unread_turn_notices

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The games whose ``notify_your_turn`` was queued (by a move or the
    sweep); nothing runs them unless a test does, as a lost task."""
    games: list[int] = []
    monkeypatch.setattr("notifications.tasks.notify_your_turn.delay", games.append)
    return games


@pytest.fixture
def commits(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> Callable[[Callable[[], Any]], Any]:
    """Run a write with its after-commit hooks (the task's queueing among
    them), as a real commit would."""

    def run(write: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return write()

    return run


def state_of(game: Game) -> engine.State:
    game.refresh_from_db()
    return engine.from_dict(game.state)


def hand_the_turn_over(game: Game, commits: Callable[[Callable[[], Any]], Any]) -> int:
    """The player to move plays (as the heuristic bot would) until a
    decision is the other's; returns that other seat."""
    first = engine.next_actor(state_of(game))
    while (actor := engine.next_actor(state := state_of(game))) == first:
        assert actor is not None
        bot = engine.make_bot("heuristic", rng=engine.bot_rng(state, game.version))
        user = game.seats.get(number=actor).user
        action = bot.act(state, actor).to_dict()
        commits(
            lambda user=user, action=action: submit_action(
                public_id=game.public_id, user=user, action=action, expected_version=game.version
            )
        )
    assert actor is not None
    return actor


def open_page(game: Game, seat: int, *, api: bool = False) -> str:
    """A visible page (or, with ``api``, an API stream) of ``game`` open
    for ``seat``'s player; its presence entry."""
    user_id = game.seats.get(number=seat).user_id
    entry = presence.member(f"u{user_id}", seat, f"channel-{seat}", api=api)
    async_to_sync(presence.touch)(game.pk, entry)
    return entry


def settle_start(game: Game) -> None:
    """The start's own look (its decision's player away) done, as its task would."""
    decisions.your_turn(game.pk)


@pytest.fixture
def started(duel: Game, no_bot_tasks: Any) -> Iterator[Game]:
    settle_start(duel)
    yield duel


def test_no_notice_task_is_queued_while_the_players_page_is_open(
    started: Game, queued: list[int], commits: Any
) -> None:
    for seat in (0, 1):
        open_page(started, seat)
    waiting = hand_the_turn_over(started, commits)
    assert queued == []
    (row,) = Deadline.objects.filter(game=started, player=waiting)
    assert row.notice_at is not None and row.notice_at > timezone.now()  # looked at again later
    assert not Notification.objects.filter(game=started, kind="your_turn").exists()
    assert timers.turn_notices_due() == []  # nothing for the sweep to queue either


def test_no_notice_task_is_queued_while_the_player_follows_the_api_stream(
    started: Game, queued: list[int], commits: Any
) -> None:
    other = 1 - engine.next_actor(state_of(started))
    open_page(started, other, api=True)
    waiting = hand_the_turn_over(started, commits)
    assert waiting == other
    assert queued == []
    assert Deadline.objects.get(game=started, player=waiting).notice_at > timezone.now()
    assert unread_turn_notices(started.seats.get(number=waiting).user, started) == 0


def test_an_away_player_is_told_exactly_once(
    started: Game, queued: list[int], commits: Any
) -> None:
    waiting = hand_the_turn_over(started, commits)
    assert queued == [started.pk]
    assert decisions.your_turn(started.pk) == 1  # what the task runs
    assert decisions.your_turn(started.pk) == 0  # run twice: claimed already
    assert sweep_notices() == 0
    user = started.seats.get(number=waiting).user
    assert unread_turn_notices(user, started) == 1


def test_an_away_players_notice_whose_task_is_lost_is_raised_once_by_the_sweep(
    started: Game, queued: list[int], commits: Any
) -> None:
    waiting = hand_the_turn_over(started, commits)
    assert queued == [started.pk]  # and lost: the worker was killed
    assert sweep_notices() == 1
    assert queued == [started.pk, started.pk]
    assert decisions.your_turn(started.pk) == 1  # the sweep's task
    cache.delete(f"timers:notice:{started.pk}")  # the sweep's mark of a queued task
    assert sweep_notices() == 0
    assert unread_turn_notices(started.seats.get(number=waiting).user, started) == 1


def test_a_player_who_leaves_just_after_the_move_is_told_once_at_the_next_look(
    started: Game, queued: list[int], commits: Any
) -> None:
    other = 1 - engine.next_actor(state_of(started))
    page = open_page(started, other)
    waiting = hand_the_turn_over(started, commits)
    assert queued == []  # looked at in the move: there
    async_to_sync(presence.leave)(started.pk, page)
    look_now(started)  # the recheck period has passed
    assert sweep_notices() == 1
    assert decisions.your_turn(started.pk) == 1
    assert decisions.your_turn(started.pk) == 0
    assert unread_turn_notices(started.seats.get(number=waiting).user, started) == 1


def test_a_player_who_arrives_before_the_task_runs_is_not_told(
    started: Game, queued: list[int], commits: Any
) -> None:
    waiting = hand_the_turn_over(started, commits)
    assert queued == [started.pk]  # away at the move's look
    open_page(started, waiting)
    assert decisions.your_turn(started.pk) == 0
    assert Deadline.objects.get(game=started, player=waiting).notice_at > timezone.now()
    assert unread_turn_notices(started.seats.get(number=waiting).user, started) == 0


def test_the_movers_notice_is_cleared_by_their_move_when_the_next_player_is_watching(
    started: Game, queued: list[int], commits: Any
) -> None:
    mover = engine.next_actor(state_of(started))
    user = started.seats.get(number=mover).user
    assert unread_turn_notices(user, started) == 1  # the start's, raised while away
    open_page(started, 1 - mover)
    hand_the_turn_over(started, commits)
    assert queued == []
    assert unread_turn_notices(user, started) == 0  # acted: nothing waits for them


def test_the_task_looks_when_presence_cannot_be_read(
    started: Game, queued: list[int], commits: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seat in (0, 1):
        open_page(started, seat)
    monkeypatch.setattr(presence, "looking", lambda game_pk: None)  # Redis cannot say
    hand_the_turn_over(started, commits)
    assert queued == [started.pk]


def test_the_look_in_the_move_costs_two_statements(
    started: Game, queued: list[int], commits: Any
) -> None:
    """Putting the row off and clearing the notices of whoever has no
    decision left: one statement each, nothing read."""
    for seat in (0, 1):
        open_page(started, seat)
    looks: list[list[str]] = []

    def counted(record: Any) -> None:
        with CaptureQueriesContext(connection) as q:
            subscribers.in_transaction(record)
        statements = [x["sql"].split()[0] for x in q if "SAVEPOINT" not in x["sql"]]
        if statements:
            looks.append(statements)

    registered = subscribers.SUBSCRIBER
    registry.subscribe(dataclasses.replace(registered, in_transaction=counted))
    try:
        hand_the_turn_over(started, commits)
    finally:
        registry.subscribe(registered)
    assert queued == []
    assert looks == [["UPDATE", "DELETE"]]


def test_the_sweep_queues_no_task_for_a_player_still_at_the_game_when_their_look_is_due(
    started: Game, queued: list[int], commits: Any
) -> None:
    other = 1 - engine.next_actor(state_of(started))
    open_page(started, other)
    waiting = hand_the_turn_over(started, commits)
    look_now(started)  # the recheck period has passed; they are still there
    assert timers.turn_notices_due() == [started.pk]
    assert sweep_notices() == 0
    assert queued == []
    assert Deadline.objects.get(game=started, player=waiting).notice_at > timezone.now()
    assert timers.turn_notices_due() == []


def test_the_sweep_queues_the_task_of_a_game_whose_player_is_away_and_not_of_one_watched(
    started: Game, alice: Any, queued: list[int], commits: Any
) -> None:
    from accounts.models import User
    from tests.games.conftest import _started

    watched = _started(alice, User.objects.create_user("carol", "carol@example.com", None))
    decisions.your_turn(watched.pk)
    open_page(watched, 1 - engine.next_actor(state_of(watched)))
    hand_the_turn_over(watched, commits)
    hand_the_turn_over(started, commits)
    assert queued == [started.pk]  # lost: the worker was killed
    look_now(watched)
    assert sorted(timers.turn_notices_due()) == sorted([started.pk, watched.pk])
    assert sweep_notices() == 1
    assert queued == [started.pk, started.pk]


def test_a_move_whose_presence_read_fails_commits_and_leaves_the_look_to_the_task(
    started: Game, queued: list[int], commits: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import redis

    class Unreachable:
        def pipeline(self, **kwargs: Any) -> Any:
            raise redis.ConnectionError("Redis is unreachable")

    monkeypatch.setattr(presence, "_sync_redis", Unreachable)
    version = started.version
    waiting = hand_the_turn_over(started, commits)
    assert state_of(started) and started.version > version
    assert queued == [started.pk]
    assert Deadline.objects.get(game=started, player=waiting).notice_at <= timezone.now()

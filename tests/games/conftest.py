"""Shared fixtures for the site's game tests: people, started games and a
way to script the engine state in test setup."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import engine, services
from games.models import Game
from tests.conftest import setup_writes


@pytest.fixture
def no_bot_tasks() -> Iterator[Any]:
    """Bot moves are Celery tasks; tests that use this drive bots explicitly.
    Not autouse: tests with a real worker need the real scheduling."""
    with mock.patch("games.scheduling.schedule_bots") as scheduled:
        yield scheduled


def writes_after_the_lock(queries: CaptureQueriesContext) -> list[str]:
    """A write's statements after its first, the lock (which reads the game,
    its seats and deadline rows in one round trip); each must write, since
    the write reads nothing back."""
    lock, *rest = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    assert "FOR UPDATE" in lock, lock[:80]
    read = [sql[:80] for sql in rest if not sql.lstrip().upper().startswith(WRITES)]
    assert not read, read
    return rest


WRITES = ("INSERT", "UPDATE", "DELETE")


def bots_play_until_seat_zero_acts(game: Game) -> None:
    """The bot's opening moves (its due row's, as beat would play them)
    until seat 0 has the next decision."""
    for _ in range(50):
        game.refresh_from_db()
        if engine.next_actor(engine.from_dict(game.state)) == 0:
            return
        assert services.play_bot_move(game.pk, game.version)


def _user(username: str) -> User:
    return User.objects.create_user(username, f"{username}@example.com", f"pw-{username}-123")


@pytest.fixture
def alice(db: None) -> User:
    return _user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return _user("bob")


@pytest.fixture
def charlie(db: None) -> User:
    """Has no seat in the games below: a spectator."""
    return _user("charlie")


def _started(host: User, *others: User, is_public: bool = True, bots: int = 0) -> Game:
    game = services.create_game(
        host=host, max_seats=len(others) + bots + 1, bot_delay_ms=0, is_public=is_public
    )
    for user in others:
        services.join_game(public_id=game.public_id, user=user, invite_token=game.invite_token)
    for _ in range(bots):
        services.add_bot(public_id=game.public_id, user=host)
    services.start_game(public_id=game.public_id, user=host)
    game.refresh_from_db()
    return game


@pytest.fixture
def duel(alice: User, bob: User) -> Game:
    """Alice (seat 0) against Bob (seat 1), public, started."""
    return _started(alice, bob)


@pytest.fixture
def private_duel(alice: User, bob: User) -> Game:
    return _started(alice, bob, is_public=False)


@pytest.fixture
def edit_state() -> Callable[..., engine.State]:
    """``edit_state(game, change)``: load the engine state, let ``change``
    script it (turn, dice...) or return a new one (``engine.setup``), and
    save it. Test setup only."""

    def edit(game: Game, change: Callable[[engine.State], Any]) -> engine.State:
        state = engine.from_dict(game.state)
        changed = change(state)
        if isinstance(changed, engine.State):
            state = changed
        game.state = engine.to_dict(state)
        with setup_writes("a scripted position"):
            game.save(update_fields=["state"])
        return state

    return edit


def played_turns(game: Game, turns: int) -> None:
    """The game ``turns`` turns on, as the live estimates count them (test
    setup): a version with a ``turn_start`` each, the position unchanged.
    Later real moves go on from the last of these versions."""
    from games.models import GameEvent

    state = engine.from_dict(game.state)
    game.refresh_from_db(fields=["version"])
    rows = [
        GameEvent(
            game=game,
            seq=game.version + i,
            index=0,
            kind="turn_start",
            payload={"kind": "turn_start", "player": state.turn, "turn_no": state.turn_no + i},
        )
        for i in range(1, turns + 1)
    ]
    with setup_writes("turns played, for the estimates' delay"):
        GameEvent.objects.bulk_create(rows)
        Game.objects.filter(pk=game.pk).update(version=game.version + turns)
    game.refresh_from_db()

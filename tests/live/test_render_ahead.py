"""A watched game's first push is rendered while its move commits
(``broadcast.render_ahead``): the same push as after the commit, never from
the database, and nothing kept from a move that rolls back."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction

from common import memo
from games.models import Game
from games.web import presenters
from games.web.snapshot import Snapshot
from live import broadcast, groups
from live.presence import Summary
from tests.live.conftest import move, pushes_of

pytestmark = pytest.mark.usefixtures("live_db")

WATCHED = Summary(frozenset(), 1)


@pytest.fixture
def sent() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """What the broadcast sends, one spectator watching, nothing scheduled."""
    out: list[tuple[str, dict[str, Any]]] = []

    def send(batch: list[tuple[str, dict[str, Any]]]) -> None:
        out.extend(batch)

    with (
        mock.patch("live.presence.listening", return_value=WATCHED),
        mock.patch.object(groups, "send", side_effect=send),
        mock.patch("games.scheduling.schedule_timers"),
    ):
        yield out


@pytest.fixture
def ahead() -> Iterator[list[Any]]:
    """Each render ahead's outcome: what it rendered and sent (None if it
    did not send), or the exception it raised."""
    outcomes: list[Any] = []
    real = broadcast._render_ahead

    def recording(*args: Any) -> Any:
        try:
            result = real(*args)
        except Exception as exc:
            outcomes.append(exc)
            raise
        finally:
            # The render's thread keeps no database connection either way.
            assert connection.connection is None
        outcomes.append(result)
        return result

    with mock.patch.object(broadcast, "_render_ahead", side_effect=recording):
        yield outcomes


def spectators_push(sent: list[tuple[str, dict[str, Any]]], game: Game, version: int) -> str:
    [html] = [
        m["html"]
        for g, m in sent
        if g == groups.spectators_group(game.pk) and m["version"] == version
    ]
    return html


def test_a_watched_game_is_rendered_ahead_as_it_would_be_after_the_commit(
    duel: Game, sent: list[Any], ahead: list[Any]
) -> None:
    move(duel)  # its push marks the game watched and fills the log cache
    assert ahead == []
    version = move(duel)
    assert len(ahead) == 1 and ahead[0] is not None and not isinstance(ahead[0], Exception)
    pushed = spectators_push(sent, duel, version)
    # Rendered again after the commit, from the database: the same push.
    game = Game.objects.get(pk=duel.pk)
    with mock.patch.object(groups, "send"):
        [first, _] = list(pushes_of(game))
    [again] = [m["html"] for g, m in first if g == groups.spectators_group(duel.pk)]
    assert pushed == again
    assert f"<!--push {version}-->" in pushed


def test_an_unwatched_game_is_not_rendered_ahead(duel: Game, ahead: list[Any]) -> None:
    memo.clear_all()  # a process that has not pushed this game
    with (
        mock.patch("live.presence.listening", return_value=Summary(frozenset(), 0)),
        mock.patch("games.scheduling.schedule_timers"),
    ):
        move(duel)
        move(duel)
    assert ahead == []


def test_a_render_ahead_that_needs_the_database_falls_back_to_rendering_after(
    duel: Game, sent: list[Any], ahead: list[Any]
) -> None:
    move(duel)
    presenters.LOG_LINES.clear()  # the log must now be read from the database
    version = move(duel)
    [outcome] = ahead
    assert isinstance(outcome, broadcast.NeedsDatabase)
    pushed = spectators_push(sent, duel, version)
    assert pushed.startswith(f"<!--push {version}-->")
    assert 'id="players"' in pushed


def test_a_move_rolled_back_is_not_sent_and_leaves_no_lines_in_the_log_shown_next(
    duel: Game, sent: list[Any], ahead: list[Any]
) -> None:
    version = move(duel)

    class Abandon(Exception):
        pass

    with pytest.raises(Abandon), transaction.atomic():
        move(duel)
        raise Abandon
    deadline = time.monotonic() + 5
    while not ahead and time.monotonic() < deadline:
        time.sleep(0.01)  # the render ahead gives up waiting for the commit
    assert ahead == [None]  # rendered, never sent
    assert max(m["version"] for _, m in sent) == version
    game = Game.objects.get(pk=duel.pk)
    shown = presenters.log_lines(Snapshot.of(game), None)
    memo.clear_all()  # as a process that never saw the move read it
    assert shown == presenters.log_lines(Snapshot.of(game), None)


def test_only_the_last_write_of_a_transaction_is_rendered_ahead(
    duel: Game, sent: list[Any], ahead: list[Any]
) -> None:
    from games.services import play
    from games.services.subscribers import announce

    move(duel)  # its push marks the game watched
    written: list[Any] = []
    with mock.patch.object(play, "announce", written.append):
        move(duel)  # what this write announces, kept to be announced below
    [last] = written
    earlier = dataclasses.replace(last, last_write=False, scratch={})
    with transaction.atomic():
        announce(earlier)
        assert not broadcast.rendering_ahead(earlier)
        announce(last)
        assert broadcast.rendering_ahead(last)
    # The commit let the last write's render go out, and waited for it.
    assert len(ahead) == 1 and ahead[0] is not None and not isinstance(ahead[0], Exception)


def test_a_push_rendered_ahead_goes_out_before_presence_is_read(duel: Game) -> None:
    order: list[str] = []

    def listening(game_pk: int) -> Summary:
        order.append("presence")
        return WATCHED

    def send(batch: list[tuple[str, dict[str, Any]]]) -> None:
        if batch:
            order.append("send")

    with (
        mock.patch("live.presence.listening", side_effect=listening),
        mock.patch.object(groups, "send", side_effect=send),
        mock.patch("games.scheduling.schedule_timers"),
    ):
        move(duel)
        assert order[:2] == ["presence", "send"]  # not watched before: asked first
        order.clear()
        move(duel)
        assert order[:2] == ["send", "presence"]  # the seats' renders still ask

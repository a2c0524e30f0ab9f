"""The /watch/ list of live public games."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game
from ratings.models import PlayerRating, Pool
from tests.conftest import setup_writes

pytestmark = pytest.mark.django_db


def test_watch_lists_live_public_games_with_players_ratings_and_turn(
    client: Client, no_bot_tasks: Any
) -> None:
    ada = User.objects.create_user("ada", "ada@example.com", "pw-ada-12345")
    PlayerRating.objects.create(user=ada, pool=Pool.REGULAR, mu=30, sigma=3, ordinal=21, games=12)
    public = services.create_seated_game(humans=[ada], bots=["heuristic"], start=True)
    private = services.create_seated_game(
        humans=[], bots=["heuristic"] * 2, start=True, is_public=False
    )
    lobby_only = services.create_game(host=ada)
    body = client.get("/watch/").content.decode()
    assert public.public_id in body
    assert private.public_id not in body and lobby_only.public_id not in body
    assert "ada" in body and "(2340)" in body  # 1500 + 40 * 21
    assert "bot</span>" in body
    assert "1: " in body  # turn 1 and whose turn it is


def test_watch_sorts_by_spectators(client: Client, no_bot_tasks: Any) -> None:
    quiet = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    busy = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    with mock.patch("live.watch.watching_counts", return_value={busy.pk: 7, quiet.pk: 1}):
        by_spectators = client.get("/watch/?sort=spectators").content.decode()
    assert by_spectators.index(busy.public_id) < by_spectators.index(quiet.public_id)
    recent = client.get("/watch/?sort=nonsense").content.decode()
    assert recent.index(busy.public_id) < recent.index(quiet.public_id)


def finished_game(*humans: User, is_public: bool = True, moves: int = 12) -> Game:
    """A game of ``humans`` and one bot, played a little, that ends as the humans resign."""
    game = services.create_seated_game(
        humans=list(humans), bots=["heuristic"], start=True, is_public=is_public
    )
    for _ in range(moves):
        game.refresh_from_db()
        if not services.play_bot_move(game.pk, game.version):
            break
    for user in humans:
        game.refresh_from_db()
        services.resign(public_id=game.public_id, user=user, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_finished_tab_lists_public_finished_games_with_result_length_and_replay(
    client: Client, no_bot_tasks: Any
) -> None:
    ada, grace = (
        User.objects.create_user(n, f"{n}@example.com", f"pw-{n}-12345") for n in ("ada", "grace")
    )
    done = finished_game(ada)
    hidden = finished_game(grace, is_public=False)
    running = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    body = client.get("/watch/finished/").content.decode()
    assert done.public_id in body
    assert hidden.public_id not in body and running.public_id not in body
    winner = done.seats.get(final_rank=1)
    assert f"<strong>{winner.name} won</strong>" in body
    assert "1. " + winner.name in body and "2. ada" in body  # the ranking, winner first
    turns = done.state["turn_no"] + 1
    assert f"{turns} turn" in body and "lasted" in body
    assert f'href="/games/{done.public_id}/replay/"' in body
    assert 'aria-current="page">Finished</a>' in body
    # The live tabs link here, and the Finished tab has no live socket.
    assert 'href="/watch/finished/"' in client.get("/watch/").content.decode()
    assert "ws-connect" not in body


def test_finished_tab_pages_the_newest_first(client: Client, no_bot_tasks: Any) -> None:
    ada = User.objects.create_user("ada", "ada@example.com", "pw-ada-12345")
    games = [finished_game(ada, moves=0) for _ in range(3)]
    later = timezone.now()
    with setup_writes("the games' end times, an hour apart"):
        for offset, game in enumerate(games):  # games[0] finished last
            Game.objects.filter(pk=game.pk).update(finished_at=later - timedelta(hours=offset))
    with mock.patch("live.watch.FINISHED_PER_PAGE", 2):
        first = client.get("/watch/finished/").content.decode()
        second = client.get("/watch/finished/?page=2").content.decode()
        beyond = client.get("/watch/finished/?page=banana")
    assert first.index(games[0].public_id) < first.index(games[1].public_id)
    assert games[2].public_id not in first and "Page 1 of 2" in first
    assert games[2].public_id in second and games[0].public_id not in second
    assert beyond.status_code == 200


def test_lobby_points_to_finished_games_when_none_is_running(
    client: Client, no_bot_tasks: Any
) -> None:
    ada = User.objects.create_user("ada", "ada@example.com", "pw-ada-12345")
    client.force_login(ada)
    assert "You are not in any game yet" in client.get("/lobby/").content.decode()
    finished_game(ada, moves=0)
    body = client.get("/lobby/").content.decode()
    assert "You are not in any game yet" not in body
    assert 'href="/u/ada/"' in body
    assert 'href="/watch/finished/"' in body


def test_home_shows_small_live_boards_of_public_games_in_play(
    client: Client, no_bot_tasks: Any
) -> None:
    ada = User.objects.create_user("ada", "ada@example.com", "pw-ada-12345")
    shown = services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    private = services.create_seated_game(
        humans=[], bots=["heuristic"] * 2, start=True, is_public=False
    )
    done = finished_game(ada, moves=0)
    body = client.get("/").content.decode()
    assert f'data-live-board="/ws/games/{shown.public_id}/"' in body
    assert f'data-version="{shown.version}"' in body
    assert private.public_id not in body and done.public_id not in body
    assert "board-live" in body and "board-base" in body and "to play" in body
    # Three boards on one page: no id of the game page's board is repeated.
    assert (
        'id="sq-' not in body and 'id="token-' not in body and 'aria-labelledby="board' not in body
    )
    assert "js/home-live" in body


def test_home_caps_the_live_boards_at_three(client: Client, no_bot_tasks: Any) -> None:
    for _ in range(4):
        services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True)
    assert client.get("/").content.decode().count("data-live-board=") == 3

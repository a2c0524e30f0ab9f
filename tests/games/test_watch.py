"""The /watch/ list of live public games."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.test import Client

from accounts.models import User
from games import services
from ratings.models import PlayerRating, Pool

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

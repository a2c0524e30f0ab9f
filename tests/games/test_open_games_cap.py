"""The cap on games one person is in at once, and how finishing games raises it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game, Seat
from games.services.lobby import open_games_cap
from tests.conftest import setup_writes

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_bot_tasks")]

CREATE = {"preset": "us-2003", "max_seats": "4", "turn_seconds": "3600", "visibility": "public"}


@pytest.fixture
def cap_of_two(settings: Any) -> None:
    settings.OPEN_GAMES_CAP = 2
    settings.OPEN_GAMES_BONUS_EVERY = 3
    settings.OPEN_GAMES_CAP_MAX = 4


def finish_games(user: User, count: int, status: str = Game.Status.FINISHED) -> None:
    for _ in range(count):
        game = services.create_seated_game(humans=[user], bots=["random"])
        with setup_writes("a game over"):
            Game.objects.filter(pk=game.pk).update(status=status)


@pytest.mark.usefixtures("cap_of_two")
def test_creating_past_the_cap_is_refused(alice: User) -> None:
    services.create_game(host=alice)
    services.create_game(host=alice, seat_host=False)  # hosting counts too
    with pytest.raises(services.NotAllowed, match="2 games that are open or under way"):
        services.create_game(host=alice)
    assert Game.objects.filter(host=alice).count() == 2


@pytest.mark.usefixtures("cap_of_two")
def test_joining_past_the_cap_is_refused(alice: User, bob: User) -> None:
    services.create_game(host=alice)
    services.create_game(host=alice)
    bobs = services.create_game(host=bob)
    with pytest.raises(services.NotAllowed, match="which is your limit"):
        services.join_game(public_id=bobs.public_id, user=alice)
    assert not bobs.seats.filter(user=alice).exists()


@pytest.mark.usefixtures("cap_of_two")
def test_finished_and_abandoned_games_leave_room(alice: User, bob: User) -> None:
    first = services.create_game(host=alice)
    services.create_game(host=alice)
    with setup_writes("a game abandoned"):
        Game.objects.filter(pk=first.pk).update(status=Game.Status.ABANDONED)
    services.create_game(host=alice)
    assert Seat.objects.filter(user=alice).count() == 3


@pytest.mark.usefixtures("cap_of_two")
def test_finishing_games_raises_the_cap_up_to_the_most(alice: User) -> None:
    assert open_games_cap(alice) == 2
    finish_games(alice, 2)
    assert open_games_cap(alice) == 2
    finish_games(alice, 1)
    assert open_games_cap(alice) == 3
    finish_games(alice, 2, status=Game.Status.ABANDONED)  # abandoned games earn nothing
    assert open_games_cap(alice) == 3
    finish_games(alice, 9)
    assert open_games_cap(alice) == 4


@pytest.mark.usefixtures("cap_of_two")
def test_the_pages_show_the_cap(alice: User, bob: User) -> None:
    services.create_game(host=alice)
    services.create_game(host=alice)
    client = Client()
    client.force_login(alice)
    response = client.post("/lobby/create", CREATE)
    assert response.status_code == 422
    assert "which is your limit" in response.content.decode()
    bobs = services.create_game(host=bob)
    response = client.post(f"/games/{bobs.public_id}/join", follow=True)
    assert "which is your limit" in response.content.decode()
    assert Game.objects.filter(host=alice).count() == 2
    assert not bobs.seats.filter(user=alice).exists()


def test_the_default_cap_is_twenty(alice: User) -> None:
    assert open_games_cap(alice) == 20
